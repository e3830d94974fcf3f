// RUN: rock-opt %s --rock-lower-views | FileCheck %s
// RUN: rock-opt %s --rock-lower-views | FileCheck %s --check-prefix=NOROCK

// rock-lower-views: one case per transform kind (docs/semantics.md §7),
// Pad validity, rock.deref page-pointer loads, rock-gen's paged K chain
// (docs/semantics.md §6) with and without the final transposition, and vector accesses.
// Every rock.view_*, rock.transform and rock.deref is gone afterwards.
// NOROCK-NOT: rock.

#pt = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)> by [<PassThrough ["i", "j"] at [0, 1] -> ["i", "j"] at [1, 0]>] bounds = [8, 4] -> [4, 8]>
#pad = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1 - 2)> by [<PassThrough ["i"] at [0] -> ["i"] at [0]>, <Pad{2, 6} ["j"] at [1] -> ["j"] at [1]>] bounds = [4, 16] -> [4, 8]>
#slice = #rock.transform_map<affine_map<(d0) -> (d0 + 3)> by [<Slice{3, 7} ["i"] at [0] -> ["i"] at [0]>] bounds = [4] -> [8]>
#embed = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 8 + d1 * 2)> by [<Embed{8, 2} ["a", "b"] at [0, 1] -> ["x"] at [0]>] bounds = [4, 4] -> [32]>
#unmerge = #rock.transform_map<affine_map<(d0, d1, d2) -> ((d0 * 4 + d1) * 8 + d2)> by [<Unmerge{2, 4, 8} ["a", "b", "c"] at [0, 1, 2] -> ["x"] at [0]>] bounds = [2, 4, 8] -> [64]>
#merge = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 32, (d0 floordiv 8) mod 4, d0 mod 8)> by [<Merge{2, 4, 8} ["x"] at [0] -> ["a", "b", "c"] at [0, 1, 2]>] bounds = [64] -> [2, 4, 8]>
#adddim = #rock.transform_map<affine_map<(d0, d1) -> (d1)> by [<AddDim{5} ["e"] at [0] -> [] at []>, <PassThrough ["i"] at [1] -> ["i"] at [0]>] bounds = [5, 8] -> [8]>
#bcast = #rock.transform_map<affine_map<(d0, d1) -> (0, d1 mod 4)> by [<Broadcast{1, 4} ["a", "b"] at [0, 1] -> ["a", "b"] at [0, 1]>] bounds = [6, 8] -> [1, 4]>
#const = #rock.transform_map<affine_map<(d0) -> (3, d0)> by [<ConstDim{3, 4} [] at [] -> ["c"] at [0]>, <PassThrough ["i"] at [0] -> ["i"] at [1]>] bounds = [8] -> [4, 8]>
#tbl = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0 * 8 + d1)> by [<Unmerge{2, 8} ["g", "p"] at [0, 1] -> ["gp"] at [0]>, <AddDim{1} ["one"] at [2] -> [] at []>] bounds = [2, 8, 1] -> [16]>
#pg = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1 floordiv 16, d1 mod 16)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Merge{8, 16} ["f"] at [1] -> ["p", "i"] at [1, 2]>] bounds = [2, 128] -> [2, 8, 16]>
#hd = #rock.transform_map<affine_map<(d0, d1, d2, d3) -> (d0, (d1 * 16 + d2) * 4 + d3)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <Unmerge{2, 16, 4} ["h", "s", "d"] at [1, 2, 3] -> ["f"] at [1]>] bounds = [2, 2, 16, 4] -> [2, 128]>
#bk = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0 floordiv 2, d0 mod 2, d1, d2)> by [<Merge{2, 2} ["b"] at [0] -> ["g", "h"] at [0, 1]>, <PassThrough ["s", "d"] at [1, 2] -> ["s", "d"] at [2, 3]>] bounds = [4, 16, 4] -> [2, 2, 16, 4]>
#tr = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["b", "d", "s"] at [0, 1, 2] -> ["b", "d", "s"] at [0, 2, 1]>] bounds = [4, 4, 16] -> [4, 16, 4]>
#id3 = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1, d2)> by [<PassThrough ["g", "p", "i"] at [0, 1, 2] -> ["g", "p", "i"] at [0, 1, 2]>] bounds = [2, 8, 16] -> [2, 8, 16]>
#id2 = #rock.transform_map<affine_map<(d0, d1) -> (d0, d1)> by [<PassThrough ["p", "i"] at [0, 1] -> ["p", "i"] at [0, 1]>] bounds = [8, 16] -> [8, 16]>
#mg = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 16, d0 mod 16)> by [<Merge{4, 16} ["f"] at [0] -> ["a", "b"] at [0, 1]>] bounds = [64] -> [4, 16]>
#pd = #rock.transform_map<affine_map<(d0) -> (d0 - 8)> by [<Pad{8, 8} ["f"] at [0] -> ["f"] at [0]>] bounds = [80] -> [64]>
#unmerge2 = #rock.transform_map<affine_map<(d0, d1) -> (d0 * 16 + d1)> by [<Unmerge{4, 16} ["a", "b"] at [0, 1] -> ["x"] at [0]>] bounds = [4, 16] -> [64]>
#bc = #rock.transform_map<affine_map<(d0, d1) -> (d0, 0)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>, <Broadcast{1} ["b"] at [1] -> ["b"] at [1]>] bounds = [4, 16] -> [4, 1]>
// CHECK-LABEL: func.func @pass_through
// CHECK-SAME: (%[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NEXT: %[[X:.*]] = memref.load %[[M]][%[[J]], %[[I]]] : memref<4x8xf32>
// CHECK-NEXT: return %[[X]]
func.func @pass_through(%m: memref<4x8xf32>, %i: index, %j: index) -> f32 {
  %v = rock.transform %m by #pt : memref<4x8xf32> to memref<8x4xf32>
  %x = rock.view_load %v[%i, %j] : memref<8x4xf32> -> f32
  return %x : f32
}

// Pad{2, 6} on j: valid iff 2 <= j < 10; invalid reads give padValue.
// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-DAG: %[[PAD:.*]] = arith.constant -1.500000e+00 : f32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG: %[[CM2:.*]] = arith.constant -2 : index
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[J]], %[[C2]] : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[J]], %[[C10]] : index
// CHECK: %[[L:.*]] = arith.addi %[[J]], %[[CM2]] : index
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[R:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK-NEXT: %[[X:.*]] = memref.load %[[M]][%[[I]], %[[L]]] : memref<4x8xf32>
// CHECK-NEXT: scf.yield %[[X]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[PAD]] : f32
// CHECK: return %[[R]]
func.func @pad(%m: memref<4x8xf32>, %i: index, %j: index) -> f32 {
  %v = rock.transform %m by #pad : memref<4x8xf32> to memref<4x16xf32>
  %x = rock.view_load %v[%i, %j] {padValue = -1.5 : f64} : memref<4x16xf32> -> f32
  return %x : f32
}

// Invalid writes are dropped.
// CHECK-LABEL: func.func @pad_store
// CHECK-SAME: (%[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[V:.*]]: f32)
// CHECK: %[[OK:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: memref.store %[[V]], %[[M]][%[[I]], %{{.*}}] : memref<4x8xf32>
// CHECK-NEXT: }
func.func @pad_store(%m: memref<4x8xf32>, %i: index, %j: index, %x: f32) {
  %v = rock.transform %m by #pad : memref<4x8xf32> to memref<4x16xf32>
  rock.view_store %x, %v[%i, %j] : f32, memref<4x16xf32>
  return
}

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[M:.*]]: memref<8xi8>, %[[I:.*]]: index)
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[L:.*]] = arith.addi %[[I]], %[[C3]] : index
// CHECK: memref.load %[[M]][%[[L]]] : memref<8xi8>
func.func @slice(%m: memref<8xi8>, %i: index) -> i8 {
  %v = rock.transform %m by #slice : memref<8xi8> to memref<4xi8>
  %x = rock.view_load %v[%i] : memref<4xi8> -> i8
  return %x : i8
}

// CHECK-LABEL: func.func @embed
// CHECK-SAME: (%[[M:.*]]: memref<32xf32>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[T0:.*]] = arith.muli %[[A]], %[[C8]] : index
// CHECK: %[[T1:.*]] = arith.muli %[[B]], %[[C2]] : index
// CHECK: %[[L:.*]] = arith.addi %[[T0]], %[[T1]] : index
// CHECK: memref.load %[[M]][%[[L]]] : memref<32xf32>
func.func @embed(%m: memref<32xf32>, %a: index, %b: index) -> f32 {
  %v = rock.transform %m by #embed : memref<32xf32> to memref<4x4xf32>
  %x = rock.view_load %v[%a, %b] : memref<4x4xf32> -> f32
  return %x : f32
}

// Row-major, Horner form: (a*4 + b)*8 + c.
// CHECK-LABEL: func.func @unmerge
// CHECK-SAME: (%[[M:.*]]: memref<64xbf16>, %[[A:.*]]: index, %[[B:.*]]: index, %[[C:.*]]: index)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[T0:.*]] = arith.muli %[[A]], %[[C4]] : index
// CHECK: %[[T1:.*]] = arith.addi %[[T0]], %[[B]] : index
// CHECK: %[[T2:.*]] = arith.muli %[[T1]], %[[C8]] : index
// CHECK: %[[L:.*]] = arith.addi %[[T2]], %[[C]] : index
// CHECK: memref.load %[[M]][%[[L]]] : memref<64xbf16>
func.func @unmerge(%m: memref<64xbf16>, %a: index, %b: index, %c: index) -> bf16 {
  %v = rock.transform %m by #unmerge : memref<64xbf16> to memref<2x4x8xbf16>
  %x = rock.view_load %v[%a, %b, %c] : memref<2x4x8xbf16> -> bf16
  return %x : bf16
}

// Mixed-radix digits: (x / 32, (x / 8) mod 4, x mod 8).
// CHECK-LABEL: func.func @merge
// CHECK-SAME: (%[[M:.*]]: memref<2x4x8xf32>, %[[X:.*]]: index)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[D2:.*]] = arith.remui %[[X]], %[[C8]] : index
// CHECK: %[[Q:.*]] = arith.divui %[[X]], %[[C8]] : index
// CHECK: %[[D1:.*]] = arith.remui %[[Q]], %[[C4]] : index
// CHECK: %[[D0:.*]] = arith.divui %[[X]], %[[C32]] : index
// CHECK: memref.load %[[M]][%[[D0]], %[[D1]], %[[D2]]] : memref<2x4x8xf32>
func.func @merge(%m: memref<2x4x8xf32>, %x: index) -> f32 {
  %v = rock.transform %m by #merge : memref<2x4x8xf32> to memref<64xf32>
  %r = rock.view_load %v[%x] : memref<64xf32> -> f32
  return %r : f32
}

// CHECK-LABEL: func.func @add_dim
// CHECK-SAME: (%[[M:.*]]: memref<8xf32>, %[[E:.*]]: index, %[[I:.*]]: index)
// CHECK-NEXT: memref.load %[[M]][%[[I]]] : memref<8xf32>
func.func @add_dim(%m: memref<8xf32>, %e: index, %i: index) -> f32 {
  %v = rock.transform %m by #adddim : memref<8xf32> to memref<5x8xf32>
  %x = rock.view_load %v[%e, %i] : memref<5x8xf32> -> f32
  return %x : f32
}

// Broadcast{1, 4}: a length-1 lower dim is the constant 0, else u mod 4.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[M:.*]]: memref<1x4xf32>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[L:.*]] = arith.remui %[[B]], %[[C4]] : index
// CHECK: memref.load %[[M]][%[[C0]], %[[L]]] : memref<1x4xf32>
func.func @broadcast(%m: memref<1x4xf32>, %a: index, %b: index) -> f32 {
  %v = rock.transform %m by #bcast : memref<1x4xf32> to memref<6x8xf32>
  %x = rock.view_load %v[%a, %b] : memref<6x8xf32> -> f32
  return %x : f32
}

// CHECK-LABEL: func.func @const_dim
// CHECK-SAME: (%[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index)
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: memref.load %[[M]][%[[C3]], %[[I]]] : memref<4x8xf32>
func.func @const_dim(%m: memref<4x8xf32>, %i: index) -> f32 {
  %v = rock.transform %m by #const : memref<4x8xf32> to memref<8xf32>
  %x = rock.view_load %v[%i] : memref<8xf32> -> f32
  return %x : f32
}

// A deref: load the i64 page pointer at [g, p, 0], then the element at
// offset i of that page.
// CHECK-LABEL: func.func @deref_scalar
// CHECK-SAME: (%[[T:.*]]: memref<2x8x1xi64>, %[[G:.*]]: index, %[[P:.*]]: index, %[[I:.*]]: index)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[OFF:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[PV:.*]] = memref.load %[[T]][%[[G]], %[[P]], %[[C0]]] : memref<2x8x1xi64>
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[PV]] : i64 to !llvm.ptr
// CHECK: %[[EP:.*]] = llvm.getelementptr %[[PTR]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f16
// CHECK: %[[X:.*]] = llvm.load %[[EP]] {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK: return %[[X]]
func.func @deref_scalar(%t: memref<2x8x1xi64>, %g: index, %p: index, %i: index) -> f16 {
  %d = rock.deref %t : memref<2x8x1xi64> -> memref<2x8x16xf16>
  %v = rock.transform %d by #id3 : memref<2x8x16xf16> to memref<2x8x16xf16>
  %x = rock.view_load %v[%g, %p, %i] : memref<2x8x16xf16> -> f16
  return %x : f16
}

// A rank-1 page table [numPages]; a store through the page pointer.
// CHECK-LABEL: func.func @deref_store
// CHECK-SAME: (%[[T:.*]]: memref<8xi64>, %[[P:.*]]: index, %[[I:.*]]: index, %[[V:.*]]: f32)
// CHECK: %[[OFF:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[PV:.*]] = memref.load %[[T]][%[[P]]] : memref<8xi64>
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[PV]] : i64 to !llvm.ptr
// CHECK: %[[EP:.*]] = llvm.getelementptr %[[PTR]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.store %[[V]], %[[EP]] {alignment = 4 : i64} : f32, !llvm.ptr
func.func @deref_store(%t: memref<8xi64>, %p: index, %i: index, %x: f32) {
  %d = rock.deref %t : memref<8xi64> -> memref<8x16xf32>
  %v = rock.transform %d by #id2 : memref<8x16xf32> to memref<8x16xf32>
  rock.view_store %x, %v[%p, %i] : f32, memref<8x16xf32>
  return
}

// rock-gen's paged K chain (docs/semantics.md §6), G=2, P=8, ps=16, Hkv=2, Sk=16, D=4:
// [G*P] -> [G,P,1] -> deref -> [G,P,ps] -> Merge{P,ps} -> [G,P*ps]
// -> Unmerge{Hkv,Sk,D} -> [G,Hkv,Sk,D] -> Merge{G,Hkv} -> [Bkv,Sk,D].
// Element (b, s, d): g = b/2, h = b%2, f = (h*16 + s)*4 + d, page f/16 of
// batch g (table entry g*8 + f/16), offset f%16.
// CHECK-LABEL: func.func @paged_chain
// CHECK-SAME: (%[[T:.*]]: memref<16xi64>, %[[B:.*]]: index, %[[S:.*]]: index, %[[D:.*]]: index)
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[H:.*]] = arith.remui %[[B]], %[[C2]] : index
// CHECK: %[[G:.*]] = arith.divui %[[B]], %[[C2]] : index
// CHECK: %[[T0:.*]] = arith.muli %[[H]], %[[C16]] : index
// CHECK: %[[T1:.*]] = arith.addi %[[T0]], %[[S]] : index
// CHECK: %[[T2:.*]] = arith.muli %[[T1]], %[[C4]] : index
// CHECK: %[[F:.*]] = arith.addi %[[T2]], %[[D]] : index
// CHECK: %[[IN:.*]] = arith.remui %[[F]], %[[C16]] : index
// CHECK: %[[PG:.*]] = arith.divui %[[F]], %[[C16]] : index
// CHECK: %[[T3:.*]] = arith.muli %[[G]], %[[C8]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[T3]], %[[PG]] : index
// CHECK: %[[OFF:.*]] = arith.index_cast %[[IN]] : index to i64
// CHECK: %[[PV:.*]] = memref.load %[[T]][%[[ROW]]] : memref<16xi64>
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[PV]] : i64 to !llvm.ptr
// CHECK: %[[EP:.*]] = llvm.getelementptr %[[PTR]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f16
// CHECK: llvm.load %[[EP]] {alignment = 2 : i64} : !llvm.ptr -> f16
func.func @paged_chain(%tbl: memref<16xi64>, %b: index, %s: index, %dd: index) -> f16 {
  %t = rock.transform %tbl by #tbl : memref<16xi64> to memref<2x8x1xi64>
  %d = rock.deref %t : memref<2x8x1xi64> -> memref<2x8x16xf16>
  %k0 = rock.transform %d by #pg : memref<2x8x16xf16> to memref<2x128xf16>
  %k1 = rock.transform %k0 by #hd : memref<2x128xf16> to memref<2x2x16x4xf16>
  %k = rock.transform %k1 by #bk : memref<2x2x16x4xf16> to memref<4x16x4xf16>
  %x = rock.view_load %k[%b, %s, %dd] : memref<4x16x4xf16> -> f16
  return %x : f16
}

// The same chain, transposed to [Bkv, D, Sk]: (b, d, s) reads f = (h*16 + s)*4 + d.
// CHECK-LABEL: func.func @paged_chain_transposed
// CHECK-SAME: (%[[T:.*]]: memref<16xi64>, %[[B:.*]]: index, %[[D:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[H:.*]] = arith.remui %[[B]], %{{.*}} : index
// CHECK: %[[G:.*]] = arith.divui %[[B]], %{{.*}} : index
// CHECK: %[[T0:.*]] = arith.muli %[[H]], %{{.*}} : index
// CHECK: %[[T1:.*]] = arith.addi %[[T0]], %[[S]] : index
// CHECK: %[[T2:.*]] = arith.muli %[[T1]], %{{.*}} : index
// CHECK: %[[F:.*]] = arith.addi %[[T2]], %[[D]] : index
// CHECK: arith.remui %[[F]]
// CHECK: arith.divui %[[F]]
// CHECK: memref.load %[[T]]
// CHECK: llvm.inttoptr
// CHECK: llvm.getelementptr
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> f16
func.func @paged_chain_transposed(%tbl: memref<16xi64>, %b: index, %dd: index, %s: index) -> f16 {
  %t = rock.transform %tbl by #tbl : memref<16xi64> to memref<2x8x1xi64>
  %d = rock.deref %t : memref<2x8x1xi64> -> memref<2x8x16xf16>
  %k0 = rock.transform %d by #pg : memref<2x8x16xf16> to memref<2x128xf16>
  %k1 = rock.transform %k0 by #hd : memref<2x128xf16> to memref<2x2x16x4xf16>
  %k2 = rock.transform %k1 by #bk : memref<2x2x16x4xf16> to memref<4x16x4xf16>
  %k = rock.transform %k2 by #tr : memref<4x16x4xf16> to memref<4x4x16xf16>
  %x = rock.view_load %k[%b, %dd, %s] : memref<4x4x16xf16> -> f16
  return %x : f16
}

// A whole head-dim row (d = 0..3) is provably inside one page (f is a
// multiple of 4 and 4 divides ps): page and offset are computed once and one
// vector is loaded.
// CHECK-LABEL: func.func @paged_chain_vector
// CHECK: arith.addi
// CHECK-NEXT: %[[F:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.remui %[[F]], %{{.*}} : index
// CHECK: %[[PG:.*]] = arith.divui %[[F]], %{{.*}} : index
// CHECK: %[[OFF:.*]] = arith.index_cast %[[IN]] : index to i64
// CHECK: %[[PV:.*]] = memref.load
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[PV]]
// CHECK: %[[EP:.*]] = llvm.getelementptr %[[PTR]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f16
// CHECK: %[[X:.*]] = llvm.load %[[EP]] {alignment = 2 : i64} : !llvm.ptr -> vector<4xf16>
// CHECK-NOT: llvm.load
// CHECK: return %[[X]]
func.func @paged_chain_vector(%tbl: memref<16xi64>, %b: index, %s: index) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  %t = rock.transform %tbl by #tbl : memref<16xi64> to memref<2x8x1xi64>
  %d = rock.deref %t : memref<2x8x1xi64> -> memref<2x8x16xf16>
  %k0 = rock.transform %d by #pg : memref<2x8x16xf16> to memref<2x128xf16>
  %k1 = rock.transform %k0 by #hd : memref<2x128xf16> to memref<2x2x16x4xf16>
  %k = rock.transform %k1 by #bk : memref<2x2x16x4xf16> to memref<4x16x4xf16>
  %x = rock.view_load %k[%b, %s, %c0] : memref<4x16x4xf16> -> vector<4xf16>
  return %x : vector<4xf16>
}

// Transposed, lanes step along Sk (stride D in memory): one page-pointer
// load per lane, joined with vector.from_elements.
// CHECK-LABEL: func.func @paged_chain_transposed_vector
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
func.func @paged_chain_transposed_vector(%tbl: memref<16xi64>, %b: index, %dd: index) -> vector<2xf16> {
  %c4 = arith.constant 4 : index
  %t = rock.transform %tbl by #tbl : memref<16xi64> to memref<2x8x1xi64>
  %d = rock.deref %t : memref<2x8x1xi64> -> memref<2x8x16xf16>
  %k0 = rock.transform %d by #pg : memref<2x8x16xf16> to memref<2x128xf16>
  %k1 = rock.transform %k0 by #hd : memref<2x128xf16> to memref<2x2x16x4xf16>
  %k2 = rock.transform %k1 by #bk : memref<2x2x16x4xf16> to memref<4x16x4xf16>
  %k = rock.transform %k2 by #tr : memref<4x16x4xf16> to memref<4x4x16xf16>
  %x = rock.view_load %k[%b, %dd, %c4] : memref<4x4x16xf16> -> vector<2xf16>
  return %x : vector<2xf16>
}

// The page offset %i is not provably even: the vector could straddle a page,
// so it is split into per-element loads.
// CHECK-LABEL: func.func @deref_vector_unaligned
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
func.func @deref_vector_unaligned(%t: memref<8xi64>, %p: index, %i: index) -> vector<2xf32> {
  %d = rock.deref %t : memref<8xi64> -> memref<8x16xf32>
  %v = rock.transform %d by #id2 : memref<8x16xf32> to memref<8x16xf32>
  %x = rock.view_load %v[%p, %i] : memref<8x16xf32> -> vector<2xf32>
  return %x : vector<2xf32>
}

// Vector accesses on a plain memref inside loops: the loop step proves the
// lanes contiguous, so the index math runs once per vector.
// CHECK-LABEL: func.func @vector_loop
// CHECK-SAME: (%[[M:.*]]: memref<64xf32>, %[[O:.*]]: memref<64xf32>)
// CHECK: scf.for %[[A:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[T0:.*]] = arith.muli %[[A]], %{{.*}} : index
// CHECK: %[[L:.*]] = arith.addi %[[T0]], %[[B]] : index
// CHECK: %[[X:.*]] = vector.load %[[M]][%[[L]]] : memref<64xf32>, vector<4xf32>
// CHECK: %[[T1:.*]] = arith.muli %[[A]], %{{.*}} : index
// CHECK: %[[L1:.*]] = arith.addi %[[T1]], %[[B]] : index
// CHECK: vector.store %[[X]], %[[O]][%[[L1]]] : memref<64xf32>, vector<4xf32>
func.func @vector_loop(%m: memref<64xf32>, %o: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %v = rock.transform %m by #unmerge2 : memref<64xf32> to memref<4x16xf32>
  %w = rock.transform %o by #unmerge2 : memref<64xf32> to memref<4x16xf32>
  scf.for %a = %c0 to %c4 step %c1 {
    scf.for %b = %c0 to %c16 step %c4 {
      %x = rock.view_load %v[%a, %b] : memref<4x16xf32> -> vector<4xf32>
      rock.view_store %x, %w[%a, %b] : vector<4xf32>, memref<4x16xf32>
    }
  }
  return
}

// Lanes along a broadcast dim all read one element.
// CHECK-LABEL: func.func @vector_splat
// CHECK: %[[X:.*]] = memref.load
// CHECK: vector.broadcast %[[X]] : f32 to vector<4xf32>
func.func @vector_splat(%m: memref<4x1xf32>, %a: index, %b: index) -> vector<4xf32> {
  %v = rock.transform %m by #bc : memref<4x1xf32> to memref<4x16xf32>
  %x = rock.view_load %v[%a, %b] : memref<4x16xf32> -> vector<4xf32>
  return %x : vector<4xf32>
}

// Pad + Merge with a 4-aligned index (i = 4n): the 4 lanes share one validity
// and one Merge digit, so one guarded vector load yields the padding vector
// (padValue -inf) when invalid; the store is guarded the same way.
// CHECK-LABEL: func.func @pad_vector_aligned
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK-DAG: %[[PADV:.*]] = vector.broadcast %[[NINF]] : f16 to vector<4xf16>
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: %[[R:.*]] = scf.if %[[OK]] -> (vector<4xf16>) {
// CHECK-NEXT: %[[X:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x16xf16>, vector<4xf16>
// CHECK-NEXT: scf.yield %[[X]] : vector<4xf16>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[PADV]] : vector<4xf16>
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: vector.store %[[R]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x16xf16>, vector<4xf16>
func.func @pad_vector_aligned(%m: memref<4x16xf16>, %n: index) -> vector<4xf16> {
  %c4 = arith.constant 4 : index
  %i = arith.muli %n, %c4 : index
  %v = rock.transform %m by #mg : memref<4x16xf16> to memref<64xf16>
  %p = rock.transform %v by #pd : memref<64xf16> to memref<80xf16>
  %x = rock.view_load %p[%i] {padValue = 0xFFF0000000000000 : f64} : memref<80xf16> -> vector<4xf16>
  rock.view_store %x, %p[%i] : vector<4xf16>, memref<80xf16>
  return %x : vector<4xf16>
}

// The same with an index of unknown alignment: lanes may cross the pad
// boundary or a Merge digit, so each lane gets its own index math and guard.
// CHECK-LABEL: func.func @pad_vector_unaligned
// CHECK-COUNT-4: scf.if %{{.*}} -> (f16)
// CHECK: vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf16>
func.func @pad_vector_unaligned(%m: memref<4x16xf16>, %i: index) -> vector<4xf16> {
  %v = rock.transform %m by #mg : memref<4x16xf16> to memref<64xf16>
  %p = rock.transform %v by #pd : memref<64xf16> to memref<80xf16>
  %x = rock.view_load %p[%i] {padValue = 0xFFF0000000000000 : f64} : memref<80xf16> -> vector<4xf16>
  return %x : vector<4xf16>
}

// rock.view_prefetch on a plain view: memref.prefetch with the locality.
// CHECK-LABEL: func.func @prefetch_dense
// CHECK-SAME: (%[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: memref.prefetch %[[M]][%[[I]], %[[J]]], read, locality<3>, data : memref<4x8xf32>
// CHECK-NOT: rock.
func.func @prefetch_dense(%m: memref<4x8xf32>, %i: index, %j: index) {
  rock.view_prefetch %m[%i, %j] {locality = 3 : i32} : memref<4x8xf32>
  return
}

// Through a Pad: an invalid coordinate prefetches nothing.
// CHECK-LABEL: func.func @prefetch_pad
// CHECK: %[[OK:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}], read, locality<2>, data : memref<4x8xf32>
// CHECK-NEXT: }
func.func @prefetch_pad(%m: memref<4x8xf32>, %i: index, %j: index) {
  %v = rock.transform %m by #pad : memref<4x8xf32> to memref<4x16xf32>
  rock.view_prefetch %v[%i, %j] : memref<4x16xf32>
  return
}

// Through a deref: the page pointer is read, the element's line prefetched.
// CHECK-LABEL: func.func @prefetch_deref
// CHECK-SAME: (%[[T:.*]]: memref<8xi64>, %[[P:.*]]: index, %[[I:.*]]: index)
// CHECK: %[[OFF:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[PV:.*]] = memref.load %[[T]][%[[P]]] : memref<8xi64>
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[PV]] : i64 to !llvm.ptr
// CHECK: %[[EP:.*]] = llvm.getelementptr %[[PTR]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
// CHECK: "llvm.intr.prefetch"(%[[EP]]) <{cache = 1 : i32, hint = 0 : i32, rw = 0 : i32}> : (!llvm.ptr) -> ()
// CHECK-NOT: llvm.load
func.func @prefetch_deref(%t: memref<8xi64>, %p: index, %i: index) {
  %d = rock.deref %t : memref<8xi64> -> memref<8x64xbf16>
  rock.view_prefetch %d[%p, %i] {locality = 0 : i32} : memref<8x64xbf16>
  return
}

// `lines`: a row's lines from one resolution where they provably stay in the
// page (one page pointer, prefetches 64 bytes apart); where not, one
// resolution per line.
// CHECK-LABEL: func.func @prefetch_deref_lines
// CHECK: %[[PV:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<8xi64>
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[PV]] : i64 to !llvm.ptr
// CHECK: %[[EP:.*]] = llvm.getelementptr %[[PTR]][%[[OFF:.*]]] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
// CHECK: "llvm.intr.prefetch"(%[[EP]])
// CHECK: %[[C32:.*]] = arith.constant 32 : i64
// CHECK: %[[O1:.*]] = arith.addi %[[OFF]], %[[C32]] : i64
// CHECK: %[[EP1:.*]] = llvm.getelementptr %[[PTR]][%[[O1]]] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
// CHECK: "llvm.intr.prefetch"(%[[EP1]])
// CHECK-NOT: memref.load
// CHECK-NOT: llvm.intr.prefetch
// CHECK: return
func.func @prefetch_deref_lines(%t: memref<8xi64>, %p: index) {
  %c0 = arith.constant 0 : index
  %d = rock.deref %t : memref<8xi64> -> memref<8x64xbf16>
  rock.view_prefetch %d[%p, %c0] {lines = 2 : i32} : memref<8x64xbf16>
  return
}

// CHECK-LABEL: func.func @prefetch_deref_lines_unproven
// CHECK: memref.load %{{.*}} : memref<8xi64>
// CHECK: "llvm.intr.prefetch"
// CHECK: memref.load %{{.*}} : memref<8xi64>
// CHECK: "llvm.intr.prefetch"
// CHECK-NOT: llvm.intr.prefetch
// CHECK: return
func.func @prefetch_deref_lines_unproven(%t: memref<8xi64>, %p: index,
    %i: index) {
  %d = rock.deref %t : memref<8xi64> -> memref<8x64xbf16>
  rock.view_prefetch %d[%p, %i] {lines = 2 : i32} : memref<8x64xbf16>
  return
}

// CHECK-LABEL: func.func @prefetch_dense_lines
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %c0{{.*}}], read, locality<2>, data : memref<4x64xf32>
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %c16], read, locality<2>, data : memref<4x64xf32>
// CHECK: memref.prefetch %{{.*}}[%{{.*}}, %c32], read, locality<2>, data : memref<4x64xf32>
// CHECK-NOT: memref.prefetch
func.func @prefetch_dense_lines(%m: memref<4x64xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  rock.view_prefetch %m[%i, %c0] {lines = 3 : i32} : memref<4x64xf32>
  return
}
