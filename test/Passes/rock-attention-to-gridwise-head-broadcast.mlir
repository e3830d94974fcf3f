// rocmlir-gen's head broadcast of K / V (KV cache, GQA, more than one query
// row: AddDim, Broadcast{1}, Merge{Bkv, R} on the batch) is grouped-query
// attention: rock-attention-to-gridwise reads the un-broadcast views with
// numRepeatsGQA = R. Any other batch view is kept as it is (R = 1).
// RUN: rock-gen -current_seq_len=33 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 128 -head_dim_qk 32 -head_dim_v 32 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise)' | FileCheck %s --check-prefix=GEN
// RUN: rock-opt %s --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(rock-attention-to-gridwise)' | FileCheck %s

// GEN: rock.gridwise_attention q(%{{.*}} : memref<4x64x32xf32>) k(%{{.*}} : memref<2x128x32xf32>) v(%{{.*}} : memref<2x128x32xf32>)
// GEN-SAME: numRepeatsGQA = 2 : i32

#add = #rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
  by [<PassThrough ["b"] at [0] -> ["b"] at [0]>, <AddDim{1} ["r"] at [1] -> [] at []>,
      <PassThrough ["x", "y"] at [2, 3] -> ["x", "y"] at [1, 2]>]
  bounds = [2, 1, 64, 32] -> [2, 64, 32]>
#bc = #rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
  by [<PassThrough ["b"] at [0] -> ["b"] at [0]>, <Broadcast{1} ["r"] at [1] -> ["r"] at [1]>,
      <PassThrough ["x", "y"] at [2, 3] -> ["x", "y"] at [2, 3]>]
  bounds = [2, 2, 64, 32] -> [2, 1, 64, 32]>
#merge = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0 floordiv 2, d0 mod 2, d1, d2)>
  by [<Merge{2, 2} ["b"] at [0] -> ["b", "r"] at [0, 1]>,
      <PassThrough ["x", "y"] at [1, 2] -> ["x", "y"] at [2, 3]>]
  bounds = [4, 64, 32] -> [2, 2, 64, 32]>
// Batch b reads head b mod 2: not the grouping of GQA.
#interleave = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0 mod 2, d0 floordiv 2, d1, d2)>
  by [<Merge{2, 2} ["r"] at [0] -> ["r", "b"] at [1, 0]>,
      <PassThrough ["x", "y"] at [1, 2] -> ["x", "y"] at [2, 3]>]
  bounds = [4, 64, 32] -> [2, 2, 64, 32]>

// CHECK-LABEL: func.func @grouped
// CHECK-SAME: (%{{.*}}: memref<4x16x32xf32>, %[[K:.*]]: memref<2x64x32xf32>, %[[V:.*]]: memref<2x64x32xf32>
// CHECK: rock.gridwise_attention q(%{{.*}} : memref<4x16x32xf32>) k(%[[K]] : memref<2x64x32xf32>) v(%[[V]] : memref<2x64x32xf32>)
// CHECK-SAME: numRepeatsGQA = 2 : i32
func.func @grouped(%q: memref<4x16x32xf32>, %k: memref<2x64x32xf32>, %v: memref<2x64x32xf32>, %o: memref<4x16x32xf32>) {
  %k1 = rock.transform %k by #add : memref<2x64x32xf32> to memref<2x1x64x32xf32>
  %k2 = rock.transform %k1 by #bc : memref<2x1x64x32xf32> to memref<2x2x64x32xf32>
  %k3 = rock.transform %k2 by #merge : memref<2x2x64x32xf32> to memref<4x64x32xf32>
  %v1 = rock.transform %v by #add : memref<2x64x32xf32> to memref<2x1x64x32xf32>
  %v2 = rock.transform %v1 by #bc : memref<2x1x64x32xf32> to memref<2x2x64x32xf32>
  %v3 = rock.transform %v2 by #merge : memref<2x2x64x32xf32> to memref<4x64x32xf32>
  rock.attention {
    qk = %q * tr %k3 : memref<4x16x32xf32>, memref<4x64x32xf32>
    %o = softmax(qk) * %v3 : memref<4x64x32xf32> -> memref<4x16x32xf32>
  } {numHeadsKV = 4 : i32, numHeadsQ = 4 : i32}
  return
}


// Only K is broadcast: nothing is peeled.
// CHECK-LABEL: func.func @k_only
// CHECK: rock.gridwise_attention q(%{{.*}} : memref<4x16x32xf32>) k(%{{.*}} : memref<4x64x32xf32>) v(%{{.*}} : memref<4x64x32xf32>)
// CHECK-SAME: numRepeatsGQA = 1 : i32
func.func @k_only(%q: memref<4x16x32xf32>, %k: memref<2x64x32xf32>, %v: memref<4x64x32xf32>, %o: memref<4x16x32xf32>) {
  %k1 = rock.transform %k by #add : memref<2x64x32xf32> to memref<2x1x64x32xf32>
  %k2 = rock.transform %k1 by #bc : memref<2x1x64x32xf32> to memref<2x2x64x32xf32>
  %k3 = rock.transform %k2 by #merge : memref<2x2x64x32xf32> to memref<4x64x32xf32>
  rock.attention {
    qk = %q * tr %k3 : memref<4x16x32xf32>, memref<4x64x32xf32>
    %o = softmax(qk) * %v : memref<4x64x32xf32> -> memref<4x16x32xf32>
  } {numHeadsKV = 4 : i32, numHeadsQ = 4 : i32}
  return
}


// Interleaved heads (batch b reads head b mod 2) keep their views.
// CHECK-LABEL: func.func @interleaved
// CHECK: rock.gridwise_attention q(%{{.*}} : memref<4x16x32xf32>) k(%{{.*}} : memref<4x64x32xf32>) v(%{{.*}} : memref<4x64x32xf32>)
// CHECK-SAME: numRepeatsGQA = 1 : i32
func.func @interleaved(%q: memref<4x16x32xf32>, %k: memref<2x64x32xf32>, %v: memref<2x64x32xf32>, %o: memref<4x16x32xf32>) {
  %k1 = rock.transform %k by #add : memref<2x64x32xf32> to memref<2x1x64x32xf32>
  %k2 = rock.transform %k1 by #bc : memref<2x1x64x32xf32> to memref<2x2x64x32xf32>
  %k3 = rock.transform %k2 by #interleave : memref<2x2x64x32xf32> to memref<4x64x32xf32>
  %v1 = rock.transform %v by #add : memref<2x64x32xf32> to memref<2x1x64x32xf32>
  %v2 = rock.transform %v1 by #bc : memref<2x1x64x32xf32> to memref<2x2x64x32xf32>
  %v3 = rock.transform %v2 by #interleave : memref<2x2x64x32xf32> to memref<4x64x32xf32>
  rock.attention {
    qk = %q * tr %k3 : memref<4x16x32xf32>, memref<4x64x32xf32>
    %o = softmax(qk) * %v3 : memref<4x64x32xf32> -> memref<4x16x32xf32>
  } {numHeadsKV = 4 : i32, numHeadsQ = 4 : i32}
  return
}
