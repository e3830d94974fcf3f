// i8 attention with scale + bias (rocMLIR's lit example; docs/user-guide.md §2.3): quantBias /
// quantScale [1] broadcast to [B, Sq, Sk], the dequant -> scale -> bias region
// with an i32 accumulator argument, in rocmlir-gen's linalg form
// (--rocmlir-region: f16 after the dequantisation) and in rock's default
// (f32, the f16 inputs widened).
// RUN: rock-gen -t i8 -seq_len_q 384 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias --rocmlir-region | FileCheck %s
// RUN: rock-gen -t i8 -seq_len_q 384 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias --rocmlir-region | rock-opt | FileCheck %s
// RUN: rock-gen -t i8 -seq_len_q 384 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias | rock-opt | FileCheck %s --check-prefix=F32
// Without scale and bias the region still dequantises.
// RUN: rock-gen -t i8 -seq_len_q 16 -seq_len_k 32 -head_dim_qk 16 -head_dim_v 8 --rocmlir-region | rock-opt | FileCheck %s --check-prefix=DEQ

// CHECK-DAG: #[[$BCAST:.*]] = #rock.transform_map<#{{.*}} by [<AddDim{1} ["g"] at [0] -> [] at []>, <AddDim{384} ["m"] at [1] -> [] at []>, <Broadcast{1} ["n"] at [2] -> ["raw"] at [0]>] bounds = [1, 384, 384] -> [1]>
// CHECK-LABEL: func.func @rock_attention
// CHECK-SAME: (%{{.*}}: memref<24576xi8>, %{{.*}}: memref<24576xi8>, %{{.*}}: memref<24576xf16>, %[[QB:.*]]: memref<1xi8>, %[[QS:.*]]: memref<1xf16>, %[[S:.*]]: memref<147456xf16>, %[[B:.*]]: memref<147456xf16>, %{{.*}}: memref<24576xf16>)
// CHECK: %[[QBV:.*]] = rock.transform %[[QB]] by #[[$BCAST]] : memref<1xi8> to memref<1x384x384xi8>
// CHECK: %[[QSV:.*]] = rock.transform %[[QS]] by #[[$BCAST]] : memref<1xf16> to memref<1x384x384xf16>
// CHECK: %[[SV:.*]] = rock.transform %[[S]] by #{{.*}} : memref<147456xf16> to memref<1x384x384xf16>
// CHECK: %[[BV:.*]] = rock.transform %[[B]] by #{{.*}} : memref<147456xf16> to memref<1x384x384xf16>
// CHECK: rock.attention {
// CHECK-NEXT: qk = %{{.*}} * %{{.*}} : memref<1x384x64xi8>, memref<1x64x384xi8>
// CHECK-NEXT: qk = elementwise otherIns(%[[QBV]], %[[QSV]], %[[SV]], %[[BV]] : memref<1x384x384xi8>, memref<1x384x384xf16>, memref<1x384x384xf16>, memref<1x384x384xf16>) {
// CHECK-NEXT: ^bb0(%{{.*}}: memref<1x384x384xi32>, {{.*}}, %{{.*}}: memref<1x384x384xf16>):
// CHECK-NEXT: linalg.generic
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: i32, %[[A0:.*]]: i8, %[[A1:.*]]: f16, %[[A2:.*]]: f16, %[[A3:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[E:.*]] = arith.extsi %[[A0]] : i8 to i32
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[ACC]], %[[E]] : i32
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[D]] : i32 to f16
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[F]], %[[A1]] : f16
// CHECK-NEXT: %[[SC:.*]] = arith.mulf %[[Q]], %[[A2]] : f16
// CHECK-NEXT: %[[BI:.*]] = arith.addf %[[SC]], %[[A3]] : f16
// CHECK-NEXT: linalg.yield %[[BI]] : f16
// CHECK-NEXT: }
// CHECK-NEXT: rock.yield{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: %{{.*}} = softmax(qk) * %{{.*}} : memref<1x384x64xf16> -> memref<1x384x64xf16>

// F32: ^bb0(%{{.*}}: memref<1x384x384xi32>, {{.*}}, %{{.*}}: memref<1x384x384xf32>):
// F32-NEXT: linalg.generic
// F32-NEXT: ^bb0(%[[ACC:.*]]: i32, %[[A0:.*]]: i8, %[[A1:.*]]: f16, %[[A2:.*]]: f16, %[[A3:.*]]: f16, %{{.*}}: f32):
// F32-NEXT: %[[E:.*]] = arith.extsi %[[A0]] : i8 to i32
// F32-NEXT: %[[D:.*]] = arith.subi %[[ACC]], %[[E]] : i32
// F32-NEXT: %[[F:.*]] = arith.sitofp %[[D]] : i32 to f32
// F32-NEXT: %[[QS:.*]] = arith.extf %[[A1]] : f16 to f32
// F32-NEXT: %[[Q:.*]] = arith.mulf %[[F]], %[[QS]] : f32
// F32-NEXT: %[[SW:.*]] = arith.extf %[[A2]] : f16 to f32
// F32-NEXT: %[[SC:.*]] = arith.mulf %[[Q]], %[[SW]] : f32
// F32-NEXT: %[[BW:.*]] = arith.extf %[[A3]] : f16 to f32
// F32-NEXT: %[[BI:.*]] = arith.addf %[[SC]], %[[BW]] : f32
// F32-NEXT: linalg.yield %[[BI]] : f32

// DEQ-LABEL: func.func @rock_attention
// DEQ-SAME: (%{{.*}}: memref<256xi8>, %{{.*}}: memref<512xi8>, %{{.*}}: memref<256xf16>, %{{.*}}: memref<1xi8>, %{{.*}}: memref<1xf16>, %{{.*}}: memref<128xf16>)
// DEQ: qk = elementwise otherIns(%{{.*}}, %{{.*}} : memref<1x16x32xi8>, memref<1x16x32xf16>) {
// DEQ-NEXT: ^bb0({{.*}}):
// DEQ-NEXT: linalg.generic
// DEQ-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i8, %{{.*}}: f16, %{{.*}}: f16):
// DEQ-NEXT: arith.extsi
// DEQ-NEXT: arith.subi
// DEQ-NEXT: arith.sitofp
// DEQ-NEXT: %[[Q:.*]] = arith.mulf
// DEQ-NEXT: linalg.yield %[[Q]] : f16
