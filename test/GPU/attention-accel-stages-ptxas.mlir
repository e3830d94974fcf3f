// REQUIRES: cuda-toolkit
// The K / V ring (rock.gpu_accel_stages, opt-in) through ptxas: no spills
// for q-1 decode (dense N = 3 and 4, rocMLIR's default K layout N = 4,
// pages of 16 and 64 tokens N = 3) and multi-token decode (q 16 x R 4,
// N = 3). When this test was written: 202 / 162 / 166 / 254 / 254 / 170
// registers (the two-buffer staging: 226 / 226 / 239 / 255 / 241 / 240; p64
// there by page runs, which the ring does not take); 48 KiB, 36 KiB, 44 KiB
// of shared memory. Each tile waits once, for all but the
// N - 2 newest groups.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d3.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d3.mlir %t/d3
// RUN: FileCheck %s --check-prefix=W1 < %t/d3/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d3/rock_attention_kernel.ptx -o %t/d3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS48
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_stages=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d4.mlir %t/d4
// RUN: FileCheck %s --check-prefix=W2 < %t/d4/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d4/rock_attention_kernel.ptx -o %t/d4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS36
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_stages=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k4.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k4.mlir %t/k4
// RUN: FileCheck %s --check-prefix=W2 < %t/k4/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/k4/rock_attention_kernel.ptx -o %t/k4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS44
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 4096 --page-size 2048 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p16.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p16.mlir %t/p16
// RUN: FileCheck %s --check-prefix=W1 < %t/p16/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/p16/rock_attention_kernel.ptx -o %t/p16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS48
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 1024 --page-size 8192 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p64.mlir %t/p64
// RUN: %ptxas -arch=sm_90 -v %t/p64/rock_attention_kernel.ptx -o %t/p64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS48
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 16 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -causal -prefix_offset=8176,8176,8176,8176,8176,8176,8176,8176 --module-attr rock.gpu_accel_stages=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/m3.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/m3.mlir %t/m3
// RUN: FileCheck %s --check-prefix=W1 < %t/m3/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/m3/rock_attention_kernel.ptx -o %t/m3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS48
// K^T pairs (rock.gpu_accel_kt_pairs, rocMLIR's default K layout): 231
// registers when this test was written (239 without), 48 KiB.
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_kt_pairs=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/kp.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/kp.mlir %t/kp
// RUN: %ptxas -arch=sm_90 -v %t/kp/rock_attention_kernel.ptx -o %t/kp.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS48
// W1: cp.async.cg.shared.global
// W1-NOT: cp.async.wait_group 0
// W1: cp.async.wait_group 1;
// W1-NOT: cp.async.wait_group 1;
// W2: cp.async.cg.shared.global
// W2-NOT: cp.async.wait_group 0
// W2: cp.async.wait_group 2;
// W2-NOT: cp.async.wait_group 2;
// PTXAS48: 0 bytes spill stores, 0 bytes spill loads
// PTXAS48: 49152 bytes smem
// PTXAS36: 0 bytes spill stores, 0 bytes spill loads
// PTXAS36: 36864 bytes smem
// PTXAS44: 0 bytes spill stores, 0 bytes spill loads
// PTXAS44: 45056 bytes smem
