// rocMLIR's linalg form of the pre-softmax region lowers as rock's scalar
// form does, on the CPU and in the GPU's SIMT and tensor-core schedules (all
// clone the score computation through passes/attention/region.c): the
// linalg.generic's body is cloned at every score, its arguments standing for
// the score and the elementwise inputs in the order the generic reads them.
// The CPU clones it twice per row and tile: on vectors of 16 scores (the
// ops are elementwise), then on the tail's scalars.
// RUN: rock-opt %s --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-lower-gridwise-attention)' | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: rock-opt %s --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefixes=CHECK,GPU

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

module attributes {mhal.arch = "sm_90"} {
// The scalar form.
// CHECK-LABEL: func.func @scalar
// CPU: scf.for
// GPU: gpu.launch
// CHECK: %[[SC:[0-9]+]] = rock.view_load %arg3[
// CHECK-NEXT: %[[BI:[0-9]+]] = rock.view_load %arg4[
// CHECK-NEXT: %[[M:[0-9]+]] = arith.mulf %{{[0-9]+}}, %[[SC]] : {{f32|vector<16xf32>}}
// CHECK-NEXT: arith.subf %[[M]], %[[BI]] : {{f32|vector<16xf32>}}
// CPU: arith.mulf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CPU-NEXT: arith.subf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NOT: linalg.generic
func.func @scalar(%q: memref<1x4x32xf32>, %k: memref<1x32x64xf32>, %v: memref<1x64x32xf32>, %s: memref<1x4x64xf32>, %b: memref<1x4x64xf32>, %out: memref<1x4x32xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x4x32xf32>, memref<1x32x64xf32>
    qk = elementwise otherIns(%s, %b : memref<1x4x64xf32>, memref<1x4x64xf32>) {
    ^bb0(%acc: f32, %x: f32, %y: f32):
      %m = arith.mulf %acc, %x : f32
      %d = arith.subf %m, %y : f32
      rock.yield %d : f32
    }
    %out = softmax(qk) * %v : memref<1x64x32xf32> -> memref<1x4x32xf32>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// The linalg form, writing the output argument directly: the same ops.
// CHECK-LABEL: func.func @linalg
// CPU: scf.for
// GPU: gpu.launch
// CHECK: %[[SC:[0-9]+]] = rock.view_load %arg3[
// CHECK-NEXT: %[[BI:[0-9]+]] = rock.view_load %arg4[
// CHECK-NEXT: %[[M:[0-9]+]] = arith.mulf %{{[0-9]+}}, %[[SC]] : {{f32|vector<16xf32>}}
// CHECK-NEXT: arith.subf %[[M]], %[[BI]] : {{f32|vector<16xf32>}}
// CPU: arith.mulf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CPU-NEXT: arith.subf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NOT: linalg.generic
func.func @linalg(%q: memref<1x4x32xf32>, %k: memref<1x32x64xf32>, %v: memref<1x64x32xf32>, %s: memref<1x4x64xf32>, %b: memref<1x4x64xf32>, %out: memref<1x4x32xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x4x32xf32>, memref<1x32x64xf32>
    qk = elementwise otherIns(%s, %b : memref<1x4x64xf32>, memref<1x4x64xf32>) {
    ^bb0(%qk: memref<1x4x64xf32>, %sv: memref<1x4x64xf32>, %bv: memref<1x4x64xf32>, %res: memref<1x4x64xf32>):
      linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %sv, %bv : memref<1x4x64xf32>, memref<1x4x64xf32>, memref<1x4x64xf32>) outs(%res : memref<1x4x64xf32>) {
      ^bb0(%acc: f32, %x: f32, %y: f32, %o: f32):
        %m = arith.mulf %acc, %x : f32
        %d = arith.subf %m, %y : f32
        linalg.yield %d : f32
      }
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x64x32xf32> -> memref<1x4x32xf32>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}

// The linalg form through an alloc copied into the output, reading the
// inputs in another order: bias - score * scale. The generic's first
// argument is the bias (region argument 2), its second the score: the
// bias load (%arg4) is subf's first operand.
// CHECK-LABEL: func.func @linalg_alloc
// CPU: scf.for
// GPU: gpu.launch
// CHECK: %[[SC:[0-9]+]] = rock.view_load %arg3[
// CHECK-NEXT: %[[BI:[0-9]+]] = rock.view_load %arg4[
// CHECK-NEXT: %[[M:[0-9]+]] = arith.mulf %{{[0-9]+}}, %[[SC]] : {{f32|vector<16xf32>}}
// CHECK-NEXT: arith.subf %[[BI]], %[[M]] : {{f32|vector<16xf32>}}
// CPU: arith.mulf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CPU-NEXT: arith.subf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.copy
func.func @linalg_alloc(%q: memref<1x4x32xf32>, %k: memref<1x32x64xf32>, %v: memref<1x64x32xf32>, %s: memref<1x4x64xf32>, %b: memref<1x4x64xf32>, %out: memref<1x4x32xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x4x32xf32>, memref<1x32x64xf32>
    qk = elementwise otherIns(%s, %b : memref<1x4x64xf32>, memref<1x4x64xf32>) {
    ^bb0(%qk: memref<1x4x64xf32>, %sv: memref<1x4x64xf32>, %bv: memref<1x4x64xf32>, %res: memref<1x4x64xf32>):
      %t = memref.alloc() : memref<1x4x64xf32>
      linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bv, %qk, %sv : memref<1x4x64xf32>, memref<1x4x64xf32>, memref<1x4x64xf32>) outs(%t : memref<1x4x64xf32>) {
      ^bb0(%y: f32, %acc: f32, %x: f32, %o: f32):
        %m = arith.mulf %acc, %x : f32
        %d = arith.subf %y, %m : f32
        linalg.yield %d : f32
      }
      memref.copy %t, %res : memref<1x4x64xf32> to memref<1x4x64xf32>
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x64x32xf32> -> memref<1x4x32xf32>
  } {numHeadsQ = 1 : i32, numHeadsKV = 1 : i32}
  return
}
}
