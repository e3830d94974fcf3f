// rock-run --time-probe: after each kernel run a plain read of the K and V
// the kernel streams (paged: every page through its table), and the
// kernel's rate over the probe's. probe_bytes is the whole of K and V:
// 1 batch x 2 KV heads x 256 keys x d 64 x 4 bytes = 131072 each.
// RUN: rock-gen --operation attention -t f32 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --paged-attention --page-size 1024 --num-pages 32 -pv | rock-run --time --time-probe --kernel-repeats 3 | FileCheck %s
// RUN: rock-gen --operation attention -t f32 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 -pv | rock-run --time --time-probe | FileCheck %s
// CHECK: [1 1 1]
// CHECK-NEXT: probe_bytes: 262144
// CHECK-NEXT: probe_time_ms: {{[0-9]+\.[0-9]+}}
// CHECK-NEXT: probe_time_min_ms: {{[0-9]+\.[0-9]+}}
// CHECK-NEXT: probe_read_gbps: {{[0-9]+\.[0-9]+}}
// CHECK-NEXT: kernel_vs_probe: {{[0-9]+\.[0-9]+}}
// CHECK-NEXT: kernel_vs_probe_best: {{[0-9]+\.[0-9]+}}
// CHECK-NEXT: compile_time_ms:
// CHECK-NEXT: kernel_time_ms:

// Without --time there is nothing to pair the probe with; a GPU module's
// kernels do not read host memory.
// RUN: rock-gen --operation attention -t f32 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 -pv > %t.cpu.mlir
// RUN: not rock-run --time-probe %t.cpu.mlir 2>&1 | FileCheck %s --check-prefix=NOTIME
// NOTIME: rock-run: --time-probe needs --time
// RUN: rock-gen --operation attention -t f16 --arch sm_90 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 -pv > %t.gpu.mlir
// RUN: not rock-run --time --time-probe %t.gpu.mlir 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: rock-run: error: --time-probe reads host memory: it is for CPU modules, not sm_90
