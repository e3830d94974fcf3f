// RUN: rock-opt %s -split-input-file -verify-diagnostics
// rock's pipelines report the op as parse-only, at the op.
// RUN: sed -n '/^func.func @parse_only/,$p' %s | not rock-opt --pass-pipeline='builtin.module(rock-cpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=ONLY
// RUN: sed -n '/^func.func @parse_only/,$p' %s | not rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise)' 2>&1 | FileCheck %s --check-prefix=ONLY
// ONLY: error: rock.gridwise_attention_accel is parse-only in rock (docs/rocmlir-compat.md): lower the rock.attention it came from instead

// rock.gridwise_attention_accel verifier (docs/dialect.md, rules 1-5) and
// parser: one case each. The op follows rocMLIR's ops_error.mlir, whose
// words lead the messages of the rules rocMLIR has.

// Rule 1: storeMethod set with softmax (rocMLIR's words, then rock's).
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{Only set store method is supported for attention. (storeMethod = atomic_add)}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    storeMethod = #rock<StoreMethod atomic_add>, params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 2: params0 is an accel parameter attribute.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{params0 must be #rock.xdlops_gemm_derived_params, #rock.xdlops_gemm_params, #rock.mfma_gemm_params, #rock.wmma_gemm_params or #rock.accel_gemm_params}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1", params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 2: params1 is present.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{params1 must be #rock.xdlops_gemm_derived_params, #rock.xdlops_gemm_params, #rock.mfma_gemm_params, #rock.wmma_gemm_params or #rock.accel_gemm_params}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = 1 : i32,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 2: the required fields are positive (rock's rule: a zero kpack divides).
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{params0 kpack (0) must be positive}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 0, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 2: the required fields are positive.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{params1 mPerWave (-32) must be positive}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = -32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 2: params0 nPerBlock divisible by kpack (rocMLIR's words).
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{NPerBlock should be divisible by kpack. (params0 nPerBlock = 32, kpack = 3)}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 3, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 3: no lse without softmax.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{LSE only works for attention.}}
  rock.gridwise_attention_accel(%q, %k, %v, %out, %lse) preSoftmaxOps = {} {
    enableSoftmax = false, params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 1>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>, memref<1x384xf32>
  return
}

// -----

// Rule 3: no split without softmax.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{split-kv is implemented for attention only.}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    enableSoftmax = false, splitKV = 2 : i32, params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 3: no softmaxType without softmax.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{Setting softmax type only works for attention.}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    enableSoftmax = false, softmaxType = f32, params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 3: no currentSeqLen without softmax.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{currentSeqLen only works for attention.}}
  rock.gridwise_attention_accel(%q, %k, %v, %csl, %out) preSoftmaxOps = {} {
    enableSoftmax = false, params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1xi32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 3: no prefixOffset without softmax.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{prefixOffset only works for attention.}}
  rock.gridwise_attention_accel(%q, %k, %v, %po, %out) preSoftmaxOps = {} {
    enableSoftmax = false, causal, params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1xi32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 3: no causal without softmax.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{causal only works for attention.}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    enableSoftmax = false, causal, params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 4: prefixOffset needs causal (rocMLIR's words).
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{prefixOffset requires causal to be enabled. Prefix causal attention is causal masking with an offset.}}
  rock.gridwise_attention_accel(%q, %k, %v, %po, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1xi32>, memref<1x384x64xf32>
  return
}

// -----

// Rule 5: a region ends in rock.yield.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{preSoftmaxOps must end in rock.yield}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {
  ^bb0(%t: memref<1x384x384xf32>):
    %c = arith.constant 0 : index
  } {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Parser: operandSegmentSizes has 6, 7, 8 or 10 entries.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{operandSegmentSizes of rock.gridwise_attention_accel must have 6, 7, 8 or 10 entries (got 5)}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Parser: the segments add up to the operands.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{operandSegmentSizes add up to 5 operands, the op has 4}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Parser: one type per operand.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{rock.gridwise_attention_accel has 4 operands but 3 types}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>
  return
}

// -----

// Parser: operandSegmentSizes is required.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{rock.gridwise_attention_accel needs operandSegmentSizes (array<i32: ...> with 6, 7, 8 or 10 entries)}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// Parser: the features clause names GemmFeatures.
func.func @f(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>, %po: memref<1xi32>, %csl: memref<1xi32>, %lse: memref<1x384xf32>) {
  // expected-error @+1 {{unknown GemmFeatures 'mfma|fast'}}
  rock.gridwise_attention_accel(%q, %k, %v, %out) features = mfma|fast preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}

// -----

// A valid op, for the ONLY runs above.
func.func @parse_only(%q: memref<1x64x384xf32>, %k: memref<1x64x384xf32>, %v: memref<1x384x64xf32>, %out: memref<1x384x64xf32>) {
  rock.gridwise_attention_accel(%q, %k, %v, %out) preSoftmaxOps = {} {
    params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>, params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32>,
    operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>
  } : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>, memref<1x384x64xf32>
  return
}
