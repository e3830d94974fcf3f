// RUN: rock-opt %s -split-input-file -verify-diagnostics

// rock.deref (docs/dialect.md), rock.view_load and rock.view_store
// verifiers: one case per rule.

// Pointers are [batch, numBlocks, 1] or [numBlocks].
func.func @f(%p: memref<4x1xi64>) {
  // expected-error @+1 {{pointers must be rank 3 ([batch, numBlocks, 1]) or rank 1 ([numBlocks]) (got rank 2)}}
  %d = rock.deref %p : memref<4x1xi64> -> memref<4x16xf16>
  return
}

// -----

// Rank-3 pointers give a rank-3 result.
func.func @f(%p: memref<1x4x1xi64>) {
  // expected-error @+1 {{result must be rank 3 for rank-3 pointers (got rank 2)}}
  %d = rock.deref %p : memref<1x4x1xi64> -> memref<4x16xf16>
  return
}

// -----

// Rank-1 pointers give a rank-2 result.
func.func @f(%p: memref<4xi64>) {
  // expected-error @+1 {{result must be rank 2 for rank-1 pointers (got rank 3)}}
  %d = rock.deref %p : memref<4xi64> -> memref<1x4x16xf16>
  return
}

// -----

// Pointers are i64.
func.func @f(%p: memref<1x4x1xi32>) {
  // expected-error @+1 {{pointers element type must be i64 (got i32)}}
  %d = rock.deref %p : memref<1x4x1xi32> -> memref<1x4x16xf16>
  return
}

// -----

// The pointers' last dim is 1.
func.func @f(%p: memref<1x4x2xi64>) {
  // expected-error @+1 {{pointers last dim (2) must be 1}}
  %d = rock.deref %p : memref<1x4x2xi64> -> memref<1x4x16xf16>
  return
}

// -----

// Batch dims agree.
func.func @f(%p: memref<1x4x1xi64>) {
  // expected-error @+1 {{result batch dim (2) must equal pointers batch dim (1)}}
  %d = rock.deref %p : memref<1x4x1xi64> -> memref<2x4x16xf16>
  return
}

// -----

// numBlocks dims agree.
func.func @f(%p: memref<1x4x1xi64>) {
  // expected-error @+1 {{result numBlocks dim (8) must equal pointers numBlocks dim (4)}}
  %d = rock.deref %p : memref<1x4x1xi64> -> memref<1x8x16xf16>
  return
}

// -----

// numBlocks dims agree (flat page table).
func.func @f(%p: memref<4xi64>) {
  // expected-error @+1 {{result numBlocks dim (3) must equal pointers numBlocks dim (4)}}
  %d = rock.deref %p : memref<4xi64> -> memref<3x16xf16>
  return
}

// -----

// blockSize > 0.
func.func @f(%p: memref<1x4x1xi64>) {
  // expected-error @+1 {{result blockSize dim (0) must be positive}}
  %d = rock.deref %p : memref<1x4x1xi64> -> memref<1x4x0xf16>
  return
}

// -----

// Pages hold integers or floats.
func.func @f(%p: memref<1x4x1xi64>) {
  // expected-error @+1 {{result element type must be an integer or float (got index)}}
  %d = rock.deref %p : memref<1x4x1xi64> -> memref<1x4x16xindex>
  return
}

// -----

// A rock.deref result feeds rock.attention only as keyAddresses /
// valueAddresses, not as keys.
func.func @f(%q: memref<1x8x16xf16>, %p: memref<1x4x1xi64>, %v: memref<1x4x8xf16>, %out: memref<1x8x8xf16>) {
  // expected-error @+1 {{rock.deref result may only be consumed through rock.transform views or as rock.attention keyAddresses / valueAddresses}}
  %kd = rock.deref %p : memref<1x4x1xi64> -> memref<1x4x16xf16>
  rock.attention {
    qk = %q * tr %kd : memref<1x8x16xf16>, memref<1x4x16xf16>
    %out = softmax(qk) * %v : memref<1x4x8xf16> -> memref<1x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// The result is consumed only through rock.transform (here: a call).
func.func private @g(memref<4x16xf16>)
func.func @f(%p: memref<4xi64>) {
  // expected-error @+1 {{rock.deref result may only be consumed through rock.transform views}}
  %d = rock.deref %p : memref<4xi64> -> memref<4x16xf16>
  func.call @g(%d) : (memref<4x16xf16>) -> ()
  return
}

// -----

// The result is consumed only through rock.transform (here: a return).
func.func @f(%p: memref<4xi64>) -> memref<4x16xf16> {
  // expected-error @+1 {{rock.deref result may only be consumed through rock.transform views}}
  %d = rock.deref %p : memref<4xi64> -> memref<4x16xf16>
  return %d : memref<4x16xf16>
}

// -----

// view_load: one index per view dim.
func.func @f(%m: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{1 indices given for a rank-2 view (must be 2)}}
  %x = rock.view_load %m[%i] : memref<4x8xf16> -> f16
  return
}

// -----

// view_load: the scalar result has the view's element type.
func.func @f(%m: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{result element type (f32) must equal the view element type (f16)}}
  %x = rock.view_load %m[%i, %i] : memref<4x8xf16> -> f32
  return
}

// -----

// view_load: the vector result has the view's element type.
func.func @f(%m: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{result element type (bf16) must equal the view element type (f16)}}
  %x = rock.view_load %m[%i, %i] : memref<4x8xf16> -> vector<4xbf16>
  return
}

// -----

// view_load: vectors are rank 1.
func.func @f(%m: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{result vector must be rank 1 (got rank 2)}}
  %x = rock.view_load %m[%i, %i] : memref<4x8xf16> -> vector<2x4xf16>
  return
}

// -----

// view_load: vectors have a fixed length.
func.func @f(%m: memref<4x8xf16>, %i: index) {
  // expected-error @+1 {{result vector must have a fixed length}}
  %x = rock.view_load %m[%i, %i] : memref<4x8xf16> -> vector<[4]xf16>
  return
}

// -----

// view_store: one index per view dim.
func.func @f(%m: memref<4x8xf16>, %v: f16, %i: index) {
  // expected-error @+1 {{3 indices given for a rank-2 view (must be 2)}}
  rock.view_store %v, %m[%i, %i, %i] : f16, memref<4x8xf16>
  return
}

// -----

// view_store: the value has the view's element type.
func.func @f(%m: memref<4x8xf16>, %v: vector<4xf32>, %i: index) {
  // expected-error @+1 {{value element type (f32) must equal the view element type (f16)}}
  rock.view_store %v, %m[%i, %i] : vector<4xf32>, memref<4x8xf16>
  return
}

// -----

// view_store: vectors are rank 1.
func.func @f(%m: memref<4x8xf16>, %v: vector<2x2xf16>, %i: index) {
  // expected-error @+1 {{value vector must be rank 1 (got rank 2)}}
  rock.view_store %v, %m[%i, %i] : vector<2x2xf16>, memref<4x8xf16>
  return
}

// -----

// A vector load through a paged view: no 128-bit piece straddles a page,
// pageSize % min(vectorLength, 128 / elemBits) == 0.
#id = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
  by [<PassThrough ["p", "i"] at [0, 1] -> ["p", "i"] at [0, 1]>]
  bounds = [4, 12] -> [4, 12]>
func.func @f(%p: memref<4xi64>, %i: index) {
  %d = rock.deref %p : memref<4xi64> -> memref<4x12xf16>
  %t = rock.transform %d by #id : memref<4x12xf16> to memref<4x12xf16>
  // expected-error @+1 {{page size (12) of the rock.deref this view reads must be a multiple of 8 for a vector of 8 x f16}}
  %x = rock.view_load %t[%i, %i] : memref<4x12xf16> -> vector<8xf16>
  return
}

// -----

// The page rule holds through a longer chain (batched page table, K view).
#kpage = #rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 6 + d3)>
  by [<PassThrough ["g", "p"] at [0, 1] -> ["g", "p"] at [0, 1]>,
      <Unmerge{1, 6} ["sp", "d"] at [2, 3] -> ["off"] at [2]>]
  bounds = [1, 4, 1, 6] -> [1, 4, 6]>
#kseq = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>
  by [<PassThrough ["g"] at [0] -> ["g"] at [0]>,
      <Merge{4, 1} ["s"] at [1] -> ["p", "sp"] at [1, 2]>,
      <PassThrough ["d"] at [2] -> ["d"] at [3]>]
  bounds = [1, 4, 6] -> [1, 4, 1, 6]>
func.func @f(%p: memref<1x4x1xi64>, %i: index) {
  %d = rock.deref %p : memref<1x4x1xi64> -> memref<1x4x6xf32>
  %k0 = rock.transform %d by #kpage : memref<1x4x6xf32> to memref<1x4x1x6xf32>
  %k = rock.transform %k0 by #kseq : memref<1x4x1x6xf32> to memref<1x4x6xf32>
  // expected-error @+1 {{page size (6) of the rock.deref this view reads must be a multiple of 4 for a vector of 4 x f32}}
  %x = rock.view_load %k[%i, %i, %i] : memref<1x4x6xf32> -> vector<4xf32>
  return
}

// -----

// The page rule applies to vector stores as well.
#id = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)>
  by [<PassThrough ["p", "i"] at [0, 1] -> ["p", "i"] at [0, 1]>]
  bounds = [4, 12] -> [4, 12]>
func.func @f(%p: memref<4xi64>, %v: vector<8xi8>, %i: index) {
  %d = rock.deref %p : memref<4xi64> -> memref<4x12xi8>
  %t = rock.transform %d by #id : memref<4x12xi8> to memref<4x12xi8>
  // expected-error @+1 {{page size (12) of the rock.deref this view reads must be a multiple of 8 for a vector of 8 x i8}}
  rock.view_store %v, %t[%i, %i] : vector<8xi8>, memref<4x12xi8>
  return
}

// -----

// rock.view_prefetch: one index per view dim.
func.func @f(%m: memref<4x8xf32>, %i: index) {
  // expected-error @+1 {{1 indices given for a rank-2 view (must be 2)}}
  rock.view_prefetch %m[%i] : memref<4x8xf32>
  return
}

// -----

// rock.view_prefetch: locality is llvm.prefetch's, 0..3.
func.func @f(%m: memref<4x8xf32>, %i: index) {
  // expected-error @+1 {{locality must be in [0, 3] (got 4)}}
  rock.view_prefetch %m[%i, %i] {locality = 4 : i32} : memref<4x8xf32>
  return
}

// -----

func.func @f(%m: memref<4x8xf32>, %i: index) {
  // expected-error @+1 {{locality must be in [0, 3] (got -1)}}
  rock.view_prefetch %m[%i, %i] {locality = -1 : i32} : memref<4x8xf32>
  return
}

// -----

// rock.view_prefetch: lines, 1..64.
func.func @f(%m: memref<4x8xf32>, %i: index) {
  // expected-error @+1 {{lines must be in [1, 64] (got 0)}}
  rock.view_prefetch %m[%i, %i] {lines = 0 : i32} : memref<4x8xf32>
  return
}

// -----

func.func @f(%m: memref<4x8xf32>, %i: index) {
  // expected-error @+1 {{lines must be in [1, 64] (got 65)}}
  rock.view_prefetch %m[%i, %i] {lines = 65 : i32} : memref<4x8xf32>
  return
}
