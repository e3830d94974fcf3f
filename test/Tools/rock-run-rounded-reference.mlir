// rock-run compares against the reference rounded to the output type (what
// rocMLIR's reference, computed in that type, holds); -v also prints the
// figures against the f64 reference without any rounding. test/Runtime/
// metrics.c pins both sides of the rule: an underflowing row passes, a wrong
// tiny value the output type can hold fails.
//
// A GQA KV-cache decode whose f64 outputs include values like 1e-30 that
// f16 stores as 0: relDiff was 1 against the f64 values, 0 after rounding.
// RUN: rock-gen --operation attention -t f16 -rand 1 -current_seq_len=17 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias -pv -relDiff_threshold 0.3 | rock-run -v | FileCheck %s
// CHECK: out: maxRelDiff 0 (threshold 0.3, pass)
// CHECK: out: against the f64 reference (not rounded to f16, no intermediate rounding): {{.*}} maxRelDiff 1{{$}}
// CHECK: [1 1 1]
//
// -pv's reference also rounds where the kernel narrows to f16 / bf16: the
// scores where the region computes in the element type (as rocMLIR's
// reference does), and P where it meets V (test/Runtime/reference.c pins
// both). rocMLIR's PrAttentionBF16 case: with -rand 1 the bf16 scores of
// several hundred lose their low bits in scale and bias, and rows with two
// visible keys nearly cancel, so against the unrounded f64 relDiff is 1.7;
// against the rounded reference the kernel matches exactly.
// RUN: rock-gen -rand 1 -current_seq_len=17,1,32 -g 3 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias --operation attention -t bf16 -pv -relDiff_threshold 0.3 -absDiff_threshold 0.3 -RMS_threshold 0.15 > %t.mlir
// RUN: rock-run -v %t.mlir | FileCheck %s --check-prefix=BF16
// BF16: out: maxRelDiff 0 (threshold 0.3, pass)
// BF16: out: against the f64 reference (not rounded to bf16, no intermediate rounding): {{.*}} maxRelDiff 1.7{{[0-9]*}}
// BF16: [1 1 1]
// The same problem with a wrong kernel (the bias subtracted) still fails.
// RUN: sed -e "s/arith.addf/arith.subf/" %t.mlir | not rock-run | FileCheck %s --check-prefix=WRONG
// WRONG: [{{[01]}} {{[01]}} 0]
