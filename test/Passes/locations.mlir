// Lowered IR keeps its locations: every op a rock pass generates carries the
// location of the op it lowers (here the user's loc("user.mlir":L:C)), never
// the location of the generated text (loc("-":L:C)) or an unknown one. One
// RUN per rock pass, and the four lowering passes in pipeline order.
// RUN: rock-opt %s --rock-attention-to-gridwise --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=ANY,A2G
// RUN: rock-opt %s --rock-lower-combine --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=ANY,COMB
// RUN: rock-opt %s --rock-lower-gridwise-attention --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=ANY,GRID
// RUN: rock-opt %s --rock-lower-views --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=ANY,VIEWS
// RUN: rock-opt %s --rock-fold-transforms --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=ANY,FOLD
// RUN: rock-opt %s --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention --rock-lower-views --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=ANY,ALL

// ANY-NOT: loc("-":
// ANY-NOT: loc(unknown)

// A2G-LABEL: func.func @attention
// A2G: rock.transform {{.*}} loc("user.mlir":30:3)
// A2G: rock.gridwise_attention
// A2G: } loc("user.mlir":30:3)
// ALL-LABEL: func.func @attention
// ALL: scf.parallel
// ALL: math.roundeven {{.*}} loc("user.mlir":30:3)
// ALL: memref.store {{.*}} loc("user.mlir":30:3)
// ALL: return loc("user.mlir":32:3)
func.func @attention(%q: memref<2x8x16xf32>, %k: memref<1x16x32xf32>,
    %v: memref<1x32x16xf32>, %out: memref<4x8x16xf32>, %lse: memref<4x8xf32>) {
  rock.attention {
    qk = %q * %k : memref<2x8x16xf32>, memref<1x16x32xf32>
    lse = %lse : memref<4x8xf32>
    %out = softmax(qk) * %v : memref<1x32x16xf32> -> memref<4x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = 2 : i32} loc("user.mlir":30:3)
  return loc("user.mlir":32:3)
}

// COMB-LABEL: func.func @combine
// COMB: scf.parallel
// COMB: math.exp {{.*}} loc("user.mlir":43:3)
// COMB: rock.view_store {{.*}} loc("user.mlir":43:3)
func.func @combine(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>,
    %out: memref<2x8x32xf16>, %lse: memref<2x8xf32>) {
  rock.attention_combine %po, %pl into %out, %lse {splitKV = 2 : i32}
      : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<2x8xf32> loc("user.mlir":43:3)
  return
}

// GRID-LABEL: func.func @gridwise
// GRID: scf.parallel
// GRID: rock.view_load {{.*}} loc("user.mlir":60:3)
// GRID: math.roundeven {{.*}} loc("user.mlir":60:3)
// GRID: memref.store {{.*}} loc("user.mlir":60:3)
// GRID: rock.view_store {{.*}} loc("user.mlir":60:3)
func.func @gridwise(%q: memref<1x4x16xf32>, %k: memref<1x16x16xf32>,
    %v: memref<1x16x16xf32>, %out: memref<1x4x16xf32>) {
  rock.gridwise_attention q(%q : memref<1x4x16xf32>)
      k(%k : memref<1x16x16xf32>) v(%v : memref<1x16x16xf32>)
      out(%out : memref<1x4x16xf32>)
      attributes {splitKV = 1 : i32, numRepeatsGQA = 1 : i32,
                  prePadG0M = 16 : i64, prePadG0N = 4 : i64,
                  mPerBlock = 16 : i32, nPerBlock = 4 : i32,
                  gridSize = 1 : i64, softmaxType = f32} {
  } loc("user.mlir":60:3)
  return
}

#pad = #rock.transform_map<affine_map<(d0) -> (d0 - 1)>
    by [<Pad{1, 2} ["x"] at [0] -> ["x"] at [0]>]
    bounds = [11] -> [8]>
#sl = #rock.transform_map<affine_map<(d0) -> (d0 + 2)>
    by [<Slice{2, 6} ["x"] at [0] -> ["x"] at [0]>]
    bounds = [4] -> [11]>

// VIEWS-LABEL: func.func @views
// VIEWS: arith.cmpi {{.*}} loc("user.mlir":82:8)
// VIEWS: memref.load {{.*}} loc("user.mlir":82:8)
// VIEWS: } loc("user.mlir":82:8)
// VIEWS: arith.cmpi {{.*}} loc("user.mlir":83:3)
// VIEWS: memref.store {{.*}} loc("user.mlir":83:3)
// VIEWS: } loc("user.mlir":83:3)
func.func @views(%m: memref<8xf32>, %i: index) -> f32 {
  %p = rock.transform %m by #pad : memref<8xf32> to memref<11xf32> loc("user.mlir":80:8)
  %s = rock.transform %p by #sl : memref<11xf32> to memref<4xf32> loc("user.mlir":81:8)
  %x = rock.view_load %s[%i] : memref<4xf32> -> f32 loc("user.mlir":82:8)
  rock.view_store %x, %s[%i] : f32, memref<4xf32> loc("user.mlir":83:3)
  return %x : f32
}

#perm = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["b", "a"] at [0, 1] -> ["b", "a"] at [1, 0]>]
    bounds = [8, 4] -> [4, 8]>
#split = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0 * 4 + d1, d2)>
    by [<Unmerge{2, 4} ["b0", "b1"] at [0, 1] -> ["b"] at [0]>,
        <PassThrough ["a"] at [2] -> ["a"] at [1]>]
    bounds = [2, 4, 4] -> [8, 4]>

// The folded transform takes the location of the outer one.
// FOLD-LABEL: func.func @fold
// FOLD-NEXT: rock.transform %arg0 by {{.*}} loc("user.mlir":106:8)
// FOLD-NEXT: return
func.func @fold(%x: memref<4x8xf32>) -> memref<2x4x4xf32> {
  %0 = rock.transform %x by #perm : memref<4x8xf32> to memref<8x4xf32> loc("user.mlir":105:8)
  %1 = rock.transform %0 by #split : memref<8x4xf32> to memref<2x4x4xf32> loc("user.mlir":106:8)
  return %1 : memref<2x4x4xf32>
}
