// RUN: rock-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(rock-lower-combine)' | FileCheck %s

// f16 partials, S = 2, with the final LSE: every row (b, i) reads the two
// partial LSEs, takes their max, weighs each split by exp(lse_s - M) unless
// its LSE is -inf (then the split is not read at all), divides in f32 and
// rounds once to f16. M = -inf gives O = 0 and LSE = -inf.
// CHECK-LABEL: func.func @f16_lse
// CHECK-SAME: (%[[PO:.*]]: memref<4x8x16xf16>, %[[PL:.*]]: memref<4x8xf32>, %[[O:.*]]: memref<2x8x16xf16>, %[[L:.*]]: memref<2x8xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[CB:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[CSQ:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[CDV:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[SKIP:.*]] = arith.constant -1.000000e+00 : f32
// The splits are loops, not unrolled: the IR does not grow with S.
// CHECK: scf.parallel (%[[B:.*]], %[[I:.*]]) = (%[[C0]], %[[C0]]) to (%{{.*}}, %[[CSQ]]) step (%[[C1]], %[[C1]])
// CHECK-NEXT: %[[R0:.*]] = arith.muli %[[B]], %[[CS:.*]] : index
// CHECK-NEXT: %[[M:.*]] = scf.for %[[S:.*]] = %[[C0]] to %[[CS]] step %[[C1]] iter_args(%[[MA:.*]] = %[[NINF]]) -> (f32) {
// CHECK-NEXT:   %[[R:.*]] = arith.addi %[[R0]], %[[S]] : index
// CHECK-NEXT:   %[[X:.*]] = rock.view_load %[[PL]][%[[R]], %[[I]]] : memref<4x8xf32> -> f32
// CHECK-NEXT:   %[[MX:.*]] = arith.maximumf %[[MA]], %[[X]] : f32
// CHECK-NEXT:   scf.yield %[[MX]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpf oeq, %[[M]], %[[NINF]] : f32
// CHECK-NEXT: %[[MS:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[M]] : f32
// CHECK-NEXT: %[[W:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT: %[[LSUM:.*]] = scf.for %[[S:.*]] = %[[C0]] to %[[CS]] step %[[C1]] iter_args(%[[LA:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:   %[[R:.*]] = arith.addi %[[R0]], %[[S]] : index
// CHECK-NEXT:   %[[X:.*]] = rock.view_load %[[PL]][%[[R]], %[[I]]] : memref<4x8xf32> -> f32
// CHECK-NEXT:   %[[OK:.*]] = arith.cmpf une, %[[X]], %[[NINF]] : f32
// CHECK-NEXT:   %[[WS:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK-NEXT:     %[[D:.*]] = arith.subf %[[X]], %[[MS]] : f32
// CHECK-NEXT:     %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:     scf.yield %[[E]] : f32
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.yield %[[ZERO]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[TAG:.*]] = arith.select %[[OK]], %[[WS]], %[[SKIP]] : f32
// CHECK-NEXT:   memref.store %[[TAG]], %[[W]][%[[S]]] : memref<2xf32>
// CHECK-NEXT:   %[[N:.*]] = arith.addf %[[LA]], %[[WS]] : f32
// CHECK-NEXT:   scf.yield %[[N]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[DV:.*]] = %[[C0]] to %[[CDV]] step %[[C1]] {
// CHECK-NEXT:   %[[A:.*]] = scf.for %[[S:.*]] = %[[C0]] to %[[CS]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:     %[[WS:.*]] = memref.load %[[W]][%[[S]]] : memref<2xf32>
// A split tagged -1 (LSE -inf) is not read; NaN weights are (`uge`).
// CHECK-NEXT:     %[[OK:.*]] = arith.cmpf uge, %[[WS]], %[[ZERO]] : f32
// CHECK-NEXT:     %[[N:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK-NEXT:       %[[R:.*]] = arith.addi %[[R0]], %[[S]] : index
// CHECK-NEXT:       %[[P:.*]] = rock.view_load %[[PO]][%[[R]], %[[I]], %[[DV]]] : memref<4x8x16xf16> -> f16
// CHECK-NEXT:       %[[PF:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK-NEXT:       %[[T:.*]] = arith.mulf %[[WS]], %[[PF]] : f32
// CHECK-NEXT:       %[[SUM:.*]] = arith.addf %[[ACC]], %[[T]] : f32
// CHECK-NEXT:       scf.yield %[[SUM]] : f32
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %[[ACC]] : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield %[[N]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[Q:.*]] = arith.divf %[[A]], %[[LSUM]] : f32
// CHECK-NEXT:   %[[QS:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q]] : f32
// CHECK-NEXT:   %[[QE:.*]] = arith.truncf %[[QS]] : f32 to f16
// CHECK-NEXT:   rock.view_store %[[QE]], %[[O]][%[[B]], %[[I]], %[[DV]]] : f16, memref<2x8x16xf16>
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[W]] : memref<2xf32>
// CHECK-NEXT: %[[LN:.*]] = math.log %[[LSUM]] : f32
// CHECK-NEXT: %[[LSE:.*]] = arith.addf %[[M]], %[[LN]] : f32
// CHECK-NEXT: %[[LSES:.*]] = arith.select %[[EMPTY]], %[[NINF]], %[[LSE]] : f32
// CHECK-NEXT: rock.view_store %[[LSES]], %[[L]][%[[B]], %[[I]]] : f32, memref<2x8xf32>
// CHECK-NEXT: scf.reduce
// CHECK-NOT: rock.attention_combine
func.func @f16_lse(%po: memref<4x8x16xf16>, %pl: memref<4x8xf32>, %o: memref<2x8x16xf16>, %l: memref<2x8xf32>) {
  rock.attention_combine %po, %pl into %o, %l {splitKV = 2 : i32} : memref<4x8x16xf16>, memref<4x8xf32> -> memref<2x8x16xf16>, memref<2x8xf32>
  return
}

// -----

// oTransposed f32 partials, S = 3, no final LSE: partials are read at
// [b*S + s, d, i] and the result stored at [b, d, i]; no conversions.
// CHECK-LABEL: func.func @f32_transposed
// CHECK-SAME: (%[[PO:.*]]: memref<3x16x8xf32>, %[[PL:.*]]: memref<3x8xf32>, %[[O:.*]]: memref<1x16x8xf32>)
// CHECK: scf.parallel (%[[B:.*]], %[[I:.*]]) =
// CHECK-COUNT-2: rock.view_load %[[PL]]
// CHECK-COUNT-1: math.exp
// CHECK: scf.for %[[DV:.*]] =
// CHECK-NOT: arith.extf
// CHECK: rock.view_load %[[PO]][%{{.*}}, %[[DV]], %[[I]]] : memref<3x16x8xf32> -> f32
// CHECK-NOT: rock.view_load
// CHECK: %[[Q:.*]] = arith.divf
// CHECK-NEXT: %[[QS:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : f32
// CHECK-NEXT: rock.view_store %[[QS]], %[[O]][%[[B]], %[[DV]], %[[I]]] : f32, memref<1x16x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: scf.reduce
// CHECK-NOT: math.log
func.func @f32_transposed(%po: memref<3x16x8xf32>, %pl: memref<3x8xf32>, %o: memref<1x16x8xf32>) {
  rock.attention_combine %po, %pl into %o {splitKV = 3 : i32, oTransposed} : memref<3x16x8xf32>, memref<3x8xf32> -> memref<1x16x8xf32>
  return
}

// -----

// bf16, S = 1: still guarded (a fully masked row has LSE -inf).
// CHECK-LABEL: func.func @bf16_single
// CHECK: arith.cmpf oeq
// CHECK: scf.if
// CHECK: math.exp
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.divf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: math.log
func.func @bf16_single(%po: memref<2x4x8xbf16>, %pl: memref<2x4xf32>, %o: memref<2x4x8xbf16>, %l: memref<2x4xf32>) {
  rock.attention_combine %po, %pl into %o, %l {splitKV = 1 : i32} : memref<2x4x8xbf16>, memref<2x4xf32> -> memref<2x4x8xbf16>, memref<2x4xf32>
  return
}
