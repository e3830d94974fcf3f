// The lenient perf_config forms of old rocMLIR TOMLs. The rock.attention
// verifier accepts only attn:v1/v2/v3 strings, so parse-time verification
// is off here: the pass must still read whatever it is given.
// RUN: rock-opt %s -split-input-file \
// RUN:   --mlir-very-unsafe-disable-verifier-on-parsing \
// RUN:   --pass-pipeline='builtin.module(rock-attention-to-gridwise)' \
// RUN:   | FileCheck %s

// "v2:" prefix: fields 0 and 2.
// CHECK-LABEL: func.func @v2_prefix
// CHECK: gridSize = 7 : i64, mPerBlock = 64 : i32, nPerBlock = 16 : i32
func.func @v2_prefix(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "v2:64,128,16,8,4,1"}
  return
}

// -----

// Bare numbers: fields 0 and 2.
// CHECK-LABEL: func.func @bare
// CHECK: gridSize = 13 : i64, mPerBlock = 128 : i32, nPerBlock = 8 : i32
func.func @bare(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "128,64,8"}
  return
}

// -----

// Too short for field 2: NB comes from the heuristic (100 rows -> 32).
// CHECK-LABEL: func.func @bare_short
// CHECK: gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 32 : i32
func.func @bare_short(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "16,64"}
  return
}

// -----

// A string of no known form is ignored: the heuristic decides.
// CHECK-LABEL: func.func @unknown
// CHECK: gridSize = 4 : i64, mPerBlock = 32 : i32, nPerBlock = 32 : i32
func.func @unknown(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "gemm:16,16,16"}
  return
}
