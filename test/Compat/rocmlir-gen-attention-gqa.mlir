// Follows rocMLIR's mlir/test/rocmlir-gen/attention-kernel-gqa.mlir,
// attention-kernel-gqa-kvcache.mlir, attention-kernel-gqa-kvcache-lse.mlir and
// attention-kernel-gqa-kvcache-lse-splitkv.mlir: the same rock-gen runs and
// their CHECK forms as current rocmlir-gen prints them. K and V keep their Bkv
// heads and the op records numHeadsQ / numHeadsKV (the older files' kernel
// broadcast chain of rock.transforms is still read, not printed); the KV-cache
// length is one i32 broadcast to every query head; the host reference
// broadcasts K / V to the query heads (expand_shape, tosa.mul by ones,
// collapse_shape), masks keys past currentSeqLen with -inf, returns
// lse = log(sum) + max, and with split-KV broadcasts the result to every
// split's partial.
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=GQA,HEADS
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 --with-attn-scale -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=KVC,HEADS
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -return_lse -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=LSE,HEADS
// RUN: rock-gen --arch gfx90a:sramecc+:xnack- --operation attention -current_seq_len=33 -return_lse -split_kv 8 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f32 -pv --apply-bufferization-pipeline=false | rock-opt | FileCheck %s --enable-var-scope --check-prefixes=SPLIT

// GQA: module attributes {mhal.arch = "[[$ARCH:.*]]"}
// GQA-LABEL: func.func @rock_attention
// GQA-SAME: (%[[QR:.*]]: memref<131072xf32>, %[[KR:.*]]: memref<65536xf32>, %[[VR:.*]]: memref<65536xf32>, %[[SR:.*]]: memref<4194304xf32>, %[[OR:.*]]: memref<131072xf32>)
// GQA-SAME: attributes {mhal.arch = "[[$ARCH]]", rock.kernel}
// GQA-NEXT: %[[Q:.*]] = rock.transform %[[QR]] {{.*}} to memref<4x1024x32xf32>
// GQA-NEXT: %[[K:.*]] = rock.transform %[[KR]] {{.*}} to memref<2x32x1024xf32>
// GQA-NEXT: %[[V:.*]] = rock.transform %[[VR]] {{.*}} to memref<2x1024x32xf32>
// GQA-NEXT: %[[S:.*]] = rock.transform %[[SR]] {{.*}} to memref<4x1024x1024xf32>
// GQA-NEXT: %[[O:.*]] = rock.transform %[[OR]] {{.*}} to memref<4x1024x32xf32>
// GQA-NEXT: rock.attention
// GQA-NEXT: qk = %[[Q]] * %[[K]]
// GQA-NEXT: qk = elementwise otherIns(%[[S]]
// GQA: %[[O]] = softmax(qk) * %[[V]]

// KVC-LABEL: func.func @rock_attention
// KVC-SAME: (%{{.*}}: memref<131072xf32>, %{{.*}}: memref<65536xf32>, %{{.*}}: memref<65536xf32>, %{{.*}}: memref<4194304xf32>, %[[CR:.*]]: memref<1xi32>, %{{.*}}: memref<131072xf32>)
// KVC: %[[C:.*]] = rock.transform %[[CR]] {{.*}} : memref<1xi32> to memref<1xi32>
// KVC: %[[C1:.*]] = rock.transform %[[C]] {{.*}} : memref<1xi32> to memref<1x1xi32>
// KVC-NEXT: %[[C2:.*]] = rock.transform %[[C1]] {{.*}} : memref<1x1xi32> to memref<1x4xi32>
// KVC-NEXT: %[[C3:.*]] = rock.transform %[[C2]] {{.*}} : memref<1x4xi32> to memref<4xi32>
// KVC-NEXT: rock.attention
// KVC-NEXT: qk = %{{.*}} * %{{.*}} : memref<4x1024x32xf32>, memref<2x32x1024xf32>
// KVC-NEXT: currentSeqLen = (%[[C3]] : memref<4xi32>)
// KVC-NEXT: qk = elementwise otherIns(

// LSE-LABEL: func.func @rock_attention
// LSE-SAME: %[[LR:[a-z0-9]+]]: memref<4096xf32>, %{{.*}}: memref<131072xf32>)
// LSE: %[[L:.*]] = rock.transform %[[LR]] {{.*}} : memref<4096xf32> to memref<4x1024xf32>
// LSE: currentSeqLen = (%{{.*}} : memref<4xi32>)
// LSE-NEXT: lse = %[[L]] : memref<4x1024xf32>

// HEADS: numHeadsKV = 2 : i32, numHeadsQ = 4 : i32
// HEADS: func.func @host_naive_attention
// HEADS: %[[KE:.*]] = tensor.expand_shape {{.*}} output_shape [2, 1, 32, 1024] : tensor<2x32x1024xf32> into tensor<2x1x32x1024xf32>
// HEADS: %[[KM:.*]] = tosa.mul %[[KE]], %{{.*}}, %{{.*}} : (tensor<2x1x32x1024xf32>, tensor<2x2x32x1024xf32>, tensor<1xi8>) -> tensor<2x2x32x1024xf32>
// HEADS: %[[KT:.*]] = tensor.collapse_shape %[[KM]] {{.*}} : tensor<2x2x32x1024xf32> into tensor<4x32x1024xf32>
// HEADS: %[[VE:.*]] = tensor.expand_shape {{.*}} output_shape [2, 1, 1024, 32] : tensor<2x1024x32xf32> into tensor<2x1x1024x32xf32>
// HEADS: %[[VM:.*]] = tosa.mul %[[VE]], %{{.*}}, %{{.*}} : (tensor<2x1x1024x32xf32>, tensor<2x2x1024x32xf32>, tensor<1xi8>) -> tensor<2x2x1024x32xf32>
// HEADS: %[[VT:.*]] = tensor.collapse_shape %[[VM]] {{.*}} : tensor<2x2x1024x32xf32> into tensor<4x1024x32xf32>
// HEADS: tosa.matmul %{{.*}}, %[[KT]], %{{.*}}, %{{.*}} : (tensor<4x1024x32xf32>, tensor<4x32x1024xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1024x1024xf32>

// The KV-cache mask: currentSeqLen as [1, 1, 1, 1], key positions [1, 1, 1, Sk],
// both broadcast to [1, Hq, Sq, Sk], key > length hidden.
// KVC: tosa.reshape %{{.*}}, %{{.*}} : (tensor<1xi32>, !tosa.shape<1>) -> tensor<1xi32>
// KVC-NEXT: tosa.const_shape
// KVC-NEXT: %[[CL:.*]] = tosa.reshape %{{.*}}, %{{.*}} : (tensor<1xi32>, !tosa.shape<4>) -> tensor<1x1x1x1xi32>
// KVC: %[[POS:.*]] = "tosa.const"() <{values = {{.*}} : tensor<1024xi32>}> : () -> tensor<1024xi32>
// KVC: %[[POS4:.*]] = tosa.reshape %[[POS]], %{{.*}} : (tensor<1024xi32>, !tosa.shape<4>) -> tensor<1x1x1x1024xi32>
// KVC: %[[POSB:.*]] = tosa.mul %[[POS4]], %{{.*}}, %{{.*}} : (tensor<1x1x1x1024xi32>, tensor<1x4x1024x1024xi32>, tensor<1xi8>) -> tensor<1x4x1024x1024xi32>
// KVC: %[[CLB:.*]] = tosa.mul %[[CL]], %{{.*}}, %{{.*}} : (tensor<1x1x1x1xi32>, tensor<1x4x1024x1024xi32>, tensor<1xi8>) -> tensor<1x4x1024x1024xi32>
// KVC-NEXT: %[[M:.*]] = tosa.greater %[[POSB]], %[[CLB]] : (tensor<1x4x1024x1024xi32>, tensor<1x4x1024x1024xi32>) -> tensor<1x4x1024x1024xi1>
// KVC-NEXT: %[[NINF:.*]] = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x4x1024x1024xf32>}>
// KVC-NEXT: tosa.select %[[M]], %[[NINF]], %{{.*}}

// LSE: %[[MAX:.*]] = tosa.reduce_max %{{.*}} {axis = 2 : i32} : (tensor<4x1024x1024xf32>) -> tensor<4x1024x1xf32>
// LSE: %[[SUM:.*]] = tosa.reduce_sum %{{.*}} {axis = 2 : i32} : (tensor<4x1024x1024xf32>) -> tensor<4x1024x1xf32>
// LSE-NEXT: %[[SUMC:.*]] = tosa.cast %[[SUM]] : (tensor<4x1024x1xf32>) -> tensor<4x1024x1xf32>
// LSE-NEXT: %[[MAXC:.*]] = tosa.cast %[[MAX]] : (tensor<4x1024x1xf32>) -> tensor<4x1024x1xf32>
// LSE-NEXT: %[[LOG:.*]] = tosa.log %[[SUMC]] : (tensor<4x1024x1xf32>) -> tensor<4x1024x1xf32>
// LSE-NEXT: tosa.add %[[LOG]], %[[MAXC]] : (tensor<4x1024x1xf32>, tensor<4x1024x1xf32>) -> tensor<4x1024x1xf32>

// The P·V product on the broadcast V.
// HEADS: tosa.matmul %{{.*}}, %[[VT]], %{{.*}}, %{{.*}} : (tensor<4x1024x1024xf32>, tensor<4x1024x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1024x32xf32>

// Split-KV: out and lse hold [B * splitKV] partials; the host reference
// writes its result to every split.
// SPLIT-LABEL: func.func @rock_attention
// SPLIT-SAME: (%{{.*}}: memref<128xf32>, %{{.*}}: memref<65536xf32>, %{{.*}}: memref<65536xf32>, %{{.*}}: memref<1xi32>, %[[LR:.*]]: memref<32xf32>, %[[OR:.*]]: memref<1024xf32>)
// SPLIT: rock.transform %{{.*}} : memref<128xf32> to memref<4x1x32xf32>
// SPLIT: %[[L:.*]] = rock.transform %[[LR]] {{.*}} : memref<32xf32> to memref<32x1xf32>
// SPLIT-NEXT: %[[O:.*]] = rock.transform %[[OR]] {{.*}} : memref<1024xf32> to memref<32x1x32xf32>
// SPLIT: rock.attention
// SPLIT-NEXT: qk = %{{.*}} * %{{.*}}
// SPLIT-NEXT: currentSeqLen = (%{{.*}} : memref<4xi32>)
// SPLIT-NEXT: lse = %[[L]] : memref<32x1xf32>
// SPLIT-NEXT: %[[O]] = softmax(qk) * %{{.*}}
// SPLIT-NEXT: numHeadsKV = 2 : i32, numHeadsQ = 4 : i32
// SPLIT-SAME: splitKV = 8 : i32
// SPLIT-LABEL: func.func @host_naive_attention
// SPLIT: %[[R:.*]] = tosa.matmul {{.*}} -> tensor<4x1x32xf32>
// SPLIT-NEXT: %[[RE:.*]] = tensor.expand_shape %[[R]] {{.*}} : tensor<4x1x32xf32> into tensor<4x1x1x32xf32>
// SPLIT-NEXT: %[[ONES:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<4x8x1x32xf32>}>
// SPLIT-NEXT: %[[RB:.*]] = tosa.mul %[[RE]], %[[ONES]], %{{.*}} : (tensor<4x1x1x32xf32>, tensor<4x8x1x32xf32>, tensor<1xi8>) -> tensor<4x8x1x32xf32>
// SPLIT-NEXT: %[[RC:.*]] = tensor.collapse_shape %[[RB]] {{.*}} : tensor<4x8x1x32xf32> into tensor<32x1x32xf32>
// SPLIT: tosa.reshape %[[RC]], %{{.*}} : (tensor<32x1x32xf32>, !tosa.shape<1>) -> tensor<1024xf32>
// SPLIT: tosa.reshape %{{.*}}, %{{.*}} : (tensor<32x1x1xf32>, !tosa.shape<1>) -> tensor<32xf32>
