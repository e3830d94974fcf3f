// A module that asks for the `dot` GemmFeature of a CPU without AVX512-BF16
// is refused with a diagnostic (no SIGILL, no LLVM abort): on the host when
// it lacks avx512bf16, and everywhere when the JIT targets x86-64-v3.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 -pv-strict | sed -e 's/splitKV = 1 : i32,/splitKV = 1 : i32, features = #rock<GemmFeatures dot>,/' > %t.mlir
// RUN: %if !avx512bf16 %{ not rock-run %t.mlir 2>&1 | FileCheck %s %}
// RUN: not rock-run --cpu x86-64-v3 %t.mlir 2>&1 | FileCheck %s --check-prefix=V3
// RUN: not env ROCK_JIT_CPU=x86-64-v4 rock-run %t.mlir 2>&1 | FileCheck %s --check-prefix=V4
// A CPU whose LLVM feature set has avx512bf16 takes it where the host does.
// RUN: %if avx512bf16 %{ rock-run -v --cpu znver4 %t.mlir | FileCheck %s --check-prefix=ZEN4 %}
// CHECK: the module's GemmFeatures include `dot` (AVX512-BF16 dot products on the CPU) but {{.+}} lacks avx512bf16
// V3: the module's GemmFeatures include `dot` (AVX512-BF16 dot products on the CPU) but x86-64-v3 lacks avx512bf16
// V4: but x86-64-v4 lacks avx512bf16
// ZEN4: jit cpu: znver4 (512-bit vectors)
// ZEN4: host features: dot (avx512bf16)
// ZEN4: [1 1 1]
