// GPU bundles without a GPU: rock-run --compile-only lowers a module in
// gpu.launch form (Inputs/gpu-naive-attention.mlir) and writes the bundle;
// rock-run-gpu --check reads it back, generates the inputs and prints the
// kernel-parameter mapping by argument role. Outlining orders the kernel
// parameters by first use (V first), so the mapping is not the identity.
// RUN: rock-run %S/Inputs/gpu-naive-attention.mlir --compile-only -o %t.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE < %t.bundle
// BUNDLE: rock-gpu-bundle 1
// BUNDLE-NEXT: arch sm_90
// BUNDLE: harness seq_len_k 64
// BUNDLE: harness rand 7
// BUNDLE: object 0 rock_attention_kernel ptx {{[0-9]+}}
// BUNDLE: .target sm_90
// BUNDLE: function rock_attention 4
// BUNDLE-NEXT: arg 0 f32 64
// BUNDLE-NEXT: arg 1 f32 1024
// BUNDLE-NEXT: arg 2 f32 1024
// BUNDLE-NEXT: arg 3 f32 64
// BUNDLE-NEXT: scratch 1024
// BUNDLE-NEXT: launch 0 rock_attention_kernel grid 1 1 1 block 4 1 1 smem 0
// BUNDLE-NEXT: param arg 2
// BUNDLE-NEXT: param arg 0
// BUNDLE-NEXT: param arg 1
// BUNDLE-NEXT: param scratch 0
// BUNDLE-NEXT: param arg 3
// BUNDLE-NEXT: end

// RUN: rock-run-gpu %t.bundle --check | FileCheck %s --check-prefix=MAP
// MAP: rock_attention launch 0: rock_attention_kernel (rock_attention_kernel ptx) grid 1 1 1 block 4 1 1 smem 0: V, Q, K, scratch 0 (1024 bytes), out

// The GPU runner generates exactly rock-run's inputs from the same harness.
// RUN: rock-run-gpu %t.bundle --check -pi | grep -v launch > %t.gpu-inputs
// RUN: rock-gen -seq_len_q 4 -seq_len_k 64 -head_dim_qk 16 -head_dim_v 16 -rand 7 -rand_type float -rand_min -1 -rand_max 1 -relDiff_threshold 1e-4 -pv | rock-run -pi | grep -v '^\[' > %t.cpu-inputs
// RUN: diff %t.gpu-inputs %t.cpu-inputs
// RUN: FileCheck %s --check-prefix=INPUTS < %t.gpu-inputs
// INPUTS: input Q (f32, 64 elements):
// INPUTS: input K (f32, 1024 elements):
// INPUTS: input V (f32, 1024 elements):

// Without a GPU driver the runner says so in one line, before any input is
// generated.
// RUN: sh -c 'ROCK_CUDA_LIBRARY=%t.no-such-lib rock-run-gpu %t.bundle; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: rock-run-gpu: error: no CUDA driver on this machine (cannot load {{.*}}no-such-lib
// NODRIVER-NEXT: exit 3

// RUN: sh -c 'rock-run-gpu; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: rock-run-gpu: no bundle given (see rock-run-gpu --help)
// NOFILE-NEXT: exit 2
// RUN: rock-run-gpu --help | FileCheck %s --check-prefix=HELP
// HELP: usage: rock-run-gpu BUNDLE

// RUN: sh -c 'rock-run %S/Inputs/gpu-naive-attention.mlir --compile-only; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOOUT
// NOOUT: rock-run: --compile-only and -o FILE go together (see rock-run --help)
// NOOUT-NEXT: exit 2
// RUN: sh -c 'rock-gen -seq_len_q 1 -seq_len_k 4 -head_dim_qk 2 -head_dim_v 2 -pv | rock-run --compile-only -o %t.cpu; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: rock-run: error: --compile-only needs a GPU module (mhal.arch = "sm_*"); <stdin> is for the CPU
// CPU-NEXT: exit 3

// rock-gen --arch sm_90 | rock-run compiles and runs in one step where MLIR
// and a GPU share a machine; without a driver it stops after compiling.
// RUN: sh -c 'rock-gen -seq_len_q 1 -seq_len_k 64 -head_dim_qk 16 -head_dim_v 16 --arch sm_90 -pv --module-attr rock.gpu_accel_key_warps=1 | ROCK_CUDA_LIBRARY=%t.no-such-lib rock-run; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: rock-run: error: no CUDA driver on this machine (cannot load {{.*}}no-such-lib
// PIPE-NEXT: exit 3

// A paged split-KV module from rock-gen: the launches take the page tables
// (device addresses, rebased by the runner) and the combine takes the
// partials, by role.
// RUN: rock-gen -t bf16 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 96 -head_dim_qk 24 -head_dim_v 24 -split_kv 4 -return_lse --paged-attention --num-pages 64 --page-size 72 --arch sm_90 -pv | rock-run --compile-only -o %t.paged
// RUN: rock-run-gpu %t.paged --check | FileCheck %s --check-prefix=PAGED
// PAGED: rock_attention launch 0: {{.*}}: Q, K page table, V page table
// PAGED: rock_attention_combine launch 0: {{.*}}: {{.*}}partial out{{.*}}

// A fused combine (rock.gpu_fused_combine): one launch, and the arrival
// counters as scratch that starts zeroed (`scratch N zero`, from the
// memref.alloc marked rock.zero_init; other scratch is filled with 0xff).
// A scratch line with another word is a bundle error.
// RUN: rock-gen -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK -return_lse --arch sm_90 -pv --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 | rock-run --compile-only -o %t.fused
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused
// RUN: rock-run-gpu %t.fused --check | FileCheck %s --check-prefix=FUSEDMAP
// RUN: sed 's/^scratch 8 zero$/scratch 8 zeros/' %t.fused > %t.badzero
// RUN: sh -c 'rock-run-gpu %t.badzero --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=BADZERO
// FUSED: function rock_attention 5
// FUSED-NEXT: arg
// FUSED: scratch 32768
// FUSED-NEXT: scratch 512
// FUSED-NEXT: scratch 8 zero
// FUSED-NEXT: launch 0 rock_attention_kernel grid 16 1 1 block 32 1 1 smem 0
// FUSED-NOT: launch
// FUSED: end
// FUSEDMAP: scratch 0 (32768 bytes), scratch 1 (512 bytes), scratch 2 (8 bytes, zeroed)
// BADZERO: rock-run-gpu: error: bundle line {{[0-9]+}}: bad scratch line
// BADZERO-NEXT: exit 3
