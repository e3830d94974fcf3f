// RUN: rock-opt %s -split-input-file -verify-diagnostics

// rock.gridwise_attention (docs/internals.md canonical form) and
// rock.attention_combine (docs/dialect.md) verifiers. Gridwise base:
// B = 2 = Bkv (1) * numRepeatsGQA (2), Sq = 8, Sk = 16, Dqk = 64, Dv = 32,
// splitKV = 2, nPerBlock = 8, gridSize = 4.

// splitKV > 0.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{splitKV (0) must be positive}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 0 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// numRepeatsGQA > 0.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{numRepeatsGQA (0) must be positive}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 0 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// mPerBlock > 0.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{mPerBlock (0) must be positive}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 0 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// nPerBlock > 0.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{nPerBlock (-8) must be positive}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = -8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Queries are rank 3.
func.func @f(%q: memref<8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{queries must be rank 3 (got rank 2)}}
  rock.gridwise_attention q(%q : memref<8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Keys are rank 3.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64x1xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{keys must be rank 3 (got rank 4)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64x1xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// B = Bkv * numRepeatsGQA.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{keys batch (1) times numRepeatsGQA (1) must equal queries batch (2)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 1 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Keys are canonical [Bkv, Sk, Dqk].
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x64x16xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{keys head dim (16) must equal queries head dim (64)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x64x16xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Values are rank 3.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{values must be rank 3 (got rank 2)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Values are [Bkv, Sk, Dv].
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x12x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{values shape (1x12x32) must be [Bkv, Sk, Dv] (1x16x32)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x12x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Elementwise inputs are [B, Sq, Sk].
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %e0: memref<2x8x8xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{elementwise input shape (2x8x8) must be [B, Sq, Sk] (2x8x16)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) elementwise(%e0 : memref<2x8x8xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16, %a1: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// currentSeqLen is [B].
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %csl: memref<1xi32>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{currentSeqLen shape (1) must be [B] (2)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) currentSeqLen(%csl : memref<1xi32>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// currentSeqLen is i32.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %csl: memref<2xi64>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{currentSeqLen element type must be i32 (got i64)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) currentSeqLen(%csl : memref<2xi64>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// prefixOffset is [B] (broadcast by a transform beforehand).
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %po: memref<1xi32>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{prefixOffset shape (1) must be [B] (2)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) prefixOffset(%po : memref<1xi32>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// out is [B*splitKV, Sq, Dv].
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<2x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{out shape (2x8x32) must be [B*splitKV, Sq, Dv] (4x8x32)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<2x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// lse is [B*splitKV, Sq].
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x4xf32>) {
  // expected-error @+1 {{lse shape (4x4) must be [B*splitKV, Sq] (4x8)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x4xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// lse is f32, f16 or bf16.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xi32>) {
  // expected-error @+1 {{lse element type must be f32, f16 or bf16 (got i32)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xi32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Q and K share an element type.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xbf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{keys and queries must share an element type}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xbf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// prePadG0M = Sk.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{prePadG0M (32) must equal keys length Sk (16)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 32 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// prePadG0N = Sq * R.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{prePadG0N (8) must equal Sq (8) times numRepeatsGQA (2)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 8 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// gridSize = Bkv * ceil(Sq*R / nPerBlock) * S.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{gridSize (8) must equal Bkv * ceil(Sq*R / nPerBlock) * splitKV = 1 * ceil(16 / 8) * 2 = 4}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 8 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// gridSize rounds the query blocks up.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{gridSize (4) must equal Bkv * ceil(Sq*R / nPerBlock) * splitKV = 1 * ceil(16 / 32) * 2 = 2}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 32 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// softmaxType is a float.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{softmaxType must be a float type}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = i32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// slidingWindowSize > 0.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{slidingWindowSize (0) must be positive}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, slidingWindowSize = 0 : i32, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// causalLookBack > 0.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{causalLookBack (0) must be positive}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, causal, causalLookBack = 0 : i32, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// causalLookBack needs causal.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{causalLookBack requires causal}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, causalLookBack = 4 : i32, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Region: one argument per elementwise input, plus the score.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %e0: memref<2x8x16xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{preSoftmaxBody has 1 block arguments but must have 2 (1 + 1 elementwise inputs)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) elementwise(%e0 : memref<2x8x16xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// Region: rock.yield of one float.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{preSoftmaxBody must yield a float value (got i32)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    %i = arith.fptosi %a0 : f16 to i32
    rock.yield %i : i32
  }
  return
}

// -----

// combine: splitKV > 0.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{splitKV (0) must be positive}}
  rock.attention_combine %po, %pl into %out {splitKV = 0 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>
  return
}

// -----

// combine: partialOut is rank 3.
func.func @f(%po: memref<4x256xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{partialOut must be rank 3 (got rank 2)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x256xf16>, memref<4x8xf32> -> memref<2x8x32xf16>
  return
}

// -----

// combine: partialLse is rank 2.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8x1xf32>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{partialLse must be rank 2 (got rank 3)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8x1xf32> -> memref<2x8x32xf16>
  return
}

// -----

// combine: out is rank 3.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x256xf16>) {
  // expected-error @+1 {{out must be rank 3 (got rank 2)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x256xf16>
  return
}

// -----

// combine: partialLse is f32.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf16>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{partialLse element type must be f32 (got f16)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf16> -> memref<2x8x32xf16>
  return
}

// -----

// combine: partial batch divisible by splitKV.
func.func @f(%po: memref<5x8x32xf16>, %pl: memref<5x8xf32>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{partialOut batch (5) must be divisible by splitKV (2)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<5x8x32xf16>, memref<5x8xf32> -> memref<2x8x32xf16>
  return
}

// -----

// combine: partialLse batch = partialOut batch.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<2x8xf32>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{partialLse batch (2) must equal partialOut batch (4)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<2x8xf32> -> memref<2x8x32xf16>
  return
}

// -----

// combine: partialLse is [B*S, Sq].
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x4xf32>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{partialLse sequence length (4) must equal partialOut sequence length (8)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x4xf32> -> memref<2x8x32xf16>
  return
}

// -----

// combine: partial batch = splitKV * out batch.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<1x8x32xf16>) {
  // expected-error @+1 {{partialOut batch (4) must equal splitKV (2) times out batch (1)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<1x8x32xf16>
  return
}

// -----

// combine: out seq = Sq.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x4x32xf16>) {
  // expected-error @+1 {{out sequence length (4) must equal partialOut sequence length (8)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x4x32xf16>
  return
}

// -----

// combine: out head = Dv.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x16xf16>) {
  // expected-error @+1 {{out head dim (16) must equal partialOut head dim (32)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x16xf16>
  return
}

// -----

// combine: oTransposed makes both outputs [*, Dv, Sq].
func.func @f(%po: memref<4x32x8xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf16>) {
  // expected-error @+1 {{out sequence length (32) must equal partialOut sequence length (8)}}
  rock.attention_combine %po, %pl into %out {oTransposed, splitKV = 2 : i32} : memref<4x32x8xf16>, memref<4x8xf32> -> memref<2x8x32xf16>
  return
}

// -----

// combine: out has partialOut's element type.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf32>) {
  // expected-error @+1 {{out element type (f32) must equal partialOut element type (f16)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf32>
  return
}

// -----

// combine: outputs are floats.
func.func @f(%po: memref<4x8x32xi32>, %pl: memref<4x8xf32>, %out: memref<2x8x32xi32>) {
  // expected-error @+1 {{partialOut element type must be a float (got i32)}}
  rock.attention_combine %po, %pl into %out {splitKV = 2 : i32} : memref<4x8x32xi32>, memref<4x8xf32> -> memref<2x8x32xi32>
  return
}

// -----

// combine: lse is rank 2.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf16>, %lse: memref<16xf32>) {
  // expected-error @+1 {{lse must be rank 2 (got rank 1)}}
  rock.attention_combine %po, %pl into %out, %lse {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<16xf32>
  return
}

// -----

// combine: lse is f32.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf16>, %lse: memref<2x8xbf16>) {
  // expected-error @+1 {{lse element type must be f32 (got bf16)}}
  rock.attention_combine %po, %pl into %out, %lse {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<2x8xbf16>
  return
}

// -----

// combine: lse batch = out batch.
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{lse batch (4) must equal out batch (2)}}
  rock.attention_combine %po, %pl into %out, %lse {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<4x8xf32>
  return
}

// -----

// combine: lse is [B, Sq].
func.func @f(%po: memref<4x8x32xf16>, %pl: memref<4x8xf32>, %out: memref<2x8x32xf16>, %lse: memref<2x16xf32>) {
  // expected-error @+1 {{lse sequence length (16) must equal partialOut sequence length (8)}}
  rock.attention_combine %po, %pl into %out, %lse {splitKV = 2 : i32} : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<2x16xf32>
  return
}

// -----

// Q element types are those the lowering implements (index once verified,
// then failed as "generated IR does not parse").
func.func @f(%q: memref<2x8x64xindex>, %k: memref<1x16x64xindex>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{queries element type must be f32, f16, bf16 or i8 (got index)}}
  rock.gridwise_attention q(%q : memref<2x8x64xindex>) k(%k : memref<1x16x64xindex>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f32):
    rock.yield %a0 : f32
  }
  return
}

// -----

// V is a float type.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xi32>, %out: memref<4x8x32xf16>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{values element type must be f32, f16 or bf16 (got i32)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xi32>) out(%out : memref<4x8x32xf16>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}

// -----

// out is a float type.
func.func @f(%q: memref<2x8x64xf16>, %k: memref<1x16x64xf16>, %v: memref<1x16x32xf16>, %out: memref<4x8x32xf64>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{out element type must be f32, f16 or bf16 (got f64)}}
  rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>) v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf64>) lse(%lse : memref<4x8xf32>)
      attributes {gridSize = 4 : i64, mPerBlock = 16 : i32, nPerBlock = 8 : i32, numRepeatsGQA = 2 : i32, prePadG0M = 16 : i64, prePadG0N = 16 : i64, softmaxType = f32, splitKV = 2 : i32} {
  ^bb0(%a0: f16):
    rock.yield %a0 : f16
  }
  return
}
