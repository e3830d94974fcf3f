// Inputs whose reference is not finite fail as "inputs out of range" (exit
// 3), never pass: NaN compared with NaN used to give [1 1 1]. f16 inputs in
// [1e5, 2e5) round to inf; f32 inputs up to inf are inf.
// RUN: rock-gen -t f16 -seq_len_q 4 -seq_len_k 16 -head_dim_qk 8 -head_dim_v 8 -rand 1 -rand_type float -rand_min 1e5 -rand_max 2e5 -pv > %t.f16.mlir
// RUN: sh -c 'rock-run %t.f16.mlir; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=F16
// F16: rock-run: error: inputs out of range: the f64 reference has 32 non-finite results (NaN or inf inputs, or values too large for f16); narrow -rand_min/-rand_max
// F16-NEXT: exit 3
// RUN: rock-gen -t f32 -seq_len_q 4 -seq_len_k 16 -head_dim_qk 8 -head_dim_v 8 -rand 1 -rand_type float -rand_min 0 -rand_max inf -pv > %t.f32.mlir
// RUN: sh -c 'rock-run %t.f32.mlir; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=F32
// F32: rock-run: error: inputs out of range: the f64 reference has 32 non-finite results (NaN or inf inputs, or values too large for f32); narrow -rand_min/-rand_max
// F32-NEXT: exit 3
// With LSE, still out of range (the LSE is NaN too, not a masked -inf).
// RUN: rock-gen -t f16 -seq_len_q 4 -seq_len_k 16 -head_dim_qk 8 -head_dim_v 8 -return_lse -rand 1 -rand_type float -rand_min 1e5 -rand_max 2e5 -pv | not rock-run 2>&1 | FileCheck %s --check-prefix=LSE
// LSE: inputs out of range: the f64 reference has 36 non-finite results
