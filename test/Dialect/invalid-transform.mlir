// RUN: rock-opt %s -split-input-file -verify-diagnostics

// rock.transform / #rock.transform_map verifier (docs/semantics.md §7):
// one case per invariant.

// Upper bounds equal the result shape.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform_map upper bounds (4x4) must equal the result shape (4x5)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x5xf32>
  return
}

// -----

// Lower bounds equal the input shape.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x8xf32>) {
  // expected-error @+1 {{transform_map lower bounds (4x4) must equal the input shape (4x8)}}
  %y = rock.transform %x by #m : memref<4x8xf32> to memref<4x4xf32>
  return
}

// -----

// Bounds and shapes have the same rank.
#m = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>,
        <AddDim{1} ["c"] at [2] -> [] at []>]
    bounds = [4, 4, 1] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform_map upper bounds (4x4x1) must equal the result shape (4x4)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// The view keeps the element type.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{result element type (f16) must equal the input element type (f32)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf16>
  return
}

// -----

// Upper names and dims agree.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (PassThrough): 1 upper names but 2 upper dims}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Lower names and dims agree.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b", "c"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (PassThrough): 3 lower names but 2 lower dims}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// PassThrough: no params.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough{1} ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (PassThrough): has 1 params but must have 0 (PassThrough has no parameters)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// PassThrough: n -> n.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a"] at [0]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (PassThrough): has 1 lower dims but must have 2 (PassThrough must have the same number of inputs and outputs)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Pad: n -> n.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<Pad{0, 0} ["a"] at [0] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Pad): has 2 lower dims but must have 1}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Pad: two params per dim.
#m = #rock.transform_map<affine_map<(d0) -> (d0)>
    by [<Pad{0} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (Pad): has 1 params but must have 2}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Slice: two params per dim.
#m = #rock.transform_map<affine_map<(d0) -> (d0)>
    by [<Slice{0, 4, 1} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (Slice): has 3 params but must have 2}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Embed: one lower dim.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<Embed{4, 1} ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Embed): has 2 lower dims but must have 1}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Embed: one coefficient per upper dim.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 4 + d1)>
    by [<Embed{4} ["a", "b"] at [0, 1] -> ["r"] at [0]>]
    bounds = [4, 4] -> [16]>
func.func @f(%x: memref<16xf32>) {
  // expected-error @+1 {{transform 0 (Embed): has 1 params but must have 2 (Embed and unmerge must specify one coefficient per input dimension)}}
  %y = rock.transform %x by #m : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

// Unmerge: one size per upper dim.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 4 + d1)>
    by [<Unmerge{4, 4, 1} ["a", "b"] at [0, 1] -> ["r"] at [0]>]
    bounds = [4, 4] -> [16]>
func.func @f(%x: memref<16xf32>) {
  // expected-error @+1 {{transform 0 (Unmerge): has 3 params but must have 2}}
  %y = rock.transform %x by #m : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

// Merge: one upper dim.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<Merge{4, 4} ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Merge): has 2 upper dims but must have 1 (Merge and unfold can only have one input dimension)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Merge: one size per lower dim.
#m = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>
    by [<Merge{4} ["m"] at [0] -> ["a", "b"] at [0, 1]>]
    bounds = [16] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Merge): has 1 params but must have 2}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<16xf32>
  return
}

// -----

// AddDim: no lower dim.
#m = #rock.transform_map<affine_map<(d0) -> (d0)>
    by [<AddDim{4} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (AddDim): has 1 lower dims but must have 0 (The added dimension cannot be mapped anywhere)}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<4xf32>
  return
}

// -----

// AddDim: one size param.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d1)>
    by [<AddDim ["e"] at [0] -> [] at []>,
        <PassThrough ["a"] at [1] -> ["a"] at [0]>]
    bounds = [4, 4] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (AddDim): has 0 params but must have 1}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<4x4xf32>
  return
}

// -----

// Broadcast: one param per dim.
#m = #rock.transform_map<affine_map<(d0) -> (0)>
    by [<Broadcast{1, 1} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [1]>
func.func @f(%x: memref<1xf32>) {
  // expected-error @+1 {{transform 0 (Broadcast): has 2 params but must have 1 (Broadcast must specify the output length for each dimension)}}
  %y = rock.transform %x by #m : memref<1xf32> to memref<4xf32>
  return
}

// -----

// ConstDim: no upper dim.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, 0)>
    by [<PassThrough ["a"] at [0] -> ["a"] at [0]>,
        <ConstDim{0, 4} ["b"] at [1] -> ["b"] at [1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 1 (ConstDim): has 1 upper dims but must have 0 (ConstDim must not take any inputs)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// ConstDim: (value, length) per lower dim.
#m = #rock.transform_map<affine_map<(d0) -> (d0, 0)>
    by [<PassThrough ["a"] at [0] -> ["a"] at [0]>,
        <ConstDim{0} [] at [] -> ["b"] at [1]>]
    bounds = [4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 1 (ConstDim): has 1 params but must have 2}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

// Pad params are non-negative.
#m = #rock.transform_map<affine_map<(d0) -> (d0 + 1)>
    by [<Pad{-1, 2} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [5] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (Pad): params {-1, 2} of dim 0 must be non-negative}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<5xf32>
  return
}

// -----

// Pad: upper = lower + left + right.
#m = #rock.transform_map<affine_map<(d0) -> (d0 - 1)>
    by [<Pad{1, 2} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [6] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (Pad): upper bound (6) must equal lower bound (4) + left (1) + right (2)}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<6xf32>
  return
}

// -----

// Slice params are non-negative.
#m = #rock.transform_map<affine_map<(d0) -> (d0 - 2)>
    by [<Slice{-2, 2} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [8]>
func.func @f(%x: memref<8xf32>) {
  // expected-error @+1 {{transform 0 (Slice): params {-2, 2} of dim 0 must be non-negative}}
  %y = rock.transform %x by #m : memref<8xf32> to memref<4xf32>
  return
}

// -----

// Slice: end > begin.
#m = #rock.transform_map<affine_map<(d0) -> (d0 + 2)>
    by [<Slice{2, 2} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [1] -> [8]>
func.func @f(%x: memref<8xf32>) {
  // expected-error @+1 {{transform 0 (Slice): slice end (2) must be greater than begin (2)}}
  %y = rock.transform %x by #m : memref<8xf32> to memref<1xf32>
  return
}

// -----

// Slice: end <= lower bound.
#m = #rock.transform_map<affine_map<(d0) -> (d0 + 2)>
    by [<Slice{2, 10} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [8] -> [8]>
func.func @f(%x: memref<8xf32>) {
  // expected-error @+1 {{transform 0 (Slice): slice end (10) must not exceed the lower bound (8)}}
  %y = rock.transform %x by #m : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Slice: upper = end - begin.
#m = #rock.transform_map<affine_map<(d0) -> (d0 + 2)>
    by [<Slice{2, 6} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [5] -> [8]>
func.func @f(%x: memref<8xf32>) {
  // expected-error @+1 {{transform 0 (Slice): upper bound (5) must equal slice end (6) - begin (2)}}
  %y = rock.transform %x by #m : memref<8xf32> to memref<5xf32>
  return
}

// -----

// Merge sizes are positive.
#m = #rock.transform_map<affine_map<(d0) -> (d0, 0)>
    by [<Merge{4, 0} ["m"] at [0] -> ["a", "b"] at [0, 1]>]
    bounds = [16] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Merge): param 1 (0) must be positive}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<16xf32>
  return
}

// -----

// Unmerge sizes are positive.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * -4 + d1)>
    by [<Unmerge{-4, 4} ["a", "b"] at [0, 1] -> ["r"] at [0]>]
    bounds = [4, 4] -> [16]>
func.func @f(%x: memref<16xf32>) {
  // expected-error @+1 {{transform 0 (Unmerge): param 0 (-4) must be positive}}
  %y = rock.transform %x by #m : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

// Merge: each size is its lower bound.
#m = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>
    by [<Merge{2, 8} ["m"] at [0] -> ["a", "b"] at [0, 1]>]
    bounds = [16] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Merge): lower bound of dim 0 (4) must equal param 0 (2)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<16xf32>
  return
}

// -----

// Merge: product of sizes is the upper bound.
#m = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>
    by [<Merge{4, 4} ["m"] at [0] -> ["a", "b"] at [0, 1]>]
    bounds = [12] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Merge): product of params (16) must equal the upper bound (12)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<12xf32>
  return
}

// -----

// Unmerge: each size is its upper bound.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 8 + d1)>
    by [<Unmerge{2, 8} ["a", "b"] at [0, 1] -> ["r"] at [0]>]
    bounds = [4, 4] -> [16]>
func.func @f(%x: memref<16xf32>) {
  // expected-error @+1 {{transform 0 (Unmerge): upper bound of dim 0 (4) must equal param 0 (2)}}
  %y = rock.transform %x by #m : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

// Unmerge: product of sizes is the lower bound.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 4 + d1)>
    by [<Unmerge{4, 4} ["a", "b"] at [0, 1] -> ["r"] at [0]>]
    bounds = [4, 4] -> [20]>
func.func @f(%x: memref<20xf32>) {
  // expected-error @+1 {{transform 0 (Unmerge): product of params (16) must equal the lower bound (20)}}
  %y = rock.transform %x by #m : memref<20xf32> to memref<4x4xf32>
  return
}

// -----

// PassThrough keeps sizes.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 8] -> [8, 4]>
func.func @f(%x: memref<8x4xf32>) {
  // expected-error @+1 {{transform 0 (PassThrough): upper bound (4) must equal lower bound (8)}}
  %y = rock.transform %x by #m : memref<8x4xf32> to memref<4x8xf32>
  return
}

// -----

// AddDim: size is the upper bound.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d1)>
    by [<AddDim{3} ["e"] at [0] -> [] at []>,
        <PassThrough ["a"] at [1] -> ["a"] at [0]>]
    bounds = [4, 4] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (AddDim): size param (3) must equal the upper bound (4)}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<4x4xf32>
  return
}

// -----

// Broadcast params are positive.
#m = #rock.transform_map<affine_map<(d0) -> (0)>
    by [<Broadcast{0} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [1]>
func.func @f(%x: memref<1xf32>) {
  // expected-error @+1 {{transform 0 (Broadcast): param 0 (0) must be positive}}
  %y = rock.transform %x by #m : memref<1xf32> to memref<4xf32>
  return
}

// -----

// Broadcast: param is the lower bound.
#m = #rock.transform_map<affine_map<(d0) -> (d0 mod 2)>
    by [<Broadcast{2} ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [1]>
func.func @f(%x: memref<1xf32>) {
  // expected-error @+1 {{transform 0 (Broadcast): param 0 (2) must equal the lower bound (1)}}
  %y = rock.transform %x by #m : memref<1xf32> to memref<4xf32>
  return
}

// -----

// ConstDim: length is the lower bound.
#m = #rock.transform_map<affine_map<(d0) -> (d0, 0)>
    by [<PassThrough ["a"] at [0] -> ["a"] at [0]>,
        <ConstDim{0, 3} [] at [] -> ["b"] at [1]>]
    bounds = [4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 1 (ConstDim): length (3) must equal the lower bound (4)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

// ConstDim: value in [0, length).
#m = #rock.transform_map<affine_map<(d0) -> (d0, 4)>
    by [<PassThrough ["a"] at [0] -> ["a"] at [0]>,
        <ConstDim{4, 4} [] at [] -> ["b"] at [1]>]
    bounds = [4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 1 (ConstDim): value (4) must be in [0, 4)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

// Upper dims are in range.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 2] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (PassThrough): upper dim 2 is out of range [0, 2)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Lower dims are in range.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [-1, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (PassThrough): lower dim -1 is out of range [0, 2)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Every upper dim is read by a transform (never here; several may read one,
// see transform-syntax.mlir).
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0)>
    by [<PassThrough ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4, 4] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{upper dim 1 is referenced 0 times by the transforms (must be at least once)}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<4x4xf32>
  return
}

// -----

// Every lower dim is referenced exactly once (twice here).
#m = #rock.transform_map<affine_map<(d0, d1) -> (d1, 0)>
    by [<PassThrough ["a"] at [0] -> ["a"] at [0]>,
        <PassThrough ["b"] at [1] -> ["b"] at [0]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{lower dim 0 is referenced 2 times by the transforms (must be exactly once)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Every lower dim is referenced exactly once (never here).
#m = #rock.transform_map<affine_map<(d0) -> (d0, 0)>
    by [<PassThrough ["a"] at [0] -> ["a"] at [0]>]
    bounds = [4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{lower dim 1 is referenced 0 times by the transforms (must be exactly once)}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

// The stored map is the derived one.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>]
    bounds = [8, 4] -> [4, 8]>
func.func @f(%x: memref<4x8xf32>) {
  // expected-error @+1 {{transform_map affine map does not match its transforms}}
  %y = rock.transform %x by #m : memref<4x8xf32> to memref<8x4xf32>
  return
}

// -----

// The stored map has one input per upper bound (upstream's rule and words).
#m = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{Affine map has 3 inputs but there are 2 input dimensions}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// ... and one result per lower bound.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1, d0)>
    by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>]
    bounds = [4, 4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{Affine map has 3 outputs but there are 2 output dimensions}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// Every transform but ConstDim reads an upper dim (upstream's rule and words).
#m = #rock.transform_map<affine_map<(d0) -> (0, d0)>
    by [<Embed{} [] at [] -> ["a"] at [0]>,
        <PassThrough ["b"] at [0] -> ["b"] at [1]>]
    bounds = [4] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform 0 (Embed): The transformation must have at least one input}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

// Every transform but AddDim writes a lower dim.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d1)>
    by [<Merge{} ["a"] at [0] -> [] at []>,
        <PassThrough ["b"] at [1] -> ["b"] at [0]>]
    bounds = [1, 4] -> [4]>
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{transform 0 (Merge): The transformation must define outputs}}
  %y = rock.transform %x by #m : memref<4xf32> to memref<1x4xf32>
  return
}

// -----

// Merge's map uses floordiv/mod.
#m = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 4, d0 floordiv 4)>
    by [<Merge{4, 4} ["m"] at [0] -> ["a", "b"] at [0, 1]>]
    bounds = [16] -> [4, 4]>
func.func @f(%x: memref<4x4xf32>) {
  // expected-error @+1 {{transform_map affine map does not match its transforms}}
  %y = rock.transform %x by #m : memref<4x4xf32> to memref<16xf32>
  return
}

// -----

// A large index space is compared at its corners and sampled points: the map
// below is off by one only where d1 = 1023.
#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 1024 + d1 - d1 floordiv 1023)>
    by [<Unmerge{1024, 1024} ["a", "b"] at [0, 1] -> ["r"] at [0]>]
    bounds = [1024, 1024] -> [1048576]>
func.func @f(%x: memref<1048576xf32>) {
  // expected-error @+1 {{transform_map affine map does not match its transforms}}
  %y = rock.transform %x by #m : memref<1048576xf32> to memref<1024x1024xf32>
  return
}

// -----

// A transform list holds #rock.transform entries only.
func.func @f(%x: memref<4xf32>) {
  // expected-error @+1 {{expected a #rock.transform entry in the transform list}}
  %y = rock.transform %x by #rock.transform_map<affine_map<(d0) -> (d0)> by [#rock<StoreMethod set>] bounds = [4] -> [4]> : memref<4xf32> to memref<4xf32>
  return
}
