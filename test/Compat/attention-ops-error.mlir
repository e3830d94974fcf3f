// RUN: rock-opt -split-input-file -verify-diagnostics %s
// Follows rocMLIR's mlir/test/Dialect/Rock/ops_error.mlir (its attention
// cases, at 4ed097e and at 0413599): the same invalid rock.attention and
// rock.gridwise_attention_accel ops, each reported with rocMLIR's words first
// and rock's context after them. Both spellings of the accel op's segment
// sizes (7 entries, `operand_segment_sizes`; 8, `operandSegmentSizes`) and
// both parameter attributes (#rock.xdlops_gemm_derived_params and
// #rock.accel_gemm_params) are read. The whole messages are pinned here;
// scripts/run-rocmlir-lit.py runs rocMLIR's own file, which checks the
// prefixes.

#qt = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <PassThrough ["k", "m"] at [1, 2] -> ["k", "m"] at [2, 1]>] bounds = [1, 32, 128] -> [1, 128, 32]>

// The accel op with an atomic_add store (rocMLIR 4ed097e's spelling).
func.func @accel_atomic_add_v1(%q: memref<1x128x32xf32>, %k: memref<1x32x128xf32>, %v: memref<1x128x32xf32>, %o: memref<1x128x32xf32>) attributes {rock.kernel, mhal.arch = "gfx942"} {
  %qt = rock.transform %q by #qt : memref<1x128x32xf32> to memref<1x32x128xf32>
  // expected-error @below {{Only set store method is supported for attention. (storeMethod = atomic_add)}}
  rock.gridwise_attention_accel(%qt, %k, %v, %o) preSoftmaxOps = {} {
    blockSize = 64 : i32, gridSize = 4 : i32,
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 4, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, forceUnroll = true>,
    params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 4, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, forceUnroll = true>,
    firstGemmIndices = array<i64: 0>, storeMethod = #rock<StoreMethod atomic_add>,
    splitKV = 1 : i32, enableSoftmax = true, numHeadsKV = 1 : i32, numHeadsQ = 1 : i32,
    operand_segment_sizes = array<i32: 1, 1, 1, 0, 0, 1, 0>
  } : memref<1x32x128xf32>, memref<1x32x128xf32>, memref<1x128x32xf32>, memref<1x128x32xf32>
  return
}

// -----

#qt = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <PassThrough ["k", "m"] at [1, 2] -> ["k", "m"] at [2, 1]>] bounds = [1, 32, 128] -> [1, 128, 32]>

// The same in rocMLIR 0413599's spelling (accel_gemm_params, 8 segments).
func.func @accel_atomic_add_v2(%q: memref<1x128x32xf32>, %k: memref<1x32x128xf32>, %v: memref<1x128x32xf32>, %o: memref<1x128x32xf32>) attributes {rock.kernel, mhal.arch = "gfx942"} {
  %qt = rock.transform %q by #qt : memref<1x128x32xf32> to memref<1x32x128xf32>
  // expected-error @below {{Only set store method is supported for attention. (storeMethod = atomic_add)}}
  rock.gridwise_attention_accel(%qt, %k, %v, %o) preSoftmaxOps = {} {
    blockSize = 64 : i32, gridSize = 4 : i32,
    params0 = #rock.accel_gemm_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 4, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, scheduleVersion = 1, outputSwizzle = 2, wavesPerEU = 0, gridGroupSize = 0, forceUnroll = true>,
    params1 = #rock.accel_gemm_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 4, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, scheduleVersion = 1, outputSwizzle = 2, wavesPerEU = 0, gridGroupSize = 0, forceUnroll = true>,
    firstGemmIndices = array<i64: 0>, storeMethod = #rock<StoreMethod atomic_add>,
    splitKV = 1 : i32, enableSoftmax = true, numHeadsKV = 1 : i32, numHeadsQ = 1 : i32,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0>
  } : memref<1x32x128xf32>, memref<1x32x128xf32>, memref<1x128x32xf32>, memref<1x128x32xf32>
  return
}

// -----

#qt = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["g"] at [0] -> ["g"] at [0]>, <PassThrough ["k", "m"] at [1, 2] -> ["k", "m"] at [2, 1]>] bounds = [1, 32, 128] -> [1, 128, 32]>

// The accel op with a prefix offset but no causal mask.
func.func @accel_prefix_without_causal(%q: memref<1x128x32xf32>, %k: memref<1x32x128xf32>, %v: memref<1x128x32xf32>, %o: memref<1x128x32xf32>, %p: memref<1xi32>) attributes {rock.kernel, mhal.arch = "gfx942"} {
  %qt = rock.transform %q by #qt : memref<1x128x32xf32> to memref<1x32x128xf32>
  // expected-error @below {{prefixOffset requires causal to be enabled. Prefix causal attention is causal masking with an offset.}}
  rock.gridwise_attention_accel(%qt, %k, %v, %p, %o) preSoftmaxOps = {} {
    blockSize = 64 : i32, gridSize = 4 : i32,
    params0 = #rock.accel_gemm_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 4, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, scheduleVersion = 1, outputSwizzle = 2, wavesPerEU = 0, gridGroupSize = 0, forceUnroll = true>,
    params1 = #rock.accel_gemm_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 4, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, scheduleVersion = 1, outputSwizzle = 2, wavesPerEU = 0, gridGroupSize = 0, forceUnroll = true>,
    firstGemmIndices = array<i64: 0>, storeMethod = #rock<StoreMethod set>,
    splitKV = 1 : i32, enableSoftmax = true, numHeadsKV = 1 : i32, numHeadsQ = 1 : i32,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0>
  } : memref<1x32x128xf32>, memref<1x32x128xf32>, memref<1x128x32xf32>, memref<1xi32>, memref<1x128x32xf32>
  return
}

// -----

// rock.attention with an atomic_add store.
func.func @attention_atomic_add(%q: memref<1x128x32xf16>, %k: memref<1x128x32xf16>, %v: memref<1x128x32xf16>, %o: memref<1x128x32xf16>) attributes {rock.kernel, mhal.arch = "gfx1100"} {
  // expected-error @below {{Only set store method is supported for attention. (storeMethod = atomic_add)}}
  rock.attention {
    qk = %q * tr %k : memref<1x128x32xf16>, memref<1x128x32xf16>
    %o = softmax(qk) * %v : memref<1x128x32xf16> -> memref<1x128x32xf16>
  } {features = #rock<GemmFeatures dot|atomic_add|atomic_fmax_f32|wmma>, firstGemmIndices = array<i64: 0>, splitKV = 1 : i32, numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, storeMethod = #rock<StoreMethod atomic_add>}
  return
}

// -----

func.func @heads_kv_negative(%q: memref<1x128x32xf16>, %k: memref<1x128x32xf16>, %v: memref<1x128x32xf16>, %o: memref<1x128x32xf16>) attributes {rock.kernel, mhal.arch = "gfx1100"} {
  // expected-error @below {{numHeadsKV must be positive (got -2)}}
  rock.attention {
    qk = %q * tr %k : memref<1x128x32xf16>, memref<1x128x32xf16>
    %o = softmax(qk) * %v : memref<1x128x32xf16> -> memref<1x128x32xf16>
  } {numHeadsKV = -2 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

func.func @heads_q_negative(%q: memref<1x128x32xf16>, %k: memref<1x128x32xf16>, %v: memref<1x128x32xf16>, %o: memref<1x128x32xf16>) attributes {rock.kernel, mhal.arch = "gfx1100"} {
  // expected-error @below {{numHeadsQ must be positive (got -3)}}
  rock.attention {
    qk = %q * tr %k : memref<1x128x32xf16>, memref<1x128x32xf16>
    %o = softmax(qk) * %v : memref<1x128x32xf16> -> memref<1x128x32xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = -3 : i32}
  return
}

// -----

func.func @heads_not_divisible(%q: memref<1x128x32xf16>, %k: memref<1x128x32xf16>, %v: memref<1x128x32xf16>, %o: memref<1x128x32xf16>) attributes {rock.kernel, mhal.arch = "gfx1100"} {
  // expected-error @below {{numHeadsQ is not divisible by numHeadsKV (6 vs 4)}}
  rock.attention {
    qk = %q * tr %k : memref<1x128x32xf16>, memref<1x128x32xf16>
    %o = softmax(qk) * %v : memref<1x128x32xf16> -> memref<1x128x32xf16>
  } {numHeadsKV = 4 : i32, numHeadsQ = 6 : i32}
  return
}

// -----

// Fewer query heads than KV heads is the same rule.
func.func @heads_q_below_kv(%q: memref<1x128x32xf16>, %k: memref<1x128x32xf16>, %v: memref<1x128x32xf16>, %o: memref<1x128x32xf16>) attributes {rock.kernel, mhal.arch = "gfx1100"} {
  // expected-error @below {{numHeadsQ is not divisible by numHeadsKV (1 vs 2)}}
  rock.attention {
    qk = %q * tr %k : memref<1x128x32xf16>, memref<1x128x32xf16>
    %o = softmax(qk) * %v : memref<1x128x32xf16> -> memref<1x128x32xf16>
  } {numHeadsKV = 2 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

func.func @prefix_without_causal(%q: memref<1x128x32xf16>, %k: memref<1x128x32xf16>, %v: memref<1x128x32xf16>, %o: memref<1x128x32xf16>, %p: memref<1xi32>) attributes {rock.kernel, mhal.arch = "gfx1100"} {
  // expected-error @below {{prefixOffset requires causal to be enabled. Prefix causal attention is causal masking with an offset.}}
  rock.attention {
    qk = %q * tr %k : memref<1x128x32xf16>, memref<1x128x32xf16>
    prefixOffset = (%p : memref<1xi32>)
    %o = softmax(qk) * %v : memref<1x128x32xf16> -> memref<1x128x32xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}
