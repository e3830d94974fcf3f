// Plain attention: flat arguments, 3-D views, no region, no combine; the
// output round-trips through rock-opt.
// RUN: rock-gen --operation attention -seq_len_q 64 -seq_len_k 128 -head_dim_qk 16 -head_dim_v 8 | FileCheck %s
// RUN: rock-gen -seq_len_q 64 -seq_len_k 128 -head_dim_qk 16 -head_dim_v 8 | rock-opt | FileCheck %s
// RUN: rock-gen -p -t f16 | FileCheck %s --check-prefix=P
// RUN: rock-gen -p -t f16 -o %t && FileCheck %s --check-prefix=P < %t

// CHECK-DAG: #[[$QM:.*]] = #rock.transform_map<#{{.*}} by [<Unmerge{1, 64, 16} ["g", "m", "k"] at [0, 1, 2] -> ["raw"] at [0]>] bounds = [1, 64, 16] -> [1024]>
// CHECK-DAG: #[[$KM:.*]] = #rock.transform_map<#{{.*}} by [<Unmerge{1, 16, 128} ["g", "k", "n"] at [0, 1, 2] -> ["raw"] at [0]>] bounds = [1, 16, 128] -> [2048]>
// CHECK-DAG: #[[$VM:.*]] = #rock.transform_map<#{{.*}} by [<Unmerge{1, 128, 8} ["g", "n", "d"] at [0, 1, 2] -> ["raw"] at [0]>] bounds = [1, 128, 8] -> [1024]>
// CHECK-DAG: #[[$OM:.*]] = #rock.transform_map<#{{.*}} by [<Unmerge{1, 64, 8} ["g", "m", "n"] at [0, 1, 2] -> ["raw"] at [0]>] bounds = [1, 64, 8] -> [512]>
// CHECK: module attributes {rock.harness =
// CHECK-LABEL: func.func @rock_attention
// CHECK-SAME: (%[[Q:.*]]: memref<1024xf32>, %[[K:.*]]: memref<2048xf32>, %[[V:.*]]: memref<1024xf32>, %[[O:.*]]: memref<512xf32>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: %[[Q3:.*]] = rock.transform %[[Q]] by #[[$QM]] : memref<1024xf32> to memref<1x64x16xf32>
// CHECK: %[[K3:.*]] = rock.transform %[[K]] by #[[$KM]] : memref<2048xf32> to memref<1x16x128xf32>
// CHECK: %[[V3:.*]] = rock.transform %[[V]] by #[[$VM]] : memref<1024xf32> to memref<1x128x8xf32>
// CHECK: %[[O3:.*]] = rock.transform %[[O]] by #[[$OM]] : memref<512xf32> to memref<1x64x8xf32>
// CHECK: rock.attention {
// CHECK-NEXT: qk = %[[Q3]] * %[[K3]] : memref<1x64x16xf32>, memref<1x16x128xf32>
// CHECK-NEXT: %[[O3]] = softmax(qk) * %[[V3]] : memref<1x128x8xf32> -> memref<1x64x8xf32>
// CHECK-NEXT: } {
// CHECK-SAME: numHeadsKV = 1 : i32, numHeadsQ = 1 : i32
// CHECK-SAME: preSoftmaxHasSplitKVTransforms = false
// CHECK-SAME: softmaxType = f32, splitKV = 1 : i32, storeMethod = #rock<StoreMethod set>}
// CHECK-NEXT: return
// CHECK-NOT: rock_attention_combine

// P: func.func @rock_attention
// P-SAME: memref<32768xf16>, %{{.*}}: memref<32768xf16>, %{{.*}}: memref<32768xf16>, %{{.*}}: memref<32768xf16>)
// P: qk = %{{.*}} * %{{.*}} : memref<1x1024x32xf16>, memref<1x32x1024xf16>
