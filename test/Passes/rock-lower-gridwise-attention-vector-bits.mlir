// rock.vector_bits (set by rock-run from the CPU the JIT targets) blocks the
// fused decode loops for the CPU's vector registers. Without it, or with
// 512 (AVX-512: 32 registers of 512 bits), gemm0 keeps two 16-lane partial
// sums per row (8 accumulators for 4 rows: the products of the slices at
// d 0 and 16 start two chains, d 32 adds onto the first) and gemm1 64
// columns of O per row (16 accumulators). With 256 (AVX2: 16 registers of
// 256 bits) gemm0 keeps one partial sum per row (4 accumulators: d 16 adds
// onto d 0); gemm1 keeps 64 columns for f32 V and 16 columns (4
// accumulators) for bf16 V. K rows this short are one view access per key.
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' | FileCheck %s --check-prefixes=WIDE
// RUN: sed -e 's/^module {/module attributes {rock.vector_bits = 512 : i64} {/' %s | rock-opt --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' | FileCheck %s --check-prefixes=WIDE
// RUN: sed -e 's/^module {/module attributes {rock.vector_bits = 256 : i64} {/' %s | rock-opt --split-input-file --pass-pipeline='builtin.module(rock-lower-gridwise-attention)' | FileCheck %s --check-prefixes=NARROW

// WIDE-LABEL: func @decode_f32
// WIDE: %[[ROW:.*]] = rock.view_load %arg1[{{.*}}] : memref<2x128x64xf32> -> vector<64xf32>
// WIDE: vector.extract_strided_slice %[[ROW]] {offsets = [0], sizes = [16], strides = [1]}
// WIDE: %[[A0:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// WIDE: vector.extract_strided_slice %[[ROW]] {offsets = [16], sizes = [16], strides = [1]}
// WIDE-NOT: arith.addf %[[A0]],
// WIDE: vector.extract_strided_slice %[[ROW]] {offsets = [32], sizes = [16], strides = [1]}
// WIDE: arith.addf %[[A0]], %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// WIDE: scf.for %{{.*}} = %c0 to %c64 step %c64 {
// WIDE: -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// NARROW-LABEL: func @decode_f32
// NARROW: %[[ROW:.*]] = rock.view_load %arg1[{{.*}}] : memref<2x128x64xf32> -> vector<64xf32>
// NARROW: vector.extract_strided_slice %[[ROW]] {offsets = [0], sizes = [16], strides = [1]}
// NARROW: %[[A0:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// NARROW-NOT: arith.addf %[[A0]],
// NARROW: vector.extract_strided_slice %[[ROW]] {offsets = [16], sizes = [16], strides = [1]}
// NARROW: arith.addf %[[A0]], %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// NARROW: scf.for %{{.*}} = %c0 to %c64 step %c64 {
// NARROW: -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
module {
func.func @decode_f32(%q: memref<8x1x64xf32>, %k: memref<2x128x64xf32>,
    %v: memref<2x128x64xf32>, %out: memref<8x1x64xf32>) {
  rock.gridwise_attention q(%q : memref<8x1x64xf32>)
      k(%k : memref<2x128x64xf32>) v(%v : memref<2x128x64xf32>)
      out(%out : memref<8x1x64xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 4 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 32 : i32,
                  gridSize = 2 : i64, softmaxType = f32} {
  }
  return
}
}

// -----

// WIDE-LABEL: func @decode_bf16
// WIDE: %[[ROW:.*]] = rock.view_load %arg1[{{.*}}] : memref<2x128x64xbf16> -> vector<64xbf16>
// WIDE: arith.bitcast %[[ROW]] : vector<64xbf16> to vector<64xi16>
// WIDE: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [16], strides = [1]} : vector<64xi16> to vector<16xi16>
// WIDE: %[[A0:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// WIDE: arith.bitcast %[[ROW]] : vector<64xbf16> to vector<64xi16>
// WIDE: vector.extract_strided_slice %{{.*}} {offsets = [16], sizes = [16], strides = [1]} : vector<64xi16> to vector<16xi16>
// WIDE-NOT: arith.addf %[[A0]],
// WIDE: arith.bitcast %[[ROW]] : vector<64xbf16> to vector<64xi16>
// WIDE: vector.extract_strided_slice %{{.*}} {offsets = [32], sizes = [16], strides = [1]} : vector<64xi16> to vector<16xi16>
// WIDE: arith.addf %[[A0]], %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// WIDE: scf.for %{{.*}} = %c0 to %c64 step %c64 {
// NARROW-LABEL: func @decode_bf16
// NARROW: %[[ROW:.*]] = rock.view_load %arg1[{{.*}}] : memref<2x128x64xbf16> -> vector<64xbf16>
// NARROW: arith.bitcast %[[ROW]] : vector<64xbf16> to vector<64xi16>
// NARROW: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [16], strides = [1]} : vector<64xi16> to vector<16xi16>
// NARROW: %[[A0:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// NARROW-NOT: arith.addf %[[A0]],
// NARROW: arith.bitcast %[[ROW]] : vector<64xbf16> to vector<64xi16>
// NARROW: vector.extract_strided_slice %{{.*}} {offsets = [16], sizes = [16], strides = [1]} : vector<64xi16> to vector<16xi16>
// NARROW: arith.addf %[[A0]], %{{.*}} fastmath<reassoc,contract> : vector<16xf32>
// NARROW: scf.for %[[DC:.*]] = %c0 to %c64 step %c16 {
// NARROW: -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
module {
func.func @decode_bf16(%q: memref<8x1x64xbf16>, %k: memref<2x128x64xbf16>,
    %v: memref<2x128x64xbf16>, %out: memref<8x1x64xbf16>) {
  rock.gridwise_attention q(%q : memref<8x1x64xbf16>)
      k(%k : memref<2x128x64xbf16>) v(%v : memref<2x128x64xbf16>)
      out(%out : memref<8x1x64xbf16>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 4 : i32,
                  prePadG0M = 128 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 32 : i32,
                  gridSize = 2 : i64, softmaxType = f32} {
  }
  return
}
}
