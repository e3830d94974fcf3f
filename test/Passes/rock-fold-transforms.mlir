// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-fold-transforms)' | FileCheck %s

// An identity transform (PassThrough of every dim onto itself, equal bounds,
// equal types) is erased and its uses read the input.

#id = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 8] -> [4, 8]>

// CHECK-LABEL: func @identity
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>)
// CHECK-NOT: rock.transform
// CHECK: return %[[X]]
func.func @identity(%x: memref<4x8xf32>) -> memref<4x8xf32> {
  %0 = rock.transform %x by #id : memref<4x8xf32> to memref<4x8xf32>
  return %0 : memref<4x8xf32>
}

// -----

// A permutation below: the outer Unmerge's lower dim is renamed through the
// transpose.

#perm = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["b", "a"] at [0, 1] -> ["b", "a"] at [1, 0]>]
    bounds = [8, 4] -> [4, 8]>
#split = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0 * 4 + d1, d2)>
    by [<Unmerge{2, 4} ["b0", "b1"] at [0, 1] -> ["b"] at [0]>,
        <PassThrough ["a"] at [2] -> ["a"] at [1]>]
    bounds = [2, 4, 4] -> [8, 4]>

// CHECK: #[[$MAP:.*]] = affine_map<(d0, d1, d2) -> (d2, d0 * 4 + d1)>
// CHECK: #[[$TM:.*]] = #rock.transform_map<#[[$MAP]] by [<PassThrough ["a"] at [2] -> ["a"] at [0]>, <Unmerge{2, 4} ["b0", "b1"] at [0, 1] -> ["b"] at [1]>] bounds = [2, 4, 4] -> [4, 8]>
// CHECK-LABEL: func @permutation_below
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>)
// CHECK-NEXT: %[[V:.*]] = rock.transform %[[X]] by #[[$TM]] : memref<4x8xf32> to memref<2x4x4xf32>
// CHECK-NEXT: return %[[V]]
func.func @permutation_below(%x: memref<4x8xf32>) -> memref<2x4x4xf32> {
  %0 = rock.transform %x by #perm : memref<4x8xf32> to memref<8x4xf32>
  %1 = rock.transform %0 by #split : memref<8x4xf32> to memref<2x4x4xf32>
  return %1 : memref<2x4x4xf32>
}

// -----

// A permutation above: the inner Pad's upper dim is renamed through the
// transpose, and two transposes compose into an identity that is erased.

#pad = #rock.transform_map<affine_map<(d0, d1) -> (d0 - 1, d1)>
    by [<Pad{1, 1} ["p"] at [0] -> ["m"] at [0]>,
        <PassThrough ["k"] at [1] -> ["k"] at [1]>]
    bounds = [6, 8] -> [4, 8]>
#perm = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["k", "p"] at [0, 1] -> ["k", "p"] at [1, 0]>]
    bounds = [8, 6] -> [6, 8]>
#t = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["j", "i"] at [0, 1] -> ["i", "j"] at [1, 0]>]
    bounds = [8, 4] -> [4, 8]>
#tt = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["i", "j"] at [0, 1] -> ["j", "i"] at [1, 0]>]
    bounds = [4, 8] -> [8, 4]>

// CHECK: #[[$MAP:.*]] = affine_map<(d0, d1) -> (d1 - 1, d0)>
// CHECK: #[[$TM:.*]] = #rock.transform_map<#[[$MAP]] by [<Pad{1, 1} ["p"] at [1] -> ["m"] at [0]>, <PassThrough ["k"] at [0] -> ["k"] at [1]>] bounds = [8, 6] -> [4, 8]>
// CHECK-LABEL: func @permutation_above
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>)
// CHECK-NEXT: %[[V:.*]] = rock.transform %[[X]] by #[[$TM]] : memref<4x8xf32> to memref<8x6xf32>
// CHECK-NEXT: return %[[V]], %[[X]]
func.func @permutation_above(%x: memref<4x8xf32>)
    -> (memref<8x6xf32>, memref<4x8xf32>) {
  %0 = rock.transform %x by #pad : memref<4x8xf32> to memref<6x8xf32>
  %1 = rock.transform %0 by #perm : memref<6x8xf32> to memref<8x6xf32>
  %2 = rock.transform %x by #t : memref<4x8xf32> to memref<8x4xf32>
  %3 = rock.transform %2 by #tt : memref<8x4xf32> to memref<4x8xf32>
  return %1, %3 : memref<8x6xf32>, memref<4x8xf32>
}

// -----

// Unmerge then Merge with equal params cancel (here into an identity, which
// is then erased); so do Merge then Unmerge, leaving the permutation beside.

#unmerge = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 8 + d1)>
    by [<Unmerge{4, 8} ["i", "j"] at [0, 1] -> ["flat"] at [0]>]
    bounds = [4, 8] -> [32]>
#merge = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>
    by [<Merge{4, 8} ["f"] at [0] -> ["i", "j"] at [0, 1]>]
    bounds = [32] -> [4, 8]>
#merge3 = #rock.transform_map<affine_map<(d0, d1) -> (d0 floordiv 8, d0 mod 8, d1)>
    by [<Merge{4, 8} ["m"] at [0] -> ["i", "j"] at [0, 1]>,
        <PassThrough ["k"] at [1] -> ["k"] at [2]>]
    bounds = [32, 2] -> [4, 8, 2]>
#unmerge3 = #rock.transform_map<affine_map<(d0, d1, d2) -> (d1 * 8 + d2, d0)>
    by [<Unmerge{4, 8} ["p", "q"] at [1, 2] -> ["m"] at [0]>,
        <PassThrough ["k"] at [0] -> ["k"] at [1]>]
    bounds = [2, 4, 8] -> [32, 2]>

// CHECK: #[[$MAP:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK: #[[$TM:.*]] = #rock.transform_map<#[[$MAP]] by [<PassThrough ["p", "q", "k"] at [1, 2, 0] -> ["i", "j", "k"] at [0, 1, 2]>] bounds = [2, 4, 8] -> [4, 8, 2]>
// CHECK-LABEL: func @unmerge_merge
// CHECK-SAME: (%[[X:.*]]: memref<32xf32>, %[[Y:.*]]: memref<4x8x2xf32>)
// CHECK-NEXT: %[[V:.*]] = rock.transform %[[Y]] by #[[$TM]] : memref<4x8x2xf32> to memref<2x4x8xf32>
// CHECK-NEXT: return %[[X]], %[[V]]
func.func @unmerge_merge(%x: memref<32xf32>, %y: memref<4x8x2xf32>)
    -> (memref<32xf32>, memref<2x4x8xf32>) {
  %0 = rock.transform %x by #unmerge : memref<32xf32> to memref<4x8xf32>
  %1 = rock.transform %0 by #merge : memref<4x8xf32> to memref<32xf32>
  %2 = rock.transform %y by #merge3 : memref<4x8x2xf32> to memref<32x2xf32>
  %3 = rock.transform %2 by #unmerge3 : memref<32x2xf32> to memref<2x4x8xf32>
  return %1, %3 : memref<32xf32>, memref<2x4x8xf32>
}

// -----

// Pad under Unmerge has no one-layer form: the chain stays. So does a chain
// whose inner view has another use, and Merge/Unmerge with other params.

#pad = #rock.transform_map<affine_map<(d0) -> (d0 - 1)>
    by [<Pad{1, 1} ["p"] at [0] -> ["x"] at [0]>]
    bounds = [32] -> [30]>
#split = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 8 + d1)>
    by [<Unmerge{4, 8} ["i", "j"] at [0, 1] -> ["p"] at [0]>]
    bounds = [4, 8] -> [32]>
#merge = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>
    by [<Merge{4, 8} ["f"] at [0] -> ["i", "j"] at [0, 1]>]
    bounds = [32] -> [4, 8]>
#split2 = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 4 + d1)>
    by [<Unmerge{8, 4} ["a", "b"] at [0, 1] -> ["f"] at [0]>]
    bounds = [8, 4] -> [32]>

// CHECK-LABEL: func @kept
// CHECK-SAME: (%[[X:.*]]: memref<30xf32>, %[[Y:.*]]: memref<4x8xf32>)
// CHECK-NEXT: %[[P:.*]] = rock.transform %[[X]] by
// CHECK-NEXT: %[[S:.*]] = rock.transform %[[P]] by
// CHECK-NEXT: %[[M:.*]] = rock.transform %[[Y]] by
// CHECK-NEXT: %[[S2:.*]] = rock.transform %[[M]] by
// CHECK-NEXT: %[[M2:.*]] = rock.transform %[[Y]] by
// CHECK-NEXT: %[[S3:.*]] = rock.transform %[[M2]] by
// CHECK-NEXT: return %[[S]], %[[S2]], %[[M]], %[[S3]]
func.func @kept(%x: memref<30xf32>, %y: memref<4x8xf32>)
    -> (memref<4x8xf32>, memref<4x8xf32>, memref<32xf32>, memref<8x4xf32>) {
  %0 = rock.transform %x by #pad : memref<30xf32> to memref<32xf32>
  %1 = rock.transform %0 by #split : memref<32xf32> to memref<4x8xf32>
  %2 = rock.transform %y by #merge : memref<4x8xf32> to memref<32xf32>
  %3 = rock.transform %2 by #split : memref<32xf32> to memref<4x8xf32>
  %4 = rock.transform %y by #merge : memref<4x8xf32> to memref<32xf32>
  %5 = rock.transform %4 by #split2 : memref<32xf32> to memref<8x4xf32>
  return %1, %3, %2, %5 : memref<4x8xf32>, memref<4x8xf32>, memref<32xf32>, memref<8x4xf32>
}

// -----

// Longer chains fold step by step; AddDim (no lower dim) and ConstDim (no
// upper dim) are carried over unchanged but for renaming. A PassThrough that
// only renames a dim ("y" -> "x") is an identity and is erased. Lower names
// come from the innermost map (#t names %x's dims "j", "i").

#t = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["j", "i"] at [0, 1] -> ["i", "j"] at [1, 0]>]
    bounds = [8, 4] -> [4, 8]>
#tt = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["i", "j"] at [0, 1] -> ["j", "i"] at [1, 0]>]
    bounds = [4, 8] -> [8, 4]>
#split = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1 * 4 + d2)>
    by [<PassThrough ["i"] at [0] -> ["i"] at [0]>,
        <Unmerge{2, 4} ["j0", "j1"] at [1, 2] -> ["j"] at [1]>]
    bounds = [4, 2, 4] -> [4, 8]>
#unmerge = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 4 + d1)>
    by [<Unmerge{2, 4} ["a", "b"] at [0, 1] -> ["raw"] at [0]>]
    bounds = [2, 4] -> [8]>
#adddim = #rock.transform_map<affine_map<(d0, d1, d2) -> (d1, d2)>
    by [<AddDim{3} ["e"] at [0] -> [] at []>,
        <PassThrough ["a", "b"] at [1, 2] -> ["a", "b"] at [0, 1]>]
    bounds = [3, 2, 4] -> [2, 4]>
#const = #rock.transform_map<affine_map<(d0) -> (d0, 2)>
    by [<PassThrough ["x"] at [0] -> ["x"] at [0]>,
        <ConstDim{2, 4} [] at [] -> ["c"] at [1]>]
    bounds = [8] -> [8, 4]>
#rev = #rock.transform_map<affine_map<(d0) -> (d0)>
    by [<PassThrough ["y"] at [0] -> ["x"] at [0]>]
    bounds = [8] -> [8]>

// CHECK: #[[$MAP0:.*]] = affine_map<(d0, d1, d2) -> (d0, d1 * 4 + d2)>
// CHECK: #[[$MAP1:.*]] = affine_map<(d0, d1, d2) -> (d1 * 4 + d2)>
// CHECK: #[[$MAP2:.*]] = affine_map<(d0) -> (d0, 2)>
// CHECK: #[[$TM0:.*]] = #rock.transform_map<#[[$MAP0]] by [<PassThrough ["i"] at [0] -> ["j"] at [0]>, <Unmerge{2, 4} ["j0", "j1"] at [1, 2] -> ["i"] at [1]>] bounds = [4, 2, 4] -> [4, 8]>
// CHECK: #[[$TM1:.*]] = #rock.transform_map<#[[$MAP1]] by [<Unmerge{2, 4} ["a", "b"] at [1, 2] -> ["raw"] at [0]>, <AddDim{3} ["e"] at [0] -> [] at []>] bounds = [3, 2, 4] -> [8]>
// CHECK: #[[$TM2:.*]] = #rock.transform_map<#[[$MAP2]] by [<PassThrough ["x"] at [0] -> ["x"] at [0]>, <ConstDim{2, 4} [] at [] -> ["c"] at [1]>] bounds = [8] -> [8, 4]>
// CHECK-LABEL: func @longer
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<8xf32>, %[[Z:.*]]: memref<8x4xf32>)
// CHECK-NEXT: %[[A:.*]] = rock.transform %[[X]] by #[[$TM0]] : memref<4x8xf32> to memref<4x2x4xf32>
// CHECK-NEXT: %[[B:.*]] = rock.transform %[[Y]] by #[[$TM1]] : memref<8xf32> to memref<3x2x4xf32>
// CHECK-NEXT: %[[C:.*]] = rock.transform %[[Z]] by #[[$TM2]] : memref<8x4xf32> to memref<8xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @longer(%x: memref<4x8xf32>, %y: memref<8xf32>, %z: memref<8x4xf32>)
    -> (memref<4x2x4xf32>, memref<3x2x4xf32>, memref<8xf32>) {
  %0 = rock.transform %x by #t : memref<4x8xf32> to memref<8x4xf32>
  %1 = rock.transform %0 by #tt : memref<8x4xf32> to memref<4x8xf32>
  %2 = rock.transform %1 by #split : memref<4x8xf32> to memref<4x2x4xf32>
  %3 = rock.transform %y by #unmerge : memref<8xf32> to memref<2x4xf32>
  %4 = rock.transform %3 by #adddim : memref<2x4xf32> to memref<3x2x4xf32>
  %5 = rock.transform %z by #const : memref<8x4xf32> to memref<8xf32>
  %6 = rock.transform %5 by #rev : memref<8xf32> to memref<8xf32>
  return %2, %4, %6 : memref<4x2x4xf32>, memref<3x2x4xf32>, memref<8xf32>
}

// -----

// Chains fold inside nested regions too.

#t = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["j", "i"] at [0, 1] -> ["i", "j"] at [1, 0]>]
    bounds = [8, 4] -> [4, 8]>
#tt = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["i", "j"] at [0, 1] -> ["j", "i"] at [1, 0]>]
    bounds = [4, 8] -> [8, 4]>

// CHECK-LABEL: func @nested
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>,
// CHECK: scf.for
// CHECK-NOT: rock.transform
// CHECK: rock.view_load %[[X]]
func.func @nested(%x: memref<4x8xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %0 = rock.transform %x by #t : memref<4x8xf32> to memref<8x4xf32>
    %1 = rock.transform %0 by #tt : memref<8x4xf32> to memref<4x8xf32>
    %v = rock.view_load %1[%c0, %i] : memref<4x8xf32> -> f32
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}
