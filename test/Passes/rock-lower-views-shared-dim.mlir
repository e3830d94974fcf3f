// RUN: rock-opt %s --rock-lower-views | FileCheck %s
// RUN: rock-opt %s --rock-fold-transforms --rock-lower-views | FileCheck %s

// An upper dim read by two transforms (a PassThrough and an Embed, as in
// rocMLIR's LDS views): element (k, m) of the view is (k, k + m). A
// permutation above it must keep that meaning whether or not it folds.
#ts = #rock.transform_map<affine_map<(d0, d1) -> (d0, d0 + d1)>
    by [<PassThrough ["k"] at [0] -> ["k"] at [0]>,
        <Embed{1, 1} ["k", "m"] at [0, 1] -> ["m"] at [1]>]
    bounds = [8, 8] -> [8, 16]>
#swap = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["m", "k"] at [0, 1] -> ["m", "k"] at [1, 0]>]
    bounds = [8, 8] -> [8, 8]>

// CHECK-LABEL: func.func @shared
// CHECK-SAME: (%[[X:.*]]: memref<8x16xf32>, %[[K:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[S:.*]] = arith.addi %[[K]], %[[M]] : index
// CHECK: memref.load %[[X]][%[[K]], %[[S]]] : memref<8x16xf32>
func.func @shared(%x: memref<8x16xf32>, %k: index, %m: index) -> f32 {
  %v = rock.transform %x by #ts : memref<8x16xf32> to memref<8x8xf32>
  %e = rock.view_load %v[%k, %m] : memref<8x8xf32> -> f32
  return %e : f32
}

// View [m, k] of the same: element (m, k) is (k, k + m).
// CHECK-LABEL: func.func @swapped
// CHECK-SAME: (%[[X:.*]]: memref<8x16xf32>, %[[M:.*]]: index, %[[K:.*]]: index)
// CHECK: %[[S:.*]] = arith.addi %[[K]], %[[M]] : index
// CHECK: memref.load %[[X]][%[[K]], %[[S]]] : memref<8x16xf32>
func.func @swapped(%x: memref<8x16xf32>, %m: index, %k: index) -> f32 {
  %v = rock.transform %x by #ts : memref<8x16xf32> to memref<8x8xf32>
  %w = rock.transform %v by #swap : memref<8x8xf32> to memref<8x8xf32>
  %e = rock.view_load %w[%m, %k] : memref<8x8xf32> -> f32
  return %e : f32
}
