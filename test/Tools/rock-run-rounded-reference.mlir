// rock-run compares against the f64 reference rounded to the output type
// (what rocMLIR's reference, computed in that type, holds); -v also prints
// the figures against the unrounded f64 reference. test/Runtime/metrics.c
// pins both sides of the rule: an underflowing row passes, a wrong tiny
// value the output type can hold fails.
//
// A GQA KV-cache decode whose f64 outputs include values like 1e-30 that
// f16 stores as 0: relDiff was 1 against the f64 values, 0 after rounding.
// RUN: rock-gen --operation attention -t f16 -rand 1 -current_seq_len=17 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias -pv -relDiff_threshold 0.3 | rock-run -v | FileCheck %s
// CHECK: out: maxRelDiff 0 (threshold 0.3, pass)
// CHECK: out: against the f64 reference (not rounded to f16): {{.*}} maxRelDiff 1{{$}}
// CHECK: [1 1 1]
