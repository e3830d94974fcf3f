// Float scale / bias in rocmlir-gen's linalg form: the region takes the score
// tile, the inputs and the output tile as memrefs, and one linalg.generic
// computes each score; its accumulator argument has Q's element type; x scale
// then + bias; no region without scale and bias (rock-gen-plain).
// RUN: rock-gen -t f16 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 --with-attn-scale --with-attn-bias | rock-opt | FileCheck %s
// RUN: rock-gen -t bf16 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 -with-attn-bias=True | rock-opt | FileCheck %s --check-prefix=BIAS
// RUN: rock-gen -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 --with-attn-scale=1 --with-attn-bias=0 | rock-opt | FileCheck %s --check-prefix=SCALE

// CHECK-LABEL: func.func @rock_attention
// CHECK-SAME: (%{{.*}}: memref<128xf16>, %{{.*}}: memref<256xf16>, %{{.*}}: memref<256xf16>, %{{.*}}: memref<512xf16>, %{{.*}}: memref<512xf16>, %{{.*}}: memref<128xf16>)
// CHECK: qk = elementwise otherIns(%{{.*}}, %{{.*}} : memref<1x16x32xf16>, memref<1x16x32xf16>) {
// CHECK-NEXT: ^bb0(%[[QK:.*]]: memref<1x16x32xf16>, %[[SV:.*]]: memref<1x16x32xf16>, %[[BV:.*]]: memref<1x16x32xf16>, %[[RES:.*]]: memref<1x16x32xf16>):
// CHECK-NEXT: linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[QK]], %[[SV]], %[[BV]] : {{.*}}) outs(%[[RES]] : memref<1x16x32xf16>) {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f16, %[[S:.*]]: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[X:.*]] = arith.mulf %[[ACC]], %[[S]] : f16
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[X]], %[[B]] : f16
// CHECK-NEXT: linalg.yield %[[Y]] : f16
// CHECK-NEXT: }
// CHECK-NEXT: rock.yield{{$}}

// BIAS: qk = elementwise otherIns(%{{.*}} : memref<1x16x32xbf16>) {
// BIAS-NEXT: ^bb0({{.*}}):
// BIAS-NEXT: linalg.generic
// BIAS-NEXT: ^bb0(%[[ACC:.*]]: bf16, %[[B:.*]]: bf16, %{{.*}}: bf16):
// BIAS-NEXT: %[[Y:.*]] = arith.addf %[[ACC]], %[[B]] : bf16
// BIAS-NEXT: linalg.yield %[[Y]] : bf16

// SCALE: with_attn_bias = false, with_attn_scale = true
// SCALE: qk = elementwise otherIns(%{{.*}} : memref<1x16x32xf32>) {
// SCALE-NEXT: ^bb0({{.*}}):
// SCALE-NEXT: linalg.generic
// SCALE-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// SCALE-NEXT: %[[Y:.*]] = arith.mulf %[[ACC]], %[[S]] : f32
// SCALE-NEXT: linalg.yield %[[Y]] : f32
