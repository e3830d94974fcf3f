// Layout flags (docs/dialect.md rock.attention, docs/user-guide.md §2.1): the flat arguments keep their sizes; only
// the 3-D views and the `tr` markers change. K non-transposed is [Bkv, Dqk, Sk].
// RUN: rock-gen -g 2 -num_heads_q 2 -seq_len_q 8 -seq_len_k 12 -head_dim_qk 4 -head_dim_v 6 | rock-opt | FileCheck %s --check-prefix=NONE
// RUN: rock-gen -g 2 -num_heads_q 2 -seq_len_q 8 -seq_len_k 12 -head_dim_qk 4 -head_dim_v 6 --transQ --transK=true -transV=True -transO=1 | rock-opt | FileCheck %s --check-prefix=ALL
// RUN: rock-gen -g 2 -num_heads_q 2 -seq_len_q 8 -seq_len_k 12 -head_dim_qk 4 -head_dim_v 6 --transQ=false -transK --transV=False --transO -split_kv 2 -return_lse | rock-opt | FileCheck %s --check-prefix=KO

// NONE-LABEL: func.func @rock_attention
// NONE-SAME: (%{{.*}}: memref<128xf32>, %{{.*}}: memref<96xf32>, %{{.*}}: memref<144xf32>, %{{.*}}: memref<192xf32>)
// NONE: qk = %{{.*}} * %{{.*}} : memref<4x8x4xf32>, memref<2x4x12xf32>
// NONE-NEXT: %{{.*}} = softmax(qk) * %{{.*}} : memref<2x12x6xf32> -> memref<4x8x6xf32>
// NONE-NOT: Transposed

// ALL: transK = true, transO = true, transQ = true, transV = true
// ALL-LABEL: func.func @rock_attention
// ALL-SAME: (%{{.*}}: memref<128xf32>, %{{.*}}: memref<96xf32>, %{{.*}}: memref<144xf32>, %{{.*}}: memref<192xf32>)
// ALL: qk = tr %{{.*}} * tr %{{.*}} : memref<4x4x8xf32>, memref<2x12x4xf32>
// ALL-NEXT: tr %{{.*}} = softmax(qk) * tr %{{.*}} : memref<2x6x12xf32> -> memref<4x6x8xf32>

// KO: transK = true, transO = true, transQ = false, transV = false
// KO-LABEL: func.func @rock_attention
// KO: qk = %{{.*}} * tr %{{.*}} : memref<4x8x4xf32>, memref<2x12x4xf32>
// KO: tr %{{.*}} = softmax(qk) * %{{.*}} : memref<2x12x6xf32> -> memref<8x6x8xf32>
// KO-LABEL: func.func @rock_attention_combine
// KO: rock.attention_combine {{.*}} {oTransposed, splitKV = 2 : i32} : memref<8x6x8xf32>, memref<8x8xf32> -> memref<4x6x8xf32>, memref<4x8xf32>
