// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' | FileCheck %s
// RUN: sed -e 's/rock.cpu_prefetch_tiles = 3/rock.cpu_prefetch_tiles = 0/' %s | not rock-opt --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sed -e 's/rock.cpu_prefetch_tiles = 3/rock.cpu_prefetch_tiles = 9/' %s | not rock-opt --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sed -e 's/rock.cpu_prefetch_tiles = 3 : i64/rock.cpu_prefetch_tiles = true/' %s | not rock-opt --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' 2>&1 | FileCheck %s --check-prefix=BAD

// The fused decode loops' software prefetch distance is a module (or op)
// attribute, rock.cpu_prefetch_tiles = N (1..8, default 1): the rows of the
// same key N tiles ahead (N * mPerBlock keys, clamped to the last key). An
// ablation switch; anything else is refused with a diagnostic.

// CHECK-LABEL: func @next_tile
// CHECK-DAG: %[[A:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[L:.*]] = arith.constant 127 : index
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %[[A]] : index
// CHECK: arith.minui %[[N]], %[[L]] : index
// CHECK: rock.view_prefetch %arg1
func.func @next_tile(%q: memref<8x1x64xf32>, %k: memref<2x128x64xf32>,
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

// CHECK-LABEL: func @three_tiles
// CHECK-DAG: %[[A:.*]] = arith.constant 48 : index
// CHECK-DAG: %[[L:.*]] = arith.constant 127 : index
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %[[A]] : index
// CHECK: arith.minui %[[N]], %[[L]] : index
// CHECK: rock.view_prefetch %arg1
// BAD: rock.cpu_prefetch_tiles must be an integer in [1, 8]
module attributes {rock.cpu_prefetch_tiles = 3 : i64} {
func.func @three_tiles(%q: memref<8x1x64xf32>, %k: memref<2x128x64xf32>,
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
