// RUN: rock-opt -split-input-file -verify-diagnostics %s
// Follows the newer rocMLIR spelling (attention-sliding-window.mlir's
// slidingWindowLookBack): the rules of rock's slidingWindowSize hold for it,
// and naming the attribute twice is an error, not one of them dropped.

func.func @both_names(%q: memref<1x1x32xf32>, %k: memref<1x32x64xf32>, %v: memref<1x64x32xf32>, %c: memref<1xi32>, %o: memref<1x1x32xf32>) {
  // expected-error @+5 {{slidingWindowLookBack and slidingWindowSize both given (the same attribute, rocMLIR's and rock's name)}}
  rock.attention {
    qk = %q * %k : memref<1x1x32xf32>, memref<1x32x64xf32>
    lastValidKVIndex = (%c : memref<1xi32>)
    %o = softmax(qk) * %v : memref<1x64x32xf32> -> memref<1x1x32xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, slidingWindowLookBack = 8 : i32, slidingWindowSize = 8 : i32}
  return
}

// -----

func.func @look_back_zero(%q: memref<1x1x32xf32>, %k: memref<1x32x64xf32>, %v: memref<1x64x32xf32>, %c: memref<1xi32>, %o: memref<1x1x32xf32>) {
  // expected-error @+1 {{slidingWindowSize (0) must be positive}}
  rock.attention {
    qk = %q * %k : memref<1x1x32xf32>, memref<1x32x64xf32>
    lastValidKVIndex = (%c : memref<1xi32>)
    slidingWindowLookBack = 0
    %o = softmax(qk) * %v : memref<1x64x32xf32> -> memref<1x1x32xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}
