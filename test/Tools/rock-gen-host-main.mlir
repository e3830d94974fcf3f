// REQUIRES: mlir-runner
// rocmlir-gen's host harness in a rock-gen module runs without rock-run: the
// CPU pipeline lowers the kernel and the host functions (TOSA to loops), and
// mlir-runner runs @main, which fills the inputs, calls the kernel wrapper
// (@rock_attention_cpu, or @rock_attention_gpu for a GPU target; with
// split-KV it combines the partials), @host_naive_attention, and prints the
// gates of the output (and of the LSE) against that MLIR reference. f32 runs
// compare two f32 computations, so their relative gate is 1e-5 (the default
// 1e-6 is for a kernel against a reference it rounds to).
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -relDiff_threshold 1e-5 -pv | rock-opt --rock-cpu-pipeline | mlir-runner -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s --check-prefix=ONE
// RUN: rock-gen -t f16 -g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -causal --with-attn-scale --with-attn-bias -pv | rock-opt --rock-cpu-pipeline | mlir-runner -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s --check-prefix=ONE
// RUN: rock-gen -t i8 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 --with-attn-scale -pv | rock-opt --rock-cpu-pipeline | mlir-runner -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s --check-prefix=ONE
// Paged: @main builds the pages and their table from the dense buffers.
// RUN: rock-gen -t f16 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 8 -seq_len_k 32 -head_dim_qk 16 -head_dim_v 16 --paged-attention --page-size 128 --transV -pv | rock-opt --rock-cpu-pipeline | mlir-runner -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s --check-prefix=ONE
// ONE: {{^}}[1 1 1]
// ONE-NOT: [
// A GPU target's @rock_attention_gpu, with the host combine of the splits
// (the kernel on the CPU here), and the LSE checked too.
// RUN: rock-gen --arch gfx942 -t f16 -g 2 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 16 -head_dim_v 16 -current_seq_len=30,7 -return_lse -split_kv 3 -pv | rock-opt --rock-cpu-pipeline | mlir-runner -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s --check-prefix=TWO
// TWO: {{^}}[1 1 1]
// TWO-NEXT: {{^}}[1 1 1]
// The gates can fail: the kernel wrapper that skips the kernel leaves the
// NaN the outputs start as.
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 -pv | sed 's/^    call @rock_attention(.*//' | rock-opt --rock-cpu-pipeline | mlir-runner -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s --check-prefix=NAN
// NAN: {{^}}[0 0 0]
