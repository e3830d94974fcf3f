// RUN: rock-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --rock-lower-views --split-input-file --verify-diagnostics

// rock-lower-views' own checks. The op verifiers reject most of these inputs
// already; parsing without them makes sure the pass itself never trusts a
// malformed chain (it runs the rock.transform verifier on every transform, so
// the messages are the verifier's).

#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 64 + d1)> by [<Unmerge{128, 64} ["m", "k"] at [0, 1] -> ["raw"] at [0]>] bounds = [128, 64] -> [8192]>
func.func @lower_bounds(%x: memref<4096xf32>, %i: index, %j: index) -> f32 {
  // expected-error @+1 {{transform_map lower bounds (8192) must equal the input shape (4096)}}
  %v = rock.transform %x by #m : memref<4096xf32> to memref<128x64xf32>
  %r = rock.view_load %v[%i, %j] : memref<128x64xf32> -> f32
  return %r : f32
}

// -----

#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 64 + d1)> by [<Unmerge{128, 64} ["m", "k"] at [0, 1] -> ["raw"] at [0]>] bounds = [128, 64] -> [8192]>
func.func @upper_bounds(%x: memref<8192xf32>, %i: index, %j: index) -> f32 {
  // expected-error @+1 {{transform_map upper bounds (128x64) must equal the result shape (64x128)}}
  %v = rock.transform %x by #m : memref<8192xf32> to memref<64x128xf32>
  %r = rock.view_load %v[%i, %j] : memref<64x128xf32> -> f32
  return %r : f32
}

// -----

#m = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 64 + d1)> by [<Unmerge{128, 64} ["m", "k"] at [0, 1] -> ["raw"] at [0]>] bounds = [128, 64] -> [8192]>
func.func @index_count(%x: memref<8192xf32>, %i: index) -> f32 {
  %v = rock.transform %x by #m : memref<8192xf32> to memref<128x64xf32>
  // expected-error @+1 {{rock.view_load expects 2 indices for a rank-2 view, got 1}}
  %r = rock.view_load %v[%i] : memref<128x64xf32> -> f32
  return %r : f32
}

// -----

func.func @store_index_count(%x: memref<4x8xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{rock.view_store expects 2 indices for a rank-2 view, got 3}}
  rock.view_store %v, %x[%i, %i, %i] : f32, memref<4x8xf32>
  return
}

// -----

func.func @deref_i32(%p: memref<2x4x1xi32>, %b: index, %q: index, %i: index) -> f16 {
  // expected-error @+1 {{rock.deref pointers must be i64, got i32}}
  %d = rock.deref %p : memref<2x4x1xi32> -> memref<2x4x16xf16>
  %r = rock.view_load %d[%b, %q, %i] : memref<2x4x16xf16> -> f16
  return %r : f16
}

// -----

func.func @unranked(%x: memref<*xf32>) -> f32 {
  // expected-error @+1 {{view chain must end in a ranked memref or rock.deref}}
  %r = "rock.view_load"(%x) : (memref<*xf32>) -> f32
  return %r : f32
}

// -----

func.func @paged_page_table(%p: memref<4xi64>, %q: index, %i: index) -> f32 {
  %t = rock.deref %p : memref<4xi64> -> memref<4x2xi64>
  // expected-error @+1 {{page table chain of rock.deref must end in a ranked memref}}
  %d = rock.deref %t : memref<4x2xi64> -> memref<4x2x16xf32>
  %r = rock.view_load %d[%q, %i, %i] : memref<4x2x16xf32> -> f32
  return %r : f32
}

// -----

func.func @value_type(%x: memref<4x8xf32>, %i: index) -> f16 {
  // expected-error @+1 {{rock.view_load value must be the view's element type or a 1-D vector of it}}
  %r = rock.view_load %x[%i, %i] : memref<4x8xf32> -> f16
  return %r : f16
}
