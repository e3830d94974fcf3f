// RUN: rock-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(rock-attention-to-gridwise)' \
// RUN:   | FileCheck %s

// Default layouts: only K ([Bkv, Dqk, Sk] when not transposed) needs a
// reorder. Sk = 64 < 512 keeps MB = 32; Sq*R = 64 gives NB = 64, one tile.
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[Q:.*]]: memref<2x64x32xf16>, %[[K:.*]]: memref<2x32x64xf16>, %[[V:.*]]: memref<2x64x16xf16>, %[[O:.*]]: memref<2x64x16xf16>)
// CHECK-NEXT: %[[KV:.*]] = rock.transform %[[K]] by <affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["bkv", "sk", "dqk"] at [0, 1, 2] -> ["bkv", "sk", "dqk"] at [0, 2, 1]>] bounds = [2, 64, 32] -> [2, 32, 64]> : memref<2x32x64xf16> to memref<2x64x32xf16>
// CHECK-NEXT: rock.gridwise_attention q(%[[Q]] : memref<2x64x32xf16>) k(%[[KV]] : memref<2x64x32xf16>) v(%[[V]] : memref<2x64x16xf16>) out(%[[O]] : memref<2x64x16xf16>)
// CHECK-SAME: attributes {gridSize = 2 : i64, mPerBlock = 32 : i32, nPerBlock = 64 : i32, numRepeatsGQA = 1 : i32, prePadG0M = 64 : i64, prePadG0N = 64 : i64, softmaxType = f32, splitKV = 1 : i32}
// CHECK-NOT: rock.attention
func.func @plain(%q: memref<2x64x32xf16>, %k: memref<2x32x64xf16>, %v: memref<2x64x16xf16>, %o: memref<2x64x16xf16>) {
  rock.attention {
    qk = %q * %k : memref<2x64x32xf16>, memref<2x32x64xf16>
    %o = softmax(qk) * %v : memref<2x64x16xf16> -> memref<2x64x16xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// Every flag set: Q [B, Dqk, Sq], V [Bkv, Dv, Sk] and out [B, Dv, Sq] are
// reordered; K [Bkv, Sk, Dqk] is already canonical.
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: (%[[Q:.*]]: memref<1x32x48xf32>, %[[K:.*]]: memref<1x40x32xf32>, %[[V:.*]]: memref<1x16x40xf32>, %[[O:.*]]: memref<1x16x48xf32>)
// CHECK-NEXT: %[[QV:.*]] = rock.transform %[[Q]] by <affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["b", "sq", "dqk"] at [0, 1, 2] -> ["b", "sq", "dqk"] at [0, 2, 1]>] bounds = [1, 48, 32] -> [1, 32, 48]> : memref<1x32x48xf32> to memref<1x48x32xf32>
// CHECK-NEXT: %[[VV:.*]] = rock.transform %[[V]] by <affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["bkv", "sk", "dv"] at [0, 1, 2] -> ["bkv", "sk", "dv"] at [0, 2, 1]>] bounds = [1, 40, 16] -> [1, 16, 40]> : memref<1x16x40xf32> to memref<1x40x16xf32>
// CHECK-NEXT: %[[OV:.*]] = rock.transform %[[O]] by <affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["bs", "sq", "dv"] at [0, 1, 2] -> ["bs", "sq", "dv"] at [0, 2, 1]>] bounds = [1, 48, 16] -> [1, 16, 48]> : memref<1x16x48xf32> to memref<1x48x16xf32>
// CHECK-NEXT: rock.gridwise_attention q(%[[QV]] : memref<1x48x32xf32>) k(%[[K]] : memref<1x40x32xf32>) v(%[[VV]] : memref<1x40x16xf32>) out(%[[OV]] : memref<1x48x16xf32>)
// CHECK-SAME: gridSize = 1 : i64, mPerBlock = 32 : i32, nPerBlock = 64 : i32
// CHECK-SAME: prePadG0M = 40 : i64, prePadG0N = 48 : i64
func.func @transposed(%q: memref<1x32x48xf32>, %k: memref<1x40x32xf32>, %v: memref<1x16x40xf32>, %o: memref<1x16x48xf32>) {
  rock.attention {
    qk = tr %q * tr %k : memref<1x32x48xf32>, memref<1x40x32xf32>
    tr %o = softmax(qk) * tr %v : memref<1x16x40xf32> -> memref<1x16x48xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// GQA 8/2 with split-KV 4, KV cache and LSE (a decode step): R = 4, the
// merged rows Sq*R = 4 fit one tile of NB = 4; Sk = 1024 gives the decode
// MB = 128;
// gridSize = Bkv * 1 * S = 2 * 4.
// CHECK-LABEL: func.func @gqa_decode
// CHECK-SAME: (%[[Q:.*]]: memref<8x1x32xf16>, %[[K:.*]]: memref<2x1024x32xf16>, %[[V:.*]]: memref<2x1024x32xf16>, %[[C:.*]]: memref<8xi32>, %[[L:.*]]: memref<32x1xf32>, %[[O:.*]]: memref<32x1x32xf16>)
// CHECK-NEXT: rock.gridwise_attention q(%[[Q]] : {{.*}}) k(%[[K]] : {{.*}}) v(%[[V]] : {{.*}}) currentSeqLen(%[[C]] : memref<8xi32>) out(%[[O]] : memref<32x1x32xf16>) lse(%[[L]] : memref<32x1xf32>)
// CHECK-SAME: gridSize = 8 : i64, mPerBlock = 128 : i32, nPerBlock = 4 : i32, numRepeatsGQA = 4 : i32, prePadG0M = 1024 : i64, prePadG0N = 4 : i64
// CHECK-SAME: splitKV = 4 : i32
func.func @gqa_decode(%q: memref<8x1x32xf16>, %k: memref<2x1024x32xf16>, %v: memref<2x1024x32xf16>, %csl: memref<8xi32>, %lse: memref<32x1xf32>, %o: memref<32x1x32xf16>) {
  rock.attention {
    qk = %q * tr %k : memref<8x1x32xf16>, memref<2x1024x32xf16>
    currentSeqLen = (%csl : memref<8xi32>)
    lse = %lse : memref<32x1xf32>
    %o = softmax(qk) * %v : memref<2x1024x32xf16> -> memref<32x1x32xf16>
  } {numHeadsKV = 2 : i32, numHeadsQ = 8 : i32, splitKV = 4 : i32}
  return
}

// -----

// Heuristic for a long prefill: Sq*R = 2048 rows take NB = 2048 / 8 = 256
// (8 row blocks per KV head), Sk = 512 takes MB = 64;
// gridSize = 2 * ceil(2048 / 256) = 16.
// CHECK-LABEL: func.func @heuristic_long
// CHECK: rock.gridwise_attention
// CHECK-SAME: gridSize = 16 : i64, mPerBlock = 64 : i32, nPerBlock = 256 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 512 : i64, prePadG0N = 2048 : i64
func.func @heuristic_long(%q: memref<4x1024x16xf32>, %k: memref<2x512x16xf32>, %v: memref<2x512x16xf32>, %o: memref<4x1024x16xf32>) {
  rock.attention {
    qk = %q * tr %k : memref<4x1024x16xf32>, memref<2x512x16xf32>
    %o = softmax(qk) * %v : memref<2x512x16xf32> -> memref<4x1024x16xf32>
  } {numHeadsKV = 2 : i32, numHeadsQ = 4 : i32}
  return
}

// -----

// Heuristic between the two: 40 merged rows round up to NB = 64;
// gridSize = ceil(40 / 64) = 1; Sk = 511 keeps MB = 32.
// CHECK-LABEL: func.func @heuristic_mid
// CHECK: gridSize = 1 : i64, mPerBlock = 32 : i32, nPerBlock = 64 : i32
func.func @heuristic_mid(%q: memref<1x40x16xf32>, %k: memref<1x511x16xf32>, %v: memref<1x511x16xf32>, %o: memref<1x40x16xf32>) {
  rock.attention {
    qk = %q * tr %k : memref<1x40x16xf32>, memref<1x511x16xf32>
    %o = softmax(qk) * %v : memref<1x511x16xf32> -> memref<1x40x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// attn:v3 (13 fields): MB = mPerBlockG0 = 16, NB = nPerBlockG0 = 8, the
// rest ignored; gridSize = 3 * ceil(100 / 8) = 39.
// CHECK-LABEL: func.func @perf_v3
// CHECK: gridSize = 39 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32
func.func @perf_v3(%q: memref<3x100x16xf32>, %k: memref<3x64x16xf32>, %v: memref<3x64x16xf32>, %o: memref<3x100x16xf32>) {
  rock.attention {
    qk = %q * tr %k : memref<3x100x16xf32>, memref<3x64x16xf32>
    %o = softmax(qk) * %v : memref<3x64x16xf32> -> memref<3x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:16,64,8,16,16,8,4,8,1,1,0,2,1"}
  return
}

// -----

// attn:v2: fields 0 and 2 are used when they are powers of two.
// CHECK-LABEL: func.func @perf_v2
// CHECK: gridSize = 2 : i64, mPerBlock = 128 : i32, nPerBlock = 64 : i32
func.func @perf_v2(%q: memref<1x100x16xf32>, %k: memref<1x64x16xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * tr %k : memref<1x100x16xf32>, memref<1x64x16xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v2:128,128,64,8,32,32,4,1"}
  return
}

// -----

// attn:v1 with a field 0 that is not a power of two (48): taken as it is.
// CHECK-LABEL: func.func @perf_v1_partial
// CHECK: gridSize = 7 : i64, mPerBlock = 48 : i32, nPerBlock = 16 : i32
func.func @perf_v1_partial(%q: memref<1x100x16xf32>, %k: memref<1x64x16xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * tr %k : memref<1x100x16xf32>, memref<1x64x16xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v1:48,32,16,8"}
  return
}

// -----

// Paged K/V: keys and keyAddresses are the same view over a rock.deref
// (docs/semantics.md §6). The chain is left as it is; the K reorder goes on top, V is
// used as it is, and no page-table operand appears on the gridwise op.
// CHECK-LABEL: func.func @paged
// CHECK-SAME: (%[[Q:.*]]: memref<1x4x16xf16>, %[[KP:.*]]: memref<1x16x1xi64>, %[[VP:.*]]: memref<1x16x1xi64>, %[[O:.*]]: memref<1x4x16xf16>)
// CHECK-NEXT: %[[KD:.*]] = rock.deref %[[KP]] : memref<1x16x1xi64> -> memref<1x16x16xf16>
// CHECK-NEXT: %[[KC:.*]] = rock.transform %[[KD]] by {{.*}} : memref<1x16x16xf16> to memref<1x16x16xf16>
// CHECK-NEXT: %[[VD:.*]] = rock.deref %[[VP]] : memref<1x16x1xi64> -> memref<1x16x16xf16>
// CHECK-NEXT: %[[VC:.*]] = rock.transform %[[VD]] by {{.*}} : memref<1x16x16xf16> to memref<1x16x16xf16>
// CHECK-NEXT: %[[KV:.*]] = rock.transform %[[KC]] by <affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["bkv", "sk", "dqk"] at [0, 1, 2] -> ["bkv", "sk", "dqk"] at [0, 2, 1]>] bounds = [1, 16, 16] -> [1, 16, 16]> : memref<1x16x16xf16> to memref<1x16x16xf16>
// CHECK-NEXT: rock.gridwise_attention q(%[[Q]] : memref<1x4x16xf16>) k(%[[KV]] : memref<1x16x16xf16>) v(%[[VC]] : memref<1x16x16xf16>) out(%[[O]] : memref<1x4x16xf16>)
func.func @paged(%q: memref<1x4x16xf16>, %kp: memref<1x16x1xi64>, %vp: memref<1x16x1xi64>, %o: memref<1x4x16xf16>) {
  %kd = rock.deref %kp : memref<1x16x1xi64> -> memref<1x16x16xf16>
  %k = rock.transform %kd by <affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["b", "d", "s"] at [0, 1, 2] -> ["b", "d", "s"] at [0, 2, 1]>] bounds = [1, 16, 16] -> [1, 16, 16]> : memref<1x16x16xf16> to memref<1x16x16xf16>
  %vd = rock.deref %vp : memref<1x16x1xi64> -> memref<1x16x16xf16>
  %v = rock.transform %vd by <affine_map<(d0, d1, d2) -> (d0, d1, d2)> by [<PassThrough ["b", "s", "d"] at [0, 1, 2] -> ["b", "s", "d"] at [0, 1, 2]>] bounds = [1, 16, 16] -> [1, 16, 16]> : memref<1x16x16xf16> to memref<1x16x16xf16>
  rock.attention {
    qk = %q * %k : memref<1x4x16xf16>, memref<1x16x16xf16>
    keyAddresses = (%k : memref<1x16x16xf16>)
    valueAddresses = (%v : memref<1x16x16xf16>)
    %o = softmax(qk) * %v : memref<1x16x16xf16> -> memref<1x4x16xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// Prefix-causal with a [1] prefixOffset: broadcast to [B]; flags and the
// optional attributes carry over; the elementwise region moves as is.
// CHECK-LABEL: func.func @prefix_region
// CHECK-SAME: (%[[Q:.*]]: memref<4x8x16xf16>, %[[K:.*]]: memref<4x8x16xf16>, %[[V:.*]]: memref<4x8x16xf16>, %[[S:.*]]: memref<4x8x8xf16>, %[[P:.*]]: memref<1xi32>, %[[O:.*]]: memref<4x8x16xf16>)
// CHECK-NEXT: %[[PB:.*]] = rock.transform %[[P]] by <affine_map<(d0) -> (0)> by [<Broadcast{1} ["b"] at [0] -> ["b"] at [0]>] bounds = [4] -> [1]> : memref<1xi32> to memref<4xi32>
// CHECK-NEXT: rock.gridwise_attention q(%[[Q]] : {{.*}}) k(%[[K]] : {{.*}}) v(%[[V]] : {{.*}}) elementwise(%[[S]] : memref<4x8x8xf16>) prefixOffset(%[[PB]] : memref<4xi32>) out(%[[O]] : {{.*}})
// CHECK-SAME: causal
// CHECK-SAME: reverseGrid
// CHECK-SAME: slidingWindowSize = 3 : i32
// CHECK-SAME: softmaxType = f16
// CHECK-NEXT: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16):
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f16
// CHECK-NEXT:   rock.yield %[[M]] : f16
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @prefix_region(%q: memref<4x8x16xf16>, %k: memref<4x8x16xf16>, %v: memref<4x8x16xf16>, %s: memref<4x8x8xf16>, %p: memref<1xi32>, %o: memref<4x8x16xf16>) {
  rock.attention {
    qk = %q * tr %k : memref<4x8x16xf16>, memref<4x8x16xf16>
    prefixOffset = (%p : memref<1xi32>)
    causal
    qk = elementwise otherIns(%s : memref<4x8x8xf16>) {
    ^bb0(%a: f16, %b: f16):
      %m = arith.mulf %a, %b : f16
      rock.yield %m : f16
    }
    %o = softmax(qk) * %v : memref<4x8x16xf16> -> memref<4x8x16xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, reverseGrid, slidingWindowSize = 3 : i32, softmaxType = f16}
  return
}
