// RUN: rock-opt -split-input-file %s | FileCheck %s
// Follows the newer rocMLIR spelling of rock.attention's KV-cache clauses,
// as mlir/test/rocmlir-gen/attention-sliding-window.mlir (its
// -last_valid_kv_index / -sliding_window_look_back version) checks them:
// `lastValidKVIndex = (%x : T)` and `slidingWindowLookBack = N`, in the
// clause or the attribute-dictionary form. They name what rock's
// currentSeqLen (the inclusive index of the last valid key) and
// slidingWindowSize (keys [P - L, P]) already are (docs/semantics.md), so
// rock reads them as those and prints its own names.

// CHECK-LABEL: func.func @clause_form
// CHECK: currentSeqLen = (%{{.*}} : memref<1xi32>)
// CHECK-NEXT: slidingWindowSize = 16
// CHECK-NOT: slidingWindowLookBack
func.func @clause_form(%q: memref<1x1x32xf32>, %k: memref<1x32x64xf32>, %v: memref<1x64x32xf32>, %c: memref<1xi32>, %o: memref<1x1x32xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x1x32xf32>, memref<1x32x64xf32>
    lastValidKVIndex = (%c : memref<1xi32>)
    slidingWindowLookBack = 16
    %o = softmax(qk) * %v : memref<1x64x32xf32> -> memref<1x1x32xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// CHECK-LABEL: func.func @dictionary_form
// CHECK: currentSeqLen = (%{{.*}} : memref<1xi32>)
// CHECK-NEXT: slidingWindowSize = 8
// CHECK-NOT: slidingWindowLookBack
func.func @dictionary_form(%q: memref<1x1x32xf32>, %k: memref<1x32x64xf32>, %v: memref<1x64x32xf32>, %c: memref<1xi32>, %o: memref<1x1x32xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x1x32xf32>, memref<1x32x64xf32>
    lastValidKVIndex = (%c : memref<1xi32>)
    %o = softmax(qk) * %v : memref<1x64x32xf32> -> memref<1x1x32xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, slidingWindowLookBack = 8 : i32}
  return
}
