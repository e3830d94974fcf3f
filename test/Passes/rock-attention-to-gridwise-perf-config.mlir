// The perf_config forms of current and old rocMLIR TOMLs (support/perf_config.h):
// attn:vN strings give the tiles in fields 0 and 2, the gemm-style forms
// (v2:, v1:, bare lists) in fields 0 and 1; any positive size is taken.
// RUN: rock-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(rock-attention-to-gridwise)' \
// RUN:   | FileCheck %s

// "v2:" prefix: fields 0 and 1.
// CHECK-LABEL: func.func @v2_prefix
// CHECK: gridSize = 1 : i64, mPerBlock = 64 : i32, nPerBlock = 128 : i32
func.func @v2_prefix(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "v2:64,128,16,8,4,1"}
  return
}

// -----

// Bare numbers: fields 0 and 1.
// CHECK-LABEL: func.func @bare
// CHECK: gridSize = 2 : i64, mPerBlock = 128 : i32, nPerBlock = 64 : i32
func.func @bare(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "128,64,8"}
  return
}

// -----

// Tiles that are not powers of two (rocMLIR's AttentionNonPowerOfTwoTileSize).
// CHECK-LABEL: func.func @non_pow2
// CHECK: gridSize = 1 : i64, mPerBlock = 64 : i32, nPerBlock = 192 : i32
func.func @non_pow2(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:64,64,192,32,32,96,16,8,1,1,2,0,1"}
  return
}

// -----

// 12-field attn:v3 (no forceUnroll), and an odd nPerBlockG0.
// CHECK-LABEL: func.func @v3_twelve
// CHECK: gridSize = 3 : i64, mPerBlock = 48 : i32, nPerBlock = 40 : i32
func.func @v3_twelve(%q: memref<1x100x16xf32>, %k: memref<1x16x64xf32>, %v: memref<1x64x16xf32>, %o: memref<1x100x16xf32>) {
  rock.attention {
    qk = %q * %k : memref<1x100x16xf32>, memref<1x16x64xf32>
    %o = softmax(qk) * %v : memref<1x64x16xf32> -> memref<1x100x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:48,32,40,8,32,32,16,4,1,1,0,0"}
  return
}
