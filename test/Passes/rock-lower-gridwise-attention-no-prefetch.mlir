// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' | FileCheck %s

// The software prefetch of the fused decode loops is switched by IR, not by
// the environment: a unit attribute rock.no_prefetch on the op or on an
// ancestor (rock-run --no-prefetch sets it on the module) removes every
// rock.view_prefetch; without it the K and V rows are prefetched.

// CHECK-LABEL: func @prefetch
// CHECK: rock.view_prefetch %arg1
// CHECK: rock.view_prefetch %arg2
func.func @prefetch(%q: memref<8x1x64xf32>, %k: memref<2x128x64xf32>,
    %v: memref<2x128x64xf32>, %out: memref<16x1x64xf32>,
    %lse: memref<16x1xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x64xf32>)
      k(%k : memref<2x128x64xf32>) v(%v : memref<2x128x64xf32>)
      out(%out : memref<16x1x64xf32>) lse(%lse : memref<16x1xf32>)
      attributes {splitKV = 2 : i32, numRepeatsGQA = 4 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 32 : i32,
                  gridSize = 4 : i64, softmaxType = f32} {
  }
  return
}

// -----

// CHECK-LABEL: func @module_no_prefetch
// CHECK-NOT: rock.view_prefetch
// CHECK: return
module attributes {rock.no_prefetch} {
func.func @module_no_prefetch(%q: memref<8x1x64xf32>, %k: memref<2x128x64xf32>,
    %v: memref<2x128x64xf32>, %out: memref<16x1x64xf32>,
    %lse: memref<16x1xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x64xf32>)
      k(%k : memref<2x128x64xf32>) v(%v : memref<2x128x64xf32>)
      out(%out : memref<16x1x64xf32>) lse(%lse : memref<16x1xf32>)
      attributes {splitKV = 2 : i32, numRepeatsGQA = 4 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 32 : i32,
                  gridSize = 4 : i64, softmaxType = f32} {
  }
  return
}
}

// -----

// CHECK-LABEL: func @op_no_prefetch
// CHECK-NOT: rock.view_prefetch
// CHECK: return
func.func @op_no_prefetch(%q: memref<8x1x64xf32>, %k: memref<2x128x64xf32>,
    %v: memref<2x128x64xf32>, %out: memref<16x1x64xf32>,
    %lse: memref<16x1xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x64xf32>)
      k(%k : memref<2x128x64xf32>) v(%v : memref<2x128x64xf32>)
      out(%out : memref<16x1x64xf32>) lse(%lse : memref<16x1xf32>)
      attributes {splitKV = 2 : i32, numRepeatsGQA = 4 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 32 : i32,
                  gridSize = 4 : i64, softmaxType = f32,
                  rock.no_prefetch} {
  }
  return
}
