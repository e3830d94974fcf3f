// RUN: rock-opt %s -split-input-file -verify-diagnostics

// rock.attention verifier (docs/dialect.md, rock.attention rules 1-9 and 11): one
// case per rule. Base problem: B = 2 (numHeadsQ 2, numHeadsKV 1), Sq = 8,
// Dqk = 16, Sk = 32, Dv = 8, f16. The split-KV guard (rule 10) is tested in
// splitkv-guard.mlir.

// Rule 1: splitKV <= 0 (with lse; without it the LSE rule reports first, in
// rocMLIR's order).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %lse: memref<2x8xf32>) {
  // expected-error @+1 {{Negative or zero split-kv does not make sense (splitKV = 0)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    lse = %lse : memref<2x8xf32>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = 0 : i32}
  return
}

// -----

// Rule 1: splitKV = 0 without lse: the LSE rule comes first.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{Flash decoding needs LSE output (splitKV = 0)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = 0 : i32}
  return
}

// -----

// Rule 1: splitKV != 1 without lse.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<4x8x8xf16>) {
  // expected-error @+1 {{Flash decoding needs LSE output}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<4x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = 2 : i32}
  return
}

// -----

// The first failing rule reports (rules 1 and 2 broken).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{Flash decoding needs LSE output (splitKV = -1)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = -1 : i32, storeMethod = #rock<StoreMethod atomic_add>}
  return
}

// -----

// Rule 2: storeMethod.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{Only set store method is supported for attention. (storeMethod = atomic_max)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, storeMethod = #rock<StoreMethod atomic_max>}
  return
}

// -----

// Rule 3: prefixOffset without causal.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %po: memref<2xi32>) {
  // expected-error @+1 {{prefixOffset requires causal to be enabled. Prefix causal attention is causal masking with an offset.}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    prefixOffset = (%po : memref<2xi32>)
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 4: numHeadsQ > 0.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{numHeadsQ must be positive (got 0)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 0 : i32}
  return
}

// -----

// Rule 4: numHeadsKV > 0.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{numHeadsKV must be positive (got -2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = -2 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 4: numHeadsQ % numHeadsKV.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{numHeadsQ is not divisible by numHeadsKV (3 vs 2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 2 : i32, numHeadsQ = 3 : i32}
  return
}

// -----

// Rule 5: operands are rank 3.
func.func @f(%q: memref<8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{queries must be rank 3 (got rank 2)}}
  rock.attention {
    qk = %q * %k : memref<8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: operands are rank 3.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8x1xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{values must be rank 3 (got rank 4)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8x1xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: Q/K head dims.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x12x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{reduction dimensions of first gemm do not match: keys head dim (12) must equal queries head dim (16)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x12x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: qTransposed makes Q [B, Dqk, Sq].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{reduction dimensions of first gemm do not match: keys head dim (16) must equal queries head dim (8)}}
  rock.attention {
    qk = tr %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: kTransposed makes K [Bkv, Sk, Dqk].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{reduction dimensions of first gemm do not match: keys head dim (32) must equal queries head dim (16)}}
  rock.attention {
    qk = %q * tr %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: K seq == V seq.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x30x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{reduction dimensions of second gemm do not match: values sequence length (30) must equal keys sequence length (32)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x30x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: vTransposed makes V [Bkv, Dv, Sk].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{reduction dimensions of second gemm do not match: values sequence length (8) must equal keys sequence length (32)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * tr %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: batch(K) == batch(V).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<2x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{Batch dimensions do not match: values batch (2) must equal keys batch (1)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<2x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: batch(K) * R == batch(Q).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<2x16x32xf16>, %v: memref<2x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{Batch dimensions do not match: keys batch (2) times numHeadsQ/numHeadsKV (2) must equal queries batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<2x16x32xf16>
    %out = softmax(qk) * %v : memref<2x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: batch(out) % splitKV.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<3x8x8xf16>, %lse: memref<3x8xf32>) {
  // expected-error @+1 {{Batch size must be divisible by splitKV: out batch (3), splitKV (2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    lse = %lse : memref<3x8xf32>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<3x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = 2 : i32}
  return
}

// -----

// Rule 5: batch(out) / splitKV == batch(Q).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %lse: memref<2x8xf32>) {
  // expected-error @+1 {{Batch dimensions do not match (Q and Output): out batch (2) divided by splitKV (2) must equal queries batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    lse = %lse : memref<2x8xf32>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = 2 : i32}
  return
}

// -----

// Rule 5: out seq == Sq.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x4x8xf16>) {
  // expected-error @+1 {{Sequence length does not match (Q and Output): out sequence length (4) must equal queries sequence length (8)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x4x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: out head == Dv.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x4xf16>) {
  // expected-error @+1 {{Head dimensions do not match (V and Output): out head dim (4) must equal values head dim (8)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x4xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: oTransposed makes out [B*S, Dv, Sq].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x4x8xf16>) {
  // expected-error @+1 {{Head dimensions do not match (V and Output): out head dim (4) must equal values head dim (8)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    tr %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x4x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: elementwise inputs are [B, Sq, Sk].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %bias: memref<2x8x16xf16>) {
  // expected-error @+1 {{elementwise input 0 shape (2x8x16) must be [batch, seqQ, seqK] (2x8x32)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    qk = elementwise otherIns(%bias : memref<2x8x16xf16>) {
    ^bb0(%a: f16, %b: f16):
      %r = arith.addf %a, %b : f16
      rock.yield %r : f16
    }
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 5: elementwise inputs are rank 3 (broadcasts are transforms).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %bias: memref<1xf16>) {
  // expected-error @+1 {{elementwise input 0 must be rank 3 (got rank 1)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    qk = elementwise otherIns(%bias : memref<1xf16>) {
    ^bb0(%a: f16, %b: f16):
      %r = arith.addf %a, %b : f16
      rock.yield %r : f16
    }
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 6: currentSeqLen rank.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %c: memref<2x1xi32>) {
  // expected-error @+1 {{Number of dimensions is not one (currentSeqLen): currentSeqLen must be rank 1 (got rank 2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    currentSeqLen = (%c : memref<2x1xi32>)
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 6: currentSeqLen i32.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %c: memref<2xi64>) {
  // expected-error @+1 {{currentSeqLen element type must be i32 (got i64)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    currentSeqLen = (%c : memref<2xi64>)
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 6: currentSeqLen is [B] (no broadcast).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %c: memref<1xi32>) {
  // expected-error @+1 {{Batch dimensions do not match (currentSeqLen and Output): currentSeqLen length (1) must equal queries batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    currentSeqLen = (%c : memref<1xi32>)
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 6: prefixOffset rank.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %po: memref<i32>) {
  // expected-error @+1 {{prefixOffset must be rank 1 (got rank 0)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    prefixOffset = (%po : memref<i32>)
    causal
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 6: prefixOffset i32.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %po: memref<2xf32>) {
  // expected-error @+1 {{prefixOffset element type must be i32 (got f32)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    prefixOffset = (%po : memref<2xf32>)
    causal
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 6: prefixOffset is [1] or [B].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %po: memref<3xi32>) {
  // expected-error @+1 {{prefixOffset length (3) must be 1 or equal queries batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    prefixOffset = (%po : memref<3xi32>)
    causal
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 7: lse rank.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %lse: memref<2xf32>) {
  // expected-error @+1 {{Number of dimensions is not two (LSE): lse must be rank 2 (got rank 1)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    lse = %lse : memref<2xf32>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 7: lse f32, f16 or bf16 (rocmlir-gen stores it in the output's type).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %lse: memref<2x8xf64>) {
  // expected-error @+1 {{lse element type must be f32, f16 or bf16 (got f64)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    lse = %lse : memref<2x8xf64>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 7: lse batch includes the split factor.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<4x8x8xf16>, %lse: memref<2x8xf32>) {
  // expected-error @+1 {{Batch dimensions do not match (LSE and Output): lse batch (2) must equal out batch (4)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    lse = %lse : memref<2x8xf32>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<4x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, splitKV = 2 : i32}
  return
}

// -----

// Rule 7: lse [B*S, Sq].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %lse: memref<2x4xf32>) {
  // expected-error @+1 {{SeqLenQ dimensions do not match (LSE and Q): lse sequence length (4) must equal queries sequence length (8)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    lse = %lse : memref<2x4xf32>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: element kinds.
func.func @f(%q: memref<2x8x16xf64>, %k: memref<1x16x32xf64>, %v: memref<1x32x8xf64>, %out: memref<2x8x8xf64>) {
  // expected-error @+1 {{queries element type must be f32, f16, bf16 or i8 (got f64)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf64>, memref<1x16x32xf64>
    %out = softmax(qk) * %v : memref<1x32x8xf64> -> memref<2x8x8xf64>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: index is no attention element type (the user's op is refused).
func.func @f(%q: memref<2x8x16xindex>, %k: memref<1x16x32xindex>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{queries element type must be f32, f16, bf16 or i8 (got index)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xindex>, memref<1x16x32xindex>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: Q and K share a type.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf32>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{keys element type (f32) must equal queries element type (f16)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf32>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: i8 needs f16 V.
func.func @f(%q: memref<2x8x16xi8>, %k: memref<1x16x32xi8>, %v: memref<1x32x8xi8>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{values element type (i8) must be f16 for i8 queries}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xi8>, memref<1x16x32xi8>
    %out = softmax(qk) * %v : memref<1x32x8xi8> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: i8 needs f16 out.
func.func @f(%q: memref<2x8x16xi8>, %k: memref<1x16x32xi8>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf32>) {
  // expected-error @+1 {{out element type (f32) must be f16 for i8 queries}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xi8>, memref<1x16x32xi8>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: float Q needs V of its type.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xbf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{values element type (bf16) must equal queries element type (f16)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xbf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: float Q needs out of its type.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf32>) {
  // expected-error @+1 {{out element type (f32) must equal queries element type (f16)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf32>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: keys are a view of the keyAddresses rock.deref.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %p: memref<1x16x1xi64>) {
  %kd = rock.deref %p : memref<1x16x1xi64> -> memref<1x16x32xf16>
  // expected-error @+1 {{keys must be a rock.transform view of the keyAddresses rock.deref}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    keyAddresses = (%kd : memref<1x16x32xf16>)
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: values are a view of the same rock.deref as valueAddresses, not of
// another one.
#vt = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d2, d1)>
  by [<PassThrough ["g", "s", "d"] at [0, 1, 2] -> ["g", "s", "d"] at [0, 2, 1]>]
  bounds = [1, 32, 8] -> [1, 8, 32]>
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %out: memref<2x8x8xf16>, %p: memref<1x8x1xi64>, %p2: memref<1x8x1xi64>) {
  %vd = rock.deref %p : memref<1x8x1xi64> -> memref<1x8x32xf16>
  %vd2 = rock.deref %p2 : memref<1x8x1xi64> -> memref<1x8x32xf16>
  %v = rock.transform %vd by #vt : memref<1x8x32xf16> to memref<1x32x8xf16>
  // expected-error @+1 {{values must be a rock.transform view of the valueAddresses rock.deref}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    valueAddresses = (%vd2 : memref<1x8x32xf16>)
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: valueAddresses must lead to a rock.deref.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{valueAddresses must be a rock.deref result or a rock.transform view of one}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    valueAddresses = (%v : memref<1x32x8xf16>)
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 8: softmaxType is a float.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{softmaxType must be a float type (got i32)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, softmaxType = i32}
  return
}

// -----

// Rule 9: firstGemmIndices == [0].
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{unsupported firstGemmIndices}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, firstGemmIndices = array<i64: 1>}
  return
}

// -----

// Rule 9: one block argument per elementwise input, plus the score.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %bias: memref<2x8x32xf16>) {
  // expected-error @+1 {{preSoftmaxBody has 1 block arguments but must have 2 (1 + 1 elementwise inputs)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    qk = elementwise otherIns(%bias : memref<2x8x32xf16>) {
    ^bb0(%a: f16):
      rock.yield %a : f16
    }
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 9: input arguments are scalars of the inputs' element types.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>, %bias: memref<2x8x32xf16>) {
  // expected-error @+1 {{preSoftmaxBody argument 1 type (f32) must equal the element type of elementwise input 0 (f16)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    qk = elementwise otherIns(%bias : memref<2x8x32xf16>) {
    ^bb0(%a: f16, %s: f32):
      rock.yield %a : f16
    }
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 9: rock.yield of a float.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{preSoftmaxBody must yield a float value (got i32)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    qk = elementwise {
    ^bb0(%a: f16):
      %i = arith.fptosi %a : f16 to i32
      rock.yield %i : i32
    }
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 9: rock.yield of one value.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{pre-second-GEMM body must yield exactly one value (preSoftmaxBody's rock.yield yields 2; only rocMLIR's linalg form, on memrefs, yields none)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    qk = elementwise {
    ^bb0(%a: f16):
      rock.yield %a, %a : f16, f16
    }
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 9: rock.yield of one value.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{pre-second-GEMM body must yield exactly one value (preSoftmaxBody's rock.yield yields 0; only rocMLIR's linalg form, on memrefs, yields none)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    qk = elementwise {
    ^bb0(%a: f16):
      rock.yield
    }
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32}
  return
}

// -----

// Rule 9: slidingWindowSize > 0.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{slidingWindowSize (0) must be positive}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, slidingWindowSize = 0 : i32}
  return
}

// -----

// Rule 9: causalLookBack > 0.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{causalLookBack (0) must be positive}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    causal
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, causalLookBack = 0 : i32}
  return
}

// -----

// Rule 9: causalLookBack needs causal.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{causalLookBack requires causal}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, causalLookBack = 4 : i32}
  return
}

// -----

// perf_config: v3 has 12 or 13 integers.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0': attn:v3 needs 12 or 13 integers, got 11}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0"}
  return
}

// -----

// perf_config: mPerBlockG0 is at most 65536 (any size below is accepted).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:65537,32,32,8,32,32,16,4,1,1,0,0,0': mPerBlockG0 must be in [1, 65536], got 65537}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:65537,32,32,8,32,32,16,4,1,1,0,0,0"}
  return
}

// -----

// perf_config: nPerBlockG0 is positive.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,0,8,32,32,16,4,1,1,0,0,0': nPerBlockG0 must be in [1, 65536], got 0}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,0,8,32,32,16,4,1,1,0,0,0"}
  return
}

// -----

// perf_config: integers only.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,x': fields must be comma-separated integers}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,x"}
  return
}

// -----

// perf_config: known forms only; gemm-style forms need two fields.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'v2:32': needs at least 2 integers, got 1}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "v2:32"}
  return
}

// -----

// Rule 9: the region has one block (generic form: the custom syntax cannot
// spell two).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{pre-second-GEMM region must contain a single block (preSoftmaxBody has more than one)}}
  "rock.attention"(%q, %k, %v, %out) <{numHeadsKV = 1 : i32, numHeadsQ = 2 : i32,
      operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>}> ({
  ^bb0(%a: f16):
    rock.yield %a : f16
  ^bb1(%b: f16):
    rock.yield %b : f16
  }) : (memref<2x8x16xf16>, memref<1x16x32xf16>, memref<1x32x8xf16>, memref<2x8x8xf16>) -> ()
  return
}

// -----

// Rule 9: elementwise inputs need the region that consumes them (generic form).
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %bias: memref<2x8x32xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{1 elementwise inputs need a preSoftmaxBody region with 2 block arguments}}
  "rock.attention"(%q, %k, %v, %bias, %out) <{numHeadsKV = 1 : i32, numHeadsQ = 2 : i32,
      operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 1, 0>}> ({
  }) : (memref<2x8x16xf16>, memref<1x16x32xf16>, memref<1x32x8xf16>, memref<2x8x32xf16>, memref<2x8x8xf16>) -> ()
  return
}

// -----

// perf_config: a string of no known form.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'gemm:32,32': expected attn:v3:, attn:v2:, attn:v1:, v2:, v1: or a comma-separated list of integers}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "gemm:32,32"}
  return
}

// -----

// perf_config: attn:v1 needs the three fields up to nPerBlockG0.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v1:32,32': needs at least 3 integers, got 2}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v1:32,32"}
  return
}

// -----

// Without numHeadsKV there is one K/V head: the K batch must then be the Q
// batch divided by numHeadsQ.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<2x16x32xf16>, %v: memref<2x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{Batch dimensions do not match: keys batch (2) times numHeadsQ/numHeadsKV (2) must equal queries batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<2x16x32xf16>
    %out = softmax(qk) * %v : memref<2x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsQ = 2 : i32}
  return
}

// -----

// The staging knobs (ovl, pages) are 0 or 1.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:ovl=2': rock field ovl must be an integer in [0, 1], got '2'}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:ovl=2"}
  return
}

// -----

// perf_config: rock's fields (docs/tuning.md) are name=value pairs after
// ':rock:' of an attn:v3 string; each knob has its range.
func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:keys=17': rock field keys must be an integer in [1, 16], got '17'}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:keys=17"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:lanes=12': rock field lanes must be a power of two and an integer in [1, 32], got '12'}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:lanes=12"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:stages=3': rock field stages must be an integer in [1, 2], got '3'}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:stages=3"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:split=0': rock field split must be an integer in [1, 1024], got '0'}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:split=0"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:path=mma': rock field path must be simt or tc}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:path=mma"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:wgmma=2': rock field wgmma must be an integer in [0, 1], got '2'}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:wgmma=2"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:warps=4': unknown rock field 'warps' (fields: path, keys, lanes, stages, split, wgmma, producer, pingpong, swizzle128, l2, tma, wide, wkeys, consumers, ovl, pages, kvstages, ktpairs, kwarps, wgstages)}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:warps=4"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:keys=2,keys=4': rock field keys given twice}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:keys=2,keys=4"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:keys': rock field 'keys' is not name=value}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,1:rock:keys"}
  return
}

// -----

func.func @f(%q: memref<2x8x16xf16>, %k: memref<1x16x32xf16>, %v: memref<1x32x8xf16>, %out: memref<2x8x8xf16>) {
  // expected-error @+1 {{invalid perf_config 'attn:v2:32,32,32:rock:keys=4': only attn:v3 strings take rock fields, after ':rock:'}}
  rock.attention {
    qk = %q * %k : memref<2x8x16xf16>, memref<1x16x32xf16>
    %out = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x8x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 2 : i32, perf_config = "attn:v2:32,32,32:rock:keys=4"}
  return
}
