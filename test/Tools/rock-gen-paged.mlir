// Paged K/V (docs/semantics.md §6, docs/user-guide.md §2.4): i64 page tables, the rock.deref chain, its view
// passed as keys and the rock.deref result as keyAddresses (values, valueAddresses), as rocmlir-gen does;
// geometry derivation.
// RUN: rock-gen -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f16 --paged-attention --num-pages 32 --page-size 1024 | FileCheck %s
// RUN: rock-gen -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f16 --paged-attention --num-pages 32 --page-size 1024 | rock-opt | FileCheck %s
// Sk derived from P and ps; ps derived from P and Sk; P derived from ps and Sk.
// RUN: rock-gen -seq_len_q 1024 -head_dim_qk 32 -head_dim_v 32 -t f16 --paged-attention --num-pages 32 --page-size 1024 | FileCheck %s
// RUN: rock-gen -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f16 --paged-attention --num-pages 32 | FileCheck %s
// RUN: rock-gen -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 32 -head_dim_v 32 -t f16 --paged-attention=true --page-size=1024 | FileCheck %s
// GQA 4/2, G = 2, transposed K and V: trans flags change only the logical view.
// RUN: rock-gen -g 2 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 16 -head_dim_qk 32 -head_dim_v 32 -t bf16 --paged-attention --num-pages 64 --page-size 1024 --transK --transV | FileCheck %s --check-prefix=GQA

// CHECK-DAG: #[[$TBL:.*]] = #rock.transform_map<#{{.*}} by [<Unmerge{1, 32, 1} ["g", "p", "one"] at [0, 1, 2] -> ["raw"] at [0]>] bounds = [1, 32, 1] -> [32]>
// CHECK-DAG: #[[$PAGES:.*]] = #rock.transform_map<#{{.*}} by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Merge{32, 1024} ["f"] at [1] -> ["p", "i"] at [1, 2]>] bounds = [1, 32768] -> [1, 32, 1024]>
// CHECK-DAG: #[[$HEADS:.*]] = #rock.transform_map<#{{.*}} by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Unmerge{1, 1024, 32} ["h", "s", "d"] at [1, 2, 3] -> ["f"] at [1]>] bounds = [1, 1, 1024, 32] -> [1, 32768]>
// CHECK-DAG: #[[$KBATCH:.*]] = #rock.transform_map<#{{.*}} by [<Merge{1, 1} ["b"] at [0] -> ["g", "h"] at [0, 1]>, <PassThrough ["d", "s"] at [1, 2] -> ["d", "s"] at [3, 2]>] bounds = [1, 32, 1024] -> [1, 1, 1024, 32]>
// CHECK-DAG: #[[$VBATCH:.*]] = #rock.transform_map<#{{.*}} by [<Merge{1, 1} ["b"] at [0] -> ["g", "h"] at [0, 1]>, <PassThrough ["s", "d"] at [1, 2] -> ["s", "d"] at [2, 3]>] bounds = [1, 1024, 32] -> [1, 1, 1024, 32]>
// CHECK-LABEL: func.func @rock_attention
// CHECK-SAME: (%{{.*}}: memref<32768xf16>, %[[K:.*]]: memref<32xi64>, %[[V:.*]]: memref<32xi64>, %{{.*}}: memref<32768xf16>)
// CHECK-NEXT: rock.transform %{{.*}} : memref<32768xf16> to memref<1x1024x32xf16>
// CHECK-NEXT: %[[KT:.*]] = rock.transform %[[K]] by #[[$TBL]] : memref<32xi64> to memref<1x32x1xi64>
// CHECK-NEXT: %[[VT:.*]] = rock.transform %[[V]] by #[[$TBL]] : memref<32xi64> to memref<1x32x1xi64>
// CHECK-NEXT: rock.transform %{{.*}} : memref<32768xf16> to memref<1x1024x32xf16>
// CHECK-NEXT: %[[KD:.*]] = rock.deref %[[KT]] : memref<1x32x1xi64> -> memref<1x32x1024xf16>
// CHECK-NEXT: %[[VD:.*]] = rock.deref %[[VT]] : memref<1x32x1xi64> -> memref<1x32x1024xf16>
// CHECK-NEXT: %[[KF:.*]] = rock.transform %[[KD]] by #[[$PAGES]] : memref<1x32x1024xf16> to memref<1x32768xf16>
// CHECK-NEXT: %[[KH:.*]] = rock.transform %[[KF]] by #[[$HEADS]] : memref<1x32768xf16> to memref<1x1x1024x32xf16>
// CHECK-NEXT: %[[K3:.*]] = rock.transform %[[KH]] by #[[$KBATCH]] : memref<1x1x1024x32xf16> to memref<1x32x1024xf16>
// CHECK-NEXT: %[[VF:.*]] = rock.transform %[[VD]] by #[[$PAGES]] : memref<1x32x1024xf16> to memref<1x32768xf16>
// CHECK-NEXT: %[[VH:.*]] = rock.transform %[[VF]] by #[[$HEADS]] : memref<1x32768xf16> to memref<1x1x1024x32xf16>
// CHECK-NEXT: %[[V3:.*]] = rock.transform %[[VH]] by #[[$VBATCH]] : memref<1x1x1024x32xf16> to memref<1x1024x32xf16>
// CHECK-NEXT: rock.attention {
// CHECK-NEXT: qk = %{{.*}} * %[[K3]] : memref<1x1024x32xf16>, memref<1x32x1024xf16>
// CHECK-NEXT: keyAddresses = (%[[KD]] : memref<1x32x1024xf16>)
// CHECK-NEXT: valueAddresses = (%[[VD]] : memref<1x32x1024xf16>)
// CHECK-NEXT: %{{.*}} = softmax(qk) * %[[V3]] : memref<1x1024x32xf16> -> memref<1x1024x32xf16>

// GQA: num_pages = 64 : i64, page_size = 1024 : i64, paged = true
// GQA: seq_len_k = 1024 : i64
// GQA-LABEL: func.func @rock_attention
// GQA-SAME: (%{{.*}}: memref<4096xbf16>, %{{.*}}: memref<128xi64>, %{{.*}}: memref<128xi64>, %{{.*}}: memref<4096xbf16>)
// GQA: %[[KD:.*]] = rock.deref %{{.*}} : memref<2x64x1xi64> -> memref<2x64x1024xbf16>
// GQA-NEXT: %[[VD:.*]] = rock.deref %{{.*}} : memref<2x64x1xi64> -> memref<2x64x1024xbf16>
// GQA-NEXT: memref<2x64x1024xbf16> to memref<2x65536xbf16>
// GQA-NEXT: memref<2x65536xbf16> to memref<2x2x1024x32xbf16>
// GQA-NEXT: %[[K3:.*]] = rock.transform %{{.*}} : memref<2x2x1024x32xbf16> to memref<4x1024x32xbf16>
// GQA-NEXT: memref<2x64x1024xbf16> to memref<2x65536xbf16>
// GQA-NEXT: memref<2x65536xbf16> to memref<2x2x1024x32xbf16>
// GQA-NEXT: %[[V3:.*]] = rock.transform %{{.*}} : memref<2x2x1024x32xbf16> to memref<4x32x1024xbf16>
// GQA-NEXT: rock.attention
// GQA-NEXT: qk = %{{.*}} * tr %[[K3]] : memref<8x16x32xbf16>, memref<4x1024x32xbf16>
// GQA-NEXT: keyAddresses = (%[[KD]] : memref<2x64x1024xbf16>)
// GQA-NEXT: valueAddresses = (%[[VD]] : memref<2x64x1024xbf16>)
// GQA-NEXT: %{{.*}} = softmax(qk) * tr %[[V3]] : memref<4x32x1024xbf16> -> memref<8x16x32xbf16>
// GQA: numHeadsKV = 2 : i32, numHeadsQ = 4 : i32
