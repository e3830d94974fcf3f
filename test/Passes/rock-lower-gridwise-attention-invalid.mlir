// RUN: rock-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(rock-lower-gridwise-attention)'

// The lowering needs static shapes: the tiling, the grid and the key range
// are compile-time constants.

func.func @dynamic_keys(%q: memref<1x8x16xf32>, %k: memref<1x?x16xf32>,
    %v: memref<1x?x16xf32>, %out: memref<1x8x16xf32>) {
  // expected-error @+1 {{operands must have static shapes}}
  rock.gridwise_attention q(%q : memref<1x8x16xf32>)
      k(%k : memref<1x?x16xf32>) v(%v : memref<1x?x16xf32>)
      out(%out : memref<1x8x16xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 16 : i64, prePadG0N = 8 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 8 : i32,
                  gridSize = 1 : i64, softmaxType = f32} {
  }
  return
}
