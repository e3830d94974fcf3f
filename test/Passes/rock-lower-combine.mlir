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
// CHECK: scf.parallel (%[[B:.*]], %[[I:.*]]) = (%[[C0]], %[[C0]]) to (%{{.*}}, %[[CSQ]]) step (%[[C1]], %[[C1]])
// CHECK-NEXT: %[[R0:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK-NEXT: %[[X0:.*]] = rock.view_load %[[PL]][%[[R0]], %[[I]]] : memref<4x8xf32> -> f32
// CHECK-NEXT: %[[M0:.*]] = arith.maximumf %[[NINF]], %[[X0]] : f32
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[R0]], %{{.*}} : index
// CHECK-NEXT: %[[X1:.*]] = rock.view_load %[[PL]][%[[R1]], %[[I]]] : memref<4x8xf32> -> f32
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[M0]], %[[X1]] : f32
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpf oeq, %[[M]], %[[NINF]] : f32
// CHECK-NEXT: %[[MS:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[M]] : f32
// CHECK-NEXT: %[[OK0:.*]] = arith.cmpf une, %[[X0]], %[[NINF]] : f32
// CHECK-NEXT: %[[W0:.*]] = scf.if %[[OK0]] -> (f32) {
// CHECK-NEXT:   %[[D:.*]] = arith.subf %[[X0]], %[[MS]] : f32
// CHECK-NEXT:   %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:   scf.yield %[[E]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[ZERO]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[L0:.*]] = arith.addf %[[ZERO]], %[[W0]] : f32
// CHECK-NEXT: %[[OK1:.*]] = arith.cmpf une, %[[X1]], %[[NINF]] : f32
// CHECK-NEXT: %[[W1:.*]] = scf.if %[[OK1]] -> (f32) {
// CHECK-NEXT:   %[[D:.*]] = arith.subf %[[X1]], %[[MS]] : f32
// CHECK-NEXT:   %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:   scf.yield %[[E]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[ZERO]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[LSUM:.*]] = arith.addf %[[L0]], %[[W1]] : f32
// CHECK-NEXT: scf.for %[[DV:.*]] = %[[C0]] to %[[CDV]] step %[[C1]] {
// CHECK-NEXT:   %[[A0:.*]] = scf.if %[[OK0]] -> (f32) {
// CHECK-NEXT:     %[[P:.*]] = rock.view_load %[[PO]][%[[R0]], %[[I]], %[[DV]]] : memref<4x8x16xf16> -> f16
// CHECK-NEXT:     %[[PF:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK-NEXT:     %[[T:.*]] = arith.mulf %[[W0]], %[[PF]] : f32
// CHECK-NEXT:     %[[N:.*]] = arith.addf %[[ZERO]], %[[T]] : f32
// CHECK-NEXT:     scf.yield %[[N]] : f32
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.yield %[[ZERO]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[A1:.*]] = scf.if %[[OK1]] -> (f32) {
// CHECK-NEXT:     %[[P:.*]] = rock.view_load %[[PO]][%[[R1]], %[[I]], %[[DV]]] : memref<4x8x16xf16> -> f16
// CHECK-NEXT:     %[[PF:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK-NEXT:     %[[T:.*]] = arith.mulf %[[W1]], %[[PF]] : f32
// CHECK-NEXT:     %[[N:.*]] = arith.addf %[[A0]], %[[T]] : f32
// CHECK-NEXT:     scf.yield %[[N]] : f32
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.yield %[[A0]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[Q:.*]] = arith.divf %[[A1]], %[[LSUM]] : f32
// CHECK-NEXT:   %[[QS:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q]] : f32
// CHECK-NEXT:   %[[QE:.*]] = arith.truncf %[[QS]] : f32 to f16
// CHECK-NEXT:   rock.view_store %[[QE]], %[[O]][%[[B]], %[[I]], %[[DV]]] : f16, memref<2x8x16xf16>
// CHECK-NEXT: }
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
// CHECK-COUNT-3: rock.view_load %[[PL]]
// CHECK-COUNT-3: math.exp
// CHECK: scf.for %[[DV:.*]] =
// CHECK-NOT: arith.extf
// CHECK: rock.view_load %[[PO]][%{{.*}}, %[[DV]], %[[I]]] : memref<3x16x8xf32> -> f32
// CHECK: rock.view_load %[[PO]][%{{.*}}, %[[DV]], %[[I]]] : memref<3x16x8xf32> -> f32
// CHECK: rock.view_load %[[PO]][%{{.*}}, %[[DV]], %[[I]]] : memref<3x16x8xf32> -> f32
// CHECK: %[[Q:.*]] = arith.divf
// CHECK-NEXT: %[[QS:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : f32
// CHECK-NEXT: rock.view_store %[[QS]], %[[O]][%[[B]], %[[DV]], %[[I]]] : f32, memref<1x16x8xf32>
// CHECK-NEXT: }
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
