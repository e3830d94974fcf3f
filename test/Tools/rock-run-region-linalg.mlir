// The linalg form of the region (rock-gen's output) runs end to end, and the
// generic's inputs map to the score and the elementwise inputs in the order
// the generic reads them: reading (bias, score, scale) with the body's
// arguments renamed to match computes the same score * scale + bias and
// passes; reordering the inputs alone computes bias * score + scale, which
// the reference (score * scale + bias) rejects (float inputs: rock-gen's
// default integer fill gives the scale and the bias the same values).
// RUN: rock-gen -t f32 -seq_len_q 8 -seq_len_k 40 -head_dim_qk 16 -head_dim_v 16 --with-attn-scale --with-attn-bias -rand 1 -rand_type float -pv > %t.mlir
// RUN: rock-run %t.mlir | FileCheck %s --check-prefix=PASS
// RUN: sed 's/ins(%%arg6, %%arg7, %%arg8 /ins(%%arg8, %%arg6, %%arg7 /; s/\^bb0(%%in: f32, %%in_0: f32, %%in_1: f32, %%out: f32)/^bb0(%%in_1: f32, %%in: f32, %%in_0: f32, %%out: f32)/' %t.mlir > %t.reordered.mlir
// RUN: grep -q 'ins(%%arg8, %%arg6, %%arg7 ' %t.reordered.mlir
// RUN: rock-run %t.reordered.mlir | FileCheck %s --check-prefix=PASS
// RUN: sed 's/ins(%%arg6, %%arg7, %%arg8 /ins(%%arg8, %%arg6, %%arg7 /' %t.mlir > %t.wrong.mlir
// RUN: not rock-run %t.wrong.mlir | FileCheck %s --check-prefix=WRONG
// PASS: {{^}}[1 1 1]
// WRONG: {{^}}[0 {{[01]}} {{[01]}}]
