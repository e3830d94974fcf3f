// Parse-time verification is off so that the pass itself sees what the
// rock.attention verifier would already reject (IR built through the C API
// reaches the pass the same way when verification is skipped).
// RUN: rock-opt %s -split-input-file -verify-diagnostics \
// RUN:   --mlir-very-unsafe-disable-verifier-on-parsing \
// RUN:   --pass-pipeline='builtin.module(rock-attention-to-gridwise)'

// rocMLIR sets this only for MIGraphX flash-decoding input; we reject it.
func.func @split_kv_transforms(%q: memref<1x8x16xf32>, %k: memref<1x16x8xf32>, %v: memref<1x8x16xf32>, %o: memref<1x8x16xf32>) {
  // expected-error @+1 {{preSoftmaxHasSplitKVTransforms is not supported}}
  rock.attention {
    qk = %q * %k : memref<1x8x16xf32>, memref<1x16x8xf32>
    %o = softmax(qk) * %v : memref<1x8x16xf32> -> memref<1x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, preSoftmaxHasSplitKVTransforms = true}
  return
}

// -----

func.func @v3_too_few(%q: memref<1x8x16xf32>, %k: memref<1x16x8xf32>, %v: memref<1x8x16xf32>, %o: memref<1x8x16xf32>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0': attn:v3 needs 12 or 13 integers, got 11}}
  rock.attention {
    qk = %q * %k : memref<1x8x16xf32>, memref<1x16x8xf32>
    %o = softmax(qk) * %v : memref<1x8x16xf32> -> memref<1x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0"}
  return
}

// -----

func.func @v3_m_zero(%q: memref<1x8x16xf32>, %k: memref<1x16x8xf32>, %v: memref<1x8x16xf32>, %o: memref<1x8x16xf32>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:0,32,32,8,32,32,16,4,1,1,0,0,0': mPerBlockG0 must be in [1, 65536], got 0}}
  rock.attention {
    qk = %q * %k : memref<1x8x16xf32>, memref<1x16x8xf32>
    %o = softmax(qk) * %v : memref<1x8x16xf32> -> memref<1x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:0,32,32,8,32,32,16,4,1,1,0,0,0"}
  return
}

// -----

func.func @v3_n_zero(%q: memref<1x8x16xf32>, %k: memref<1x16x8xf32>, %v: memref<1x8x16xf32>, %o: memref<1x8x16xf32>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,0,8,32,32,16,4,1,1,0,0,0': nPerBlockG0 must be in [1, 65536], got 0}}
  rock.attention {
    qk = %q * %k : memref<1x8x16xf32>, memref<1x16x8xf32>
    %o = softmax(qk) * %v : memref<1x8x16xf32> -> memref<1x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:32,32,0,8,32,32,16,4,1,1,0,0,0"}
  return
}

// -----

func.func @v3_not_int(%q: memref<1x8x16xf32>, %k: memref<1x16x8xf32>, %v: memref<1x8x16xf32>, %o: memref<1x8x16xf32>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,x,32,16,4,1,1,0,0,0': fields must be comma-separated integers}}
  rock.attention {
    qk = %q * %k : memref<1x8x16xf32>, memref<1x16x8xf32>
    %o = softmax(qk) * %v : memref<1x8x16xf32> -> memref<1x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "attn:v3:32,32,32,8,x,32,16,4,1,1,0,0,0"}
  return
}

// -----

// keyAddresses marks K as paged: its chain must reach a rock.deref.
func.func @addresses_not_paged(%q: memref<1x8x16xf32>, %k: memref<1x16x8xf32>, %v: memref<1x8x16xf32>, %o: memref<1x8x16xf32>) {
  // expected-error @+1 {{keyAddresses must be a rock.transform chain ending in rock.deref}}
  rock.attention {
    qk = %q * %k : memref<1x8x16xf32>, memref<1x16x8xf32>
    keyAddresses = (%k : memref<1x16x8xf32>)
    %o = softmax(qk) * %v : memref<1x8x16xf32> -> memref<1x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// A string of no known form: the pass reports it (the verifier would too).
func.func @unknown(%q: memref<1x8x16xf32>, %k: memref<1x16x8xf32>, %v: memref<1x8x16xf32>, %o: memref<1x8x16xf32>) {
  // expected-error @+1 {{invalid perf_config 'gemm:16,16,16': expected attn:v3:, attn:v2:, attn:v1:, v2:, v1: or a comma-separated list of integers}}
  rock.attention {
    qk = %q * %k : memref<1x8x16xf32>, memref<1x16x8xf32>
    %o = softmax(qk) * %v : memref<1x8x16xf32> -> memref<1x8x16xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, perf_config = "gemm:16,16,16"}
  return
}
