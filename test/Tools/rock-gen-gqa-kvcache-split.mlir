// GQA 4/2 + KV cache + split-KV 8 + LSE: the rocMLIR example of docs/user-guide.md §2.3, the
// [G] -> [G*Hq] broadcast of currentSeqLen, and the combine function.
// RUN: rock-gen -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -current_seq_len=17 -split_kv 8 -return_lse | FileCheck %s
// RUN: rock-gen -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -current_seq_len=17 -split_kv 8 -return_lse | rock-opt | FileCheck %s
// RUN: rock-gen -g 3 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 --current_seq_len 17,1,32 -split_kv=4 -return_lse=true -causal -prefix_offset=18,5,16 --transO | FileCheck %s --check-prefix=G3

// CHECK-DAG: #[[$G:.*]] = #rock.transform_map<#{{.*}} by [<Unmerge{1} ["g"] at [0] -> ["raw"] at [0]>] bounds = [1] -> [1]>
// CHECK-DAG: #[[$ADD:.*]] = #rock.transform_map<#{{.*}} by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <AddDim{1} ["h"] at [1] -> [] at []>] bounds = [1, 1] -> [1]>
// CHECK-DAG: #[[$BC:.*]] = #rock.transform_map<#{{.*}} by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Broadcast{1} ["h"] at [1] -> ["h"] at [1]>] bounds = [1, 4] -> [1, 1]>
// CHECK-DAG: #[[$MERGE:.*]] = #rock.transform_map<#{{.*}} by [<Merge{1, 4} ["b"] at [0] -> ["g", "h"] at [0, 1]>] bounds = [4] -> [1, 4]>
// CHECK-LABEL: func.func @rock_attention
// CHECK-SAME: (%{{.*}}: memref<128xf32>, %{{.*}}: memref<65536xf32>, %{{.*}}: memref<65536xf32>, %[[CSL:.*]]: memref<1xi32>, %{{.*}}: memref<32xf32>, %{{.*}}: memref<1024xf32>)
// CHECK: %[[G:.*]] = rock.transform %[[CSL]] by #[[$G]] : memref<1xi32> to memref<1xi32>
// CHECK: %[[G1:.*]] = rock.transform %[[G]] by #[[$ADD]] : memref<1xi32> to memref<1x1xi32>
// CHECK-NEXT: %[[GH:.*]] = rock.transform %[[G1]] by #[[$BC]] : memref<1x1xi32> to memref<1x4xi32>
// CHECK-NEXT: %[[B:.*]] = rock.transform %[[GH]] by #[[$MERGE]] : memref<1x4xi32> to memref<4xi32>
// One query row: K / V keep their two heads (no head broadcast).
// CHECK-NEXT: rock.attention {
// CHECK-NEXT: qk = %{{.*}} * %{{.*}} : memref<4x1x32xf32>, memref<2x32x1024xf32>
// CHECK-NEXT: currentSeqLen = (%[[B]] : memref<4xi32>)
// CHECK-NEXT: lse = %{{.*}} : memref<32x1xf32>
// CHECK-NEXT: %{{.*}} = softmax(qk) * %{{.*}} : memref<2x1024x32xf32> -> memref<32x1x32xf32>
// CHECK-NEXT: } {
// CHECK-SAME: numHeadsKV = 2 : i32, numHeadsQ = 4 : i32
// CHECK-SAME: splitKV = 8 : i32
// CHECK-LABEL: func.func @rock_attention_combine
// CHECK-SAME: (%[[PO:.*]]: memref<1024xf32>, %[[PL:.*]]: memref<32xf32>, %[[FO:.*]]: memref<128xf32>, %[[FL:.*]]: memref<4xf32>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-DAG: %[[PO3:.*]] = rock.transform %[[PO]] by #{{.*}} : memref<1024xf32> to memref<32x1x32xf32>
// CHECK-DAG: %[[PL2:.*]] = rock.transform %[[PL]] by #{{.*}} : memref<32xf32> to memref<32x1xf32>
// CHECK-DAG: %[[FO3:.*]] = rock.transform %[[FO]] by #{{.*}} : memref<128xf32> to memref<4x1x32xf32>
// CHECK-DAG: %[[FL2:.*]] = rock.transform %[[FL]] by #{{.*}} : memref<4xf32> to memref<4x1xf32>
// CHECK: rock.attention_combine %[[PO3]], %[[PL2]] into %[[FO3]], %[[FL2]] {splitKV = 8 : i32} : memref<32x1x32xf32>, memref<32x1xf32> -> memref<4x1x32xf32>, memref<4x1xf32>

// G3: current_seq_len = array<i64: 17, 1, 32>
// G3-SAME: prefix_offset = array<i64: 18, 5, 16>
// G3-LABEL: func.func @rock_attention
// G3-SAME: (%{{.*}}: memref<384xf32>, %{{.*}}: memref<12288xf32>, %{{.*}}: memref<12288xf32>, %{{.*}}: memref<3xi32>, %{{.*}}: memref<3xi32>, %{{.*}}: memref<48xf32>, %{{.*}}: memref<1536xf32>)
// G3: rock.attention {
// G3-NEXT: qk = %{{.*}} * %{{.*}} : memref<12x1x32xf32>, memref<6x32x64xf32>
// G3-NEXT: currentSeqLen = (%{{.*}} : memref<12xi32>)
// G3-NEXT: prefixOffset = (%{{.*}} : memref<12xi32>)
// G3-NEXT: causal
// G3-NEXT: lse = %{{.*}} : memref<48x1xf32>
// G3-NEXT: tr %{{.*}} = softmax(qk) * %{{.*}} : memref<6x64x32xf32> -> memref<48x32x1xf32>
// G3-LABEL: func.func @rock_attention_combine
// G3: rock.attention_combine {{.*}} {oTransposed, splitKV = 4 : i32} : memref<48x32x1xf32>, memref<48x1xf32> -> memref<12x32x1xf32>, memref<12x1xf32>
