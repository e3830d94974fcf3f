// RUN: rock-opt %s | rock-opt | FileCheck %s
// RUN: rock-opt %s --mlir-print-op-generic | rock-opt | FileCheck %s

// rocMLIR's rock.gridwise_attention_accel parses, verifies and prints in each
// of rocMLIR's spellings (docs/dialect.md): the operand segments of its
// versions (6, 7, 8 or 10 entries, `operandSegmentSizes` or the older
// `operand_segment_sizes`, printed back as 10), the `features = a|b` clause,
// the five accelerator parameter attributes with their later fields optional,
// and its memref-tile pre-softmax region. The cases follow rocMLIR's
// mlir/test/Dialect/Rock/gridwise_attention_accel_lowering.mlir,
// ops_error.mlir and gridwise-attention-prefix-causal.mlir. It is parse-only:
// rock's pipelines report it (invalid-gridwise-attention-accel.mlir).

#tq = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["gemmG"] at [0] -> ["gemmG"] at [0]>, <PassThrough ["gemm0K", "gemm0M"] at [1, 2] -> ["gemm0K", "gemm0M"] at [2, 1]>] bounds = [1, 64, 384] -> [1, 384, 64]>

// Six segments (q, k, v, ins, currentSeqLen, out), a features clause.
// CHECK-LABEL: func.func @six_segments
// CHECK: rock.gridwise_attention_accel(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) features = mfma|dot|atomic_add preSoftmaxOps = {
// CHECK: firstGemmIdx = 0 : i32
// CHECK-SAME: operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
// CHECK-SAME: params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32, mnPerXdl = 32>
// CHECK-SAME: : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
func.func @six_segments(%arg0: memref<1x384x64xf32>, %arg1: memref<1x64x384xf32>, %arg2: memref<1x384x64xf32>, %arg3: memref<1x384x64xf32>) attributes {block_size = 64 : i32, grid_size = 24 : i32, kernel, mhal.arch = "amdgcn-amd-amdhsa:gfx908:sramecc+:xnack-"} {
  %0 = rock.transform %arg0 by #tq : memref<1x384x64xf32> to memref<1x64x384xf32>
  rock.gridwise_attention_accel(%0, %arg1, %arg2, %arg3) features =  mfma|dot|atomic_add preSoftmaxOps = {} {
    arch = "amdgcn-amd-amdhsa:gfx908:sramecc+:xnack-",
    blockSize = 64 : i32,
    gridSize = 24 : i32,
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, forceUnroll = true>,
    params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, forceUnroll = true>,
    firstGemmIdx = 0 : i32,
    operand_segment_sizes = array<i32: 1, 1, 1, 0, 0, 1>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// Seven segments (+ lse) with an lse, rocMLIR's older spelling of the
// parameters (#rock.xdlops_gemm_params, no mnPerXdl) and of the split.
// CHECK-LABEL: func.func @seven_segments_lse
// CHECK: operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 1>
// CHECK-SAME: params0 = #rock.xdlops_gemm_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 8, mPerWave = 32, nPerWave = 32>
// CHECK-SAME: splitKV = 2 : i32
func.func @seven_segments_lse(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<2x384x64xf32>, %lse: memref<2x384xf32>) {
  rock.gridwise_attention_accel(%q, %k, %v, %out, %lse) preSoftmaxOps = {} {
    blockSize = 64 : i32, gridSize = 48 : i32,
    params0 = #rock.xdlops_gemm_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 8, mPerWave = 32, nPerWave = 32, forceUnroll = true>,
    params1 = #rock.xdlops_gemm_params<kpackPerBlock = 8, mPerBlock = 32, nPerBlock = 32, kpack = 8, mPerWave = 32, nPerWave = 32, forceUnroll = true>,
    splitKV = 2 : i32,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<2x384x64xf32>, memref<2x384xf32>
  return
}

// Eight segments (+ prefixOffset) with a causal prefix offset, rocMLIR's
// newer #rock.accel_gemm_params with every field.
// CHECK-LABEL: func.func @eight_segments_prefix
// CHECK: causal
// CHECK-SAME: operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 1, 0>
// CHECK-SAME: params0 = #rock.accel_gemm_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, wavesPerEU = 2, gridGroupSize = 4>
func.func @eight_segments_prefix(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %po: memref<1xi32>, %out: memref<1x384x64xf32>) {
  rock.gridwise_attention_accel(%q, %k, %v, %po, %out) preSoftmaxOps = {} {
    blockSize = 64 : i32, gridSize = 24 : i32, causal,
    params0 = #rock.accel_gemm_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, scheduleVersion = 1, outputSwizzle = 2, wavesPerEU = 2, gridGroupSize = 4, forceUnroll = true>,
    params1 = #rock.accel_gemm_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, scheduleVersion = 1, outputSwizzle = 2, wavesPerEU = 0, gridGroupSize = 0, forceUnroll = true>,
    firstGemmIndices = array<i64: 0>, storeMethod = #rock<StoreMethod set>,
    numHeadsKV = 1 : i32, numHeadsQ = 1 : i32,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1xi32>, memref<1x384x64xf32>
  return
}

// Ten segments, WMMA and MFMA parameters, and rocMLIR's memref-tile region
// (views of the block arguments, an alloc, a linalg.generic, a copy).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tile = #rock.transform_map<affine_map<(d0, d1, d2) -> (0, d0, d1, d2)> by [<PassThrough ["g", "m", "n"] at [0, 1, 2] -> ["g", "m", "n"] at [1, 2, 3]>, <ConstDim{0, 1} [] at [] -> ["unit"] at [0]>] bounds = [4, 8, 16] -> [1, 4, 8, 16]>
// CHECK-LABEL: func.func @ten_segments_region
// CHECK: preSoftmaxOps = {
// CHECK-NEXT: ^bb0(%[[T:.*]]: memref<4x8x16xf16>, %[[O:.*]]: memref<1x4x8x16xf16>):
// CHECK: linalg.generic
// CHECK: memref.copy
// CHECK-NEXT: rock.yield
// CHECK: params0 = #rock.wmma_gemm_params<kpackPerBlock = 16, mPerBlock = 16, nPerBlock = 16, kpack = 8, mPerWave = 16, nPerWave = 16, mnPerXdl = 16>
// CHECK-SAME: params1 = #rock.mfma_gemm_params<kpackPerBlock = 16, mPerBlock = 16, nPerBlock = 16, kpack = 8, mPerWave = 16, nPerWave = 16, mnPerXdl = 16>
func.func @ten_segments_region(%q: memref<4x64x8xf16>, %k: memref<4x64x16xf16>, %v: memref<4x16x64xf16>, %out: memref<4x8x64xf16>) {
  %cst = arith.constant 1.250000e-01 : f16
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {
  ^bb0(%tilein: memref<4x8x16xf16>, %tileout: memref<1x4x8x16xf16>):
    %alloc = memref.alloc() : memref<1x4x8x16xf16>
    %a = rock.transform %alloc by #tile : memref<1x4x8x16xf16> to memref<4x8x16xf16>
    linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tilein : memref<4x8x16xf16>) outs(%a : memref<4x8x16xf16>) {
    ^bb0(%in: f16, %o: f16):
      %s = arith.mulf %in, %cst : f16
      linalg.yield %s : f16
    }
    memref.copy %alloc, %tileout : memref<1x4x8x16xf16> to memref<1x4x8x16xf16>
    rock.yield
  } {blockSize = 32 : i32, gridSize = 4 : i32, prePadG0M = 16 : index, prePadG0N = 8 : index, softmaxType = f32,
     params0 = #rock.wmma_gemm_params<kpackPerBlock = 16, mPerBlock = 16, nPerBlock = 16, kpack = 8, mPerWave = 16, nPerWave = 16, mnPerXdl = 16, splitKFactor = 1, forceUnroll = true>,
     params1 = #rock.mfma_gemm_params<kpackPerBlock = 16, mPerBlock = 16, nPerBlock = 16, kpack = 8, mPerWave = 16, nPerWave = 16, mnPerXdl = 16, splitKFactor = 1, forceUnroll = true>,
     operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>} : memref<4x64x8xf16>, memref<4x64x16xf16>, memref<4x16x64xf16>, memref<4x8x64xf16>
  return
}

// Without softmax (a gemm-gemm), rocMLIR's enableSoftmax = false.
// CHECK-LABEL: func.func @no_softmax
// CHECK: enableSoftmax = false
func.func @no_softmax(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>) {
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    enableSoftmax = false, storeMethod = #rock<StoreMethod atomic_add>,
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}
