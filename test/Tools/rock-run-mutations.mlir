// The default gates bite: a planted wrong result (rock-run's test-only
// --testing-mutate, runtime/mutate.h) fails them for every dtype, while the
// same run unmutated passes. The planted errors: one element off by 1% of
// the largest output (the smallest element, so that the output's own
// rounding keeps the whole error); row 0 seeing its keys shifted by one (a
// causal bound one key off); the scale ignored; split 0 never combined; one
// LSE off by 1e-3. rock-run-gpu shares the session (runtime/session.c) and
// the flag; bench/gpu/numerics-run.sh plants the same errors on the H200.
// Random float inputs, the defaults (no threshold flags).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: for t in f32 f16 bf16 i8; do \
// RUN:   rock-gen -t $t -g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 32 -seq_len_k 96 -head_dim_qk 32 -head_dim_v 32 -causal --with-attn-scale -rand 1 -rand_type float -pv -o %t/$t.mlir || exit 1; \
// RUN:   rock-gen -t $t -g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 32 -seq_len_k 96 -head_dim_qk 32 -head_dim_v 32 -causal --with-attn-scale -split_kv 4 -return_lse -rand 2 -rand_type float -pv -o %t/$t-split.mlir || exit 1; \
// RUN: done
// RUN: for t in f32 f16 bf16 i8; do \
// RUN:   echo "$t none" $(rock-run %t/$t.mlir; echo rc=$?); \
// RUN:   echo "$t split none" $(rock-run %t/$t-split.mlir; echo rc=$?); \
// RUN:   for m in element row-shift scale-ignored; do echo "$t $m" $(rock-run %t/$t.mlir --testing-mutate=$m; echo rc=$?); done; \
// RUN:   for m in split-dropped lse; do echo "$t $m" $(rock-run %t/$t-split.mlir --testing-mutate=$m; echo rc=$?); done; \
// RUN: done | FileCheck %s
// CHECK: f32 none [1 1 1] rc=0
// CHECK-NEXT: f32 split none [1 1 1] rc=0
// CHECK-NEXT: f32 element {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f32 row-shift {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f32 scale-ignored {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f32 split-dropped {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f32 lse {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f16 none [1 1 1] rc=0
// CHECK-NEXT: f16 split none [1 1 1] rc=0
// CHECK-NEXT: f16 element {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f16 row-shift {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f16 scale-ignored {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f16 split-dropped {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: f16 lse {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: bf16 none [1 1 1] rc=0
// CHECK-NEXT: bf16 split none [1 1 1] rc=0
// CHECK-NEXT: bf16 element {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: bf16 row-shift {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: bf16 scale-ignored {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: bf16 split-dropped {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: bf16 lse {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: i8 none [1 1 1] rc=0
// CHECK-NEXT: i8 split none [1 1 1] rc=0
// CHECK-NEXT: i8 element {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: i8 row-shift {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: i8 scale-ignored {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: i8 split-dropped {{\[[01 ]*0[01 ]*\]}} rc=1
// CHECK-NEXT: i8 lse {{\[[01 ]*0[01 ]*\]}} rc=1
//
// The 1% error is the absDiff gate's: bf16's threshold stays below it (1.25
// ulps of the maximum plus the f32 terms).
// RUN: not rock-run %t/bf16.mlir --testing-mutate=element -v | FileCheck %s --check-prefix=ABS
// ABS: out: maxAbsDiff {{.*}} (threshold {{.*}}, FAIL)
//
// A mutation the problem cannot carry is an error (exit 3); a name rock-run
// does not know is a usage error (exit 2).
// RUN: not rock-run %t/f32.mlir --testing-mutate=lse 2>&1 | FileCheck %s --check-prefix=NOLSE
// NOLSE: rock-run: error: --testing-mutate: lse needs -return_lse
// RUN: not rock-run %t/f32.mlir --testing-mutate=split-dropped 2>&1 | FileCheck %s --check-prefix=NOSPLIT
// NOSPLIT: rock-run: error: --testing-mutate: split-dropped needs -split_kv > 1
// RUN: rock-gen -t f16 -seq_len_q 8 -seq_len_k 8 -head_dim_qk 8 -head_dim_v 8 -pv -o %t/plain.mlir
// RUN: not rock-run %t/plain.mlir --testing-mutate=scale-ignored 2>&1 | FileCheck %s --check-prefix=NOSCALE
// NOSCALE: rock-run: error: --testing-mutate: scale-ignored needs --with-attn-scale
// RUN: not rock-run %t/plain.mlir --testing-mutate=row-shift 2>&1 | FileCheck %s --check-prefix=NOMASK
// NOMASK: rock-run: error: --testing-mutate: row-shift needs a causal or KV-cache problem
// RUN: sh -c 'rock-run %t/plain.mlir --testing-mutate=everything 2>&1; echo rc=$?' | FileCheck %s --check-prefix=BADNAME
// BADNAME: rock-run: unknown mutation 'everything' (element, row-shift, scale-ignored, split-dropped, lse)
// BADNAME: rc=2
