// rock-opt prints the IR after a rock pass on request, like upstream passes
// (rock-opt carries the plugin's code, so this also runs under ASan).
// RUN: rock-opt %s --pass-pipeline='builtin.module(rock-fold-transforms)' \
// RUN:   --mlir-print-ir-after=rock-fold-transforms 2>&1 \
// RUN: | FileCheck %s

#id = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 8] -> [4, 8]>

// CHECK: // -----// IR Dump After RockFoldTransforms (rock-fold-transforms) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @f(%[[X:.*]]: memref<4x8xf32>) -> memref<4x8xf32> {
// CHECK-NEXT: return %[[X]] : memref<4x8xf32>
func.func @f(%x: memref<4x8xf32>) -> memref<4x8xf32> {
  %0 = rock.transform %x by #id : memref<4x8xf32> to memref<4x8xf32>
  return %0 : memref<4x8xf32>
}
