// rock.transform parses its map spelled out in full before `: A to B`
// (MLIR's attribute parser takes `: A` as the attribute's type; rock.transform
// rebuilds A from the map's lower bounds), as an alias, and stripped.
// RUN: rock-opt %s --split-input-file | FileCheck %s
// RUN: echo 'func.func @f(%%x: memref<8xf32>) { %%a = rock.transform %%x by #rock<StoreMethod set> : memref<8xf32> to memref<8xf32> return }' | not rock-opt 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: custom op 'rock.transform' expected a #rock.transform_map
// RUN: rock-opt %s --split-input-file --mlir-print-op-generic | rock-opt --split-input-file | FileCheck %s

// CHECK: #[[$TM:.*]] = #rock.transform_map<#{{.*}} by [<Unmerge{1, 128, 64} ["g", "m", "k"] at [0, 1, 2] -> ["raw"] at [0]>] bounds = [1, 128, 64] -> [8192]>
// CHECK-LABEL: func @full
// CHECK: rock.transform %{{.*}} by #[[$TM]] : memref<8192xf32> to memref<1x128x64xf32>
func.func @full(%raw: memref<8192xf32>) -> memref<1x128x64xf32> {
  %t = rock.transform %raw by #rock.transform_map<affine_map<(d0, d1, d2) -> ((d0 * 128 + d1) * 64 + d2)> by [<Unmerge{1, 128, 64} ["g", "m", "k"] at [0, 1, 2] -> ["raw"] at [0]>] bounds = [1, 128, 64] -> [8192]> : memref<8192xf32> to memref<1x128x64xf32>
  return %t : memref<1x128x64xf32>
}

// -----

#tm = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] bounds = [4, 8] -> [8, 4]>
// CHECK-LABEL: func @alias_and_stripped
// CHECK: rock.transform %{{.*}} by #{{.*}} : memref<8x4xf16> to memref<4x8xf16>
// CHECK: rock.transform %{{.*}} by #{{.*}} : memref<8x4xf16> to memref<4x8xf16>
func.func @alias_and_stripped(%x: memref<8x4xf16>) {
  %a = rock.transform %x by #tm : memref<8x4xf16> to memref<4x8xf16>
  %b = rock.transform %x by <affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>] bounds = [4, 8] -> [8, 4]> : memref<8x4xf16> to memref<4x8xf16>
  return
}

// -----

// List entries spelled as full #rock.transform attributes (as upstream
// prints them) parse to the same map, mixed with the short form.
// CHECK-LABEL: func @qualified_entries
// CHECK: rock.transform %{{.*}} by #{{.*}} : memref<8x4xf16> to memref<4x2x4xf16>
#tq = #rock.transform_map<affine_map<(d0, d1, d2) -> (d1 * 4 + d2, d0)>
    by [#rock.transform<PassThrough ["a"] at [0] -> ["a"] at [1]>,
        <Unmerge{2, 4} ["b", "c"] at [1, 2] -> ["bc"] at [0]>]
    bounds = [4, 2, 4] -> [8, 4]>
func.func @qualified_entries(%x: memref<8x4xf16>) -> memref<4x2x4xf16> {
  %a = rock.transform %x by #tq : memref<8x4xf16> to memref<4x2x4xf16>
  return %a : memref<4x2x4xf16>
}

// -----

// An upper dim read by two transforms, as rocMLIR's LDS views (a
// PassThrough and an Embed over the same dim: lower (k, k + m)); vector
// elements and a memory space are kept.
// CHECK-LABEL: func @shared_upper_dim
// CHECK: rock.transform %{{.*}} by #{{.*}} : memref<8x16xvector<8xf16>, #gpu.address_space<workgroup>> to memref<8x8xvector<8xf16>, #gpu.address_space<workgroup>>
#ts = #rock.transform_map<affine_map<(d0, d1) -> (d0, d0 + d1)>
    by [<PassThrough ["k"] at [0] -> ["k"] at [0]>,
        <Embed{1, 1} ["k", "m"] at [0, 1] -> ["m"] at [1]>]
    bounds = [8, 8] -> [8, 16]>
func.func @shared_upper_dim(%x: memref<8x16xvector<8xf16>, #gpu.address_space<workgroup>>) {
  %a = rock.transform %x by #ts : memref<8x16xvector<8xf16>, #gpu.address_space<workgroup>> to memref<8x8xvector<8xf16>, #gpu.address_space<workgroup>>
  return
}
