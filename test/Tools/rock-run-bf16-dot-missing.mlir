// UNSUPPORTED: avx512bf16
// A module that asks for the `dot` GemmFeature on a CPU without AVX512-BF16
// is refused with a diagnostic (no SIGILL).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 -pv-strict | sed -e 's/splitKV = 1 : i32,/splitKV = 1 : i32, features = #rock<GemmFeatures dot>,/' > %t.mlir
// RUN: not rock-run %t.mlir 2>&1 | FileCheck %s
// CHECK: the module's GemmFeatures include `dot` (AVX512-BF16 dot products on the CPU) but this CPU lacks avx512bf16
