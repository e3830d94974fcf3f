// Follows rocMLIR's mlir/test/rocmlir-gen/attention-kernel.mlir,
// attention-kernel-f16.mlir and attention-kernel-causal.mlir: the same
// rock-gen runs (rocmlir-gen's flags, -pv) and their CHECK forms, in current
// rocmlir-gen's spelling: the module's mhal.arch, @rock_attention's flat
// arguments and `{mhal.arch = ..., rock.kernel}` (the older `kernel` unit
// attribute of those files is docs/rocmlir-compat.md's first difference), the
// rock.transform views, the rock.attention body with its linalg region, and
// @host_naive_attention in TOSA (matmul with zero points, scale, masks,
// softmax, matmul). f16's region computes in f16 with --rocmlir-region, as
// rocmlir-gen's does (rock's default is f32, F16-DEFAULT).
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=SCALE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=NOSCALE
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f16 -pv --apply-bufferization-pipeline=false --rocmlir-region | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=F16
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f16 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=F16-DEFAULT
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -causal -seq_len_q 512 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=CAUSAL

// SCALE: module attributes {mhal.arch = "[[$ARCH:gfx90a:sramecc\+:xnack-]]"}
// SCALE-LABEL: func.func @rock_attention
// SCALE-SAME: (%[[QR:.*]]: memref<32768xf32>, %[[KR:.*]]: memref<32768xf32>, %[[VR:.*]]: memref<32768xf32>, %[[SR:.*]]: memref<1048576xf32>, %[[OR:.*]]: memref<32768xf32>)
// SCALE-SAME: attributes {mhal.arch = "[[$ARCH]]", rock.kernel}
// SCALE-NEXT: %[[Q:.*]] = rock.transform %[[QR]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// SCALE-NEXT: %[[K:.*]] = rock.transform %[[KR]] {{.*}} : memref<32768xf32> to memref<1x32x1024xf32>
// SCALE-NEXT: %[[V:.*]] = rock.transform %[[VR]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// SCALE-NEXT: %[[S:.*]] = rock.transform %[[SR]] {{.*}} : memref<1048576xf32> to memref<1x1024x1024xf32>
// SCALE-NEXT: %[[O:.*]] = rock.transform %[[OR]] {{.*}} : memref<32768xf32> to memref<1x1024x32xf32>
// SCALE-NEXT: rock.attention
// SCALE-NEXT: qk = %[[Q]] * %[[K]]
// SCALE-NEXT: qk = elementwise otherIns(%[[S]]
// SCALE-NEXT: ^bb0(%{{.*}}: memref<1x1024x1024xf32>, %{{.*}}: memref<1x1024x1024xf32>, %{{.*}}: memref<1x1024x1024xf32>):
// SCALE-NEXT: linalg.generic
// SCALE: linalg.yield
// SCALE: rock.yield{{$}}
// SCALE: %[[O]] = softmax(qk) * %[[V]]
// SCALE: return
// SCALE-LABEL: func.func @host_naive_attention
// SCALE: %[[QK:.*]] = tosa.matmul %{{[0-9a-z]+}}, %{{[0-9a-z]+}}, %{{[0-9a-z]+}}, %{{[0-9a-z]+}} {acc_type = f32} : ([[QSHAPE:tensor<1x1024x32xf32>]], tensor<1x32x1024xf32>, tensor<1xf32>, tensor<1xf32>) -> [[SQ:tensor<1x1024x1024xf32>]]
// SCALE: %[[SQK:.*]] = tosa.mul %[[QK]], %{{.*}}, %{{.*}} : ([[SQ]], [[SQ]], tensor<1xi8>) -> [[SQ]]
// SCALE: %[[MAX:.*]] = tosa.reduce_max %{{.*}} {axis = 2 : i32} : ([[SQ]]) -> [[RED:tensor<1x1024x1xf32>]]
// SCALE: %[[NORM:.*]] = tosa.sub %{{.*}}, %[[MAX]] : ([[SQ]], [[RED]]) -> [[SQ]]
// SCALE: %[[EXP:.*]] = tosa.exp %[[NORM]] : ([[SQ]]) -> [[SQ]]
// SCALE: %[[SUM:.*]] = tosa.reduce_sum %[[EXP]] {axis = 2 : i32} : ([[SQ]]) -> [[RED]]
// SCALE: %[[INV:.*]] = tosa.reciprocal %[[SUM]] : ([[RED]]) -> [[RED]]
// SCALE: %[[P:.*]] = tosa.mul %[[EXP]], %[[INV]], %{{.*}} : ([[SQ]], [[RED]], tensor<1xi8>) -> [[SQ]]
// SCALE: tosa.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : ([[SQ]], tensor<1x1024x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1024x32xf32>
// SCALE: return

// NOSCALE: module attributes {mhal.arch = "[[$ARCH:.*]]"}
// NOSCALE-LABEL: func.func @rock_attention
// NOSCALE-SAME: (%{{.*}}: memref<32768xf32>, %{{.*}}: memref<32768xf32>, %{{.*}}: memref<32768xf32>, %{{.*}}: memref<32768xf32>)
// NOSCALE-SAME: attributes {mhal.arch = "[[$ARCH]]", rock.kernel}
// NOSCALE: rock.attention
// NOSCALE-NEXT: qk = %{{.*}} * %{{.*}}
// NOSCALE-NEXT: %{{.*}} = softmax(qk) * %{{.*}}
// NOSCALE-LABEL: func.func @host_naive_attention
// NOSCALE: %[[QK:.*]] = tosa.matmul
// NOSCALE-NOT: tosa.mul %[[QK]],
// NOSCALE: tosa.reduce_max
// NOSCALE: tosa.exp
// NOSCALE: tosa.reduce_sum
// NOSCALE: tosa.reciprocal
// NOSCALE: tosa.matmul

// f16: the score matmul accumulates in f32 (rocmlir-gen's acc_type = f32 on
// an f16 result; MLIR 22's tosa.matmul returns the f32 accumulator), the
// scale in f16, the softmax in f32, P in f16, the output cast back.
// F16-LABEL: func.func @rock_attention
// F16-SAME: (%{{.*}}: memref<32768xf16>, %{{.*}}: memref<32768xf16>, %{{.*}}: memref<32768xf16>, %{{.*}}: memref<1048576xf16>, %{{.*}}: memref<32768xf16>)
// F16: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16):
// F16-NEXT: arith.mulf %{{.*}}, %{{.*}} : f16
// F16-LABEL: func.func @host_naive_attention
// F16: %[[QK:.*]] = tosa.matmul %{{[0-9a-z]+}}, %{{[0-9a-z]+}}, %{{[0-9a-z]+}}, %{{[0-9a-z]+}} {acc_type = f32} : (tensor<1x1024x32xf16>, tensor<1x32x1024xf16>, tensor<1xf16>, tensor<1xf16>) -> [[SQ32:tensor<1x1024x1024xf32>]]
// F16-NEXT: %[[QKC:.*]] = tosa.cast %[[QK]] : ([[SQ32]]) -> [[SQ16:tensor<1x1024x1024xf16>]]
// F16: %[[SQK:.*]] = tosa.mul %[[QKC]], %{{.*}}, %{{.*}} : ([[SQ16]], [[SQ16]], tensor<1xi8>) -> [[SQ16]]
// F16-NEXT: %[[SQKC:.*]] = tosa.cast %[[SQK]] : ([[SQ16]]) -> [[SQ32]]
// F16-NEXT: %[[MAX:.*]] = tosa.reduce_max %[[SQKC]] {axis = 2 : i32} : ([[SQ32]]) -> [[RED:tensor<1x1024x1xf32>]]
// F16-NEXT: %[[NORM:.*]] = tosa.sub %[[SQKC]], %[[MAX]] : ([[SQ32]], [[RED]]) -> [[SQ32]]
// F16-NEXT: %[[EXP:.*]] = tosa.exp %[[NORM]]
// F16-NEXT: %[[SUM:.*]] = tosa.reduce_sum %[[EXP]]
// F16-NEXT: %[[INV:.*]] = tosa.reciprocal %[[SUM]]
// F16-NEXT: %[[P:.*]] = tosa.mul %[[EXP]], %[[INV]], %{{.*}} : ([[SQ32]], [[RED]], tensor<1xi8>) -> [[SQ32]]
// F16-NEXT: %[[PC:.*]] = tosa.cast %[[P]] : ([[SQ32]]) -> [[SQ16]]
// F16: %[[R:.*]] = tosa.matmul %[[PC]], %{{.*}}, %{{.*}}, %{{.*}} : ([[SQ16]], tensor<1x1024x32xf16>, tensor<1xf16>, tensor<1xf16>) -> [[VS32:tensor<1x1024x32xf32>]]
// F16-NEXT: tosa.cast %[[R]] : ([[VS32]]) -> tensor<1x1024x32xf16>

// rock's default: the region and the host's scale in f32.
// F16-DEFAULT: ^bb0(%{{.*}}: f32, %{{.*}}: f16, %{{.*}}: f32):
// F16-DEFAULT-LABEL: func.func @host_naive_attention
// F16-DEFAULT: tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x1024x1024xf32>, tensor<1x1024x1024xf32>, tensor<1xi8>) -> tensor<1x1024x1024xf32>

// Causal: the causal keyword after qk, and the host's mask: row and column
// positions broadcast to the [G, Hq, Sq, Sk] view, col > row hidden with
// -inf (rocmlir-gen's finite guards on the max and the sum follow).
// CAUSAL-LABEL: func.func @rock_attention
// CAUSAL-SAME: (%{{.*}}: memref<16384xf32>, %{{.*}}: memref<32768xf32>, %{{.*}}: memref<32768xf32>, %{{.*}}: memref<524288xf32>, %{{.*}}: memref<16384xf32>)
// CAUSAL: rock.attention
// CAUSAL-NEXT: qk = %{{.*}} * %{{.*}}
// CAUSAL-NEXT: causal
// CAUSAL-NEXT: qk = elementwise otherIns(
// CAUSAL-LABEL: func.func @host_naive_attention
// CAUSAL: %[[QK:.*]] = tosa.matmul {{.*}} -> tensor<1x512x1024xf32>
// CAUSAL: %[[SQK:.*]] = tosa.mul %[[QK]], %{{.*}}, %{{.*}} : (tensor<1x512x1024xf32>, tensor<1x512x1024xf32>, tensor<1xi8>) -> tensor<1x512x1024xf32>
// CAUSAL: %[[ROWS:.*]] = "tosa.const"() <{values = {{.*}} : tensor<512xi32>}> : () -> tensor<512xi32>
// CAUSAL: tosa.reshape %[[ROWS]], %{{.*}} : (tensor<512xi32>, !tosa.shape<4>) -> tensor<1x1x512x1xi32>
// CAUSAL: %[[COLS:.*]] = "tosa.const"() <{values = {{.*}} : tensor<1024xi32>}> : () -> tensor<1024xi32>
// CAUSAL: tosa.reshape %[[COLS]], %{{.*}} : (tensor<1024xi32>, !tosa.shape<4>) -> tensor<1x1x1x1024xi32>
// CAUSAL: %[[MASK:.*]] = tosa.greater %{{.*}}, %{{.*}} : (tensor<1x1x512x1024xi32>, tensor<1x1x512x1024xi32>) -> tensor<1x1x512x1024xi1>
// CAUSAL: %[[NINF:.*]] = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x512x1024xf32>}>
// CAUSAL: tosa.select %[[MASK]], %[[NINF]], %{{.*}} : (tensor<1x1x512x1024xi1>, tensor<1x1x512x1024xf32>, tensor<1x1x512x1024xf32>) -> tensor<1x1x512x1024xf32>
// CAUSAL: tosa.reduce_max %{{.*}} {axis = 2 : i32} : (tensor<1x512x1024xf32>) -> tensor<1x512x1xf32>
// CAUSAL: tosa.matmul {{.*}} -> tensor<1x512x32xf32>
