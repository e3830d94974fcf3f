// Float scale / bias in rocmlir-gen's linalg form: the region takes the score
// tile, the inputs and the output tile as memrefs, and one linalg.generic
// computes each score; x scale then + bias; no region without scale and bias
// (rock-gen-plain). The region computes in -softmax_dtype (f32 by default:
// the accumulator argument is f32, the elementwise inputs are widened); with
// --rocmlir-region, rocmlir-gen's form: everything in Q's element type
// (docs/rocmlir-compat.md). The harness records the type (region_dtype).
// RUN: rock-gen -t f16 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 --with-attn-scale --with-attn-bias --rocmlir-region | rock-opt | FileCheck %s
// RUN: rock-gen -t bf16 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 -with-attn-bias=True --rocmlir-region | rock-opt | FileCheck %s --check-prefix=BIAS
// RUN: rock-gen -t bf16 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 --with-attn-scale --with-attn-bias -p | rock-opt | FileCheck %s --check-prefix=F32
// RUN: rock-gen -t bf16 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 --with-attn-scale -softmax_dtype f16 -p | rock-opt | FileCheck %s --check-prefix=F16
// RUN: rock-gen -t f32 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 8 -head_dim_v 8 --with-attn-bias -softmax_dtype bf16 | rock-opt | FileCheck %s --check-prefix=NARROW
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

// F32: region_dtype = "f32"
// F32: softmax_dtype = "f32"
// F32: qk = elementwise otherIns(%{{.*}}, %{{.*}} : memref<1x16x32xbf16>, memref<1x16x32xbf16>) {
// F32-NEXT: ^bb0(%{{.*}}: memref<1x16x32xf32>, %{{.*}}: memref<1x16x32xbf16>, %{{.*}}: memref<1x16x32xbf16>, %{{.*}}: memref<1x16x32xf32>):
// F32-NEXT: linalg.generic
// F32-NEXT: ^bb0(%[[ACC:.*]]: f32, %[[S:.*]]: bf16, %[[B:.*]]: bf16, %{{.*}}: f32):
// F32-NEXT: %[[SW:.*]] = arith.extf %[[S]] : bf16 to f32
// F32-NEXT: %[[X:.*]] = arith.mulf %[[ACC]], %[[SW]] : f32
// F32-NEXT: %[[BW:.*]] = arith.extf %[[B]] : bf16 to f32
// F32-NEXT: %[[Y:.*]] = arith.addf %[[X]], %[[BW]] : f32
// F32-NEXT: linalg.yield %[[Y]] : f32
// F32: softmaxType = f32

// -softmax_dtype f16 on bf16 inputs: the region in f16 (bf16 -> f16 exactly
// through f32), and the op's softmaxType.
// F16: region_dtype = "f16"
// F16: ^bb0(%[[ACC:.*]]: f16, %[[S:.*]]: bf16, %{{.*}}: f16):
// F16-NEXT: %[[W:.*]] = arith.extf %[[S]] : bf16 to f32
// F16-NEXT: %[[N:.*]] = arith.truncf %[[W]] : f32 to f16
// F16-NEXT: %[[X:.*]] = arith.mulf %[[ACC]], %[[N]] : f16
// F16-NEXT: linalg.yield %[[X]] : f16
// F16: softmaxType = f16

// NARROW: ^bb0(%[[ACC:.*]]: bf16, %[[B:.*]]: f32, %{{.*}}: bf16):
// NARROW-NEXT: %[[N:.*]] = arith.truncf %[[B]] : f32 to bf16
// NARROW-NEXT: %[[Y:.*]] = arith.addf %[[ACC]], %[[N]] : bf16
// NARROW-NEXT: linalg.yield %[[Y]] : bf16
// NARROW: softmaxType = bf16
