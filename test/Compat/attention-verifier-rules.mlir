// RUN: rock-opt -split-input-file -verify-diagnostics %s
// Follows rocMLIR's mlir/lib/Dialect/Rock/IR/RockDialect.cpp
// (AttentionOp::verify and verifyGemmPlusGemmLikeOp) through the invalid ops
// of mlir/test/Dialect/Rock/ops_error.mlir and
// attention_splitkv_limit_verifier.mlir: every rule both projects have, one
// case each, reported with rocMLIR's words first and rock's context (the
// sizes involved) after them; the whole messages are pinned. The pre-softmax
// region's rules are at the end (rocMLIR's newest verifier words them for its
// tensor form; rock leads with the same words).

// splitKV > 1 needs the lse output (checked first, as rocMLIR does).
func.func @split_needs_lse(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<2x16x8xf16>) {
  // expected-error @+1 {{Flash decoding needs LSE output (splitKV = 2)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
  return
}

// -----

// splitKV must be positive.
func.func @split_zero(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>, %l: memref<1x16xf32>) {
  // expected-error @+1 {{Negative or zero split-kv does not make sense (splitKV = 0)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    lse = %l : memref<1x16xf32>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 0 : i32}
  return
}

// -----

// K batch x (numHeadsQ / numHeadsKV) must equal Q batch.
func.func @batch_kq(%q: memref<2x16x8xf16>, %k: memref<3x8x32xf16>, %v: memref<2x32x8xf16>, %o: memref<2x16x8xf16>) {
  // expected-error @+1 {{Batch dimensions do not match: keys batch (3) times numHeadsQ/numHeadsKV (1) must equal queries batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x16x8xf16>, memref<3x8x32xf16>
    %o = softmax(qk) * %v : memref<2x32x8xf16> -> memref<2x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// V batch must equal K batch.
func.func @batch_vk(%q: memref<2x16x8xf16>, %k: memref<2x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<2x16x8xf16>) {
  // expected-error @+1 {{Batch dimensions do not match: values batch (1) must equal keys batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x16x8xf16>, memref<2x8x32xf16>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// K head dim must equal Q head dim.
func.func @red1(%q: memref<1x16x8xf16>, %k: memref<1x4x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>) {
  // expected-error @+1 {{reduction dimensions of first gemm do not match: keys head dim (4) must equal queries head dim (8)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x4x32xf16>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// V sequence length must equal K sequence length.
func.func @red2(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x64x8xf16>, %o: memref<1x16x8xf16>) {
  // expected-error @+1 {{reduction dimensions of second gemm do not match: values sequence length (64) must equal keys sequence length (32)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    %o = softmax(qk) * %v : memref<1x64x8xf16> -> memref<1x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// out batch must divide by splitKV.
func.func @split_batch(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<3x16x8xf16>, %l: memref<3x16xf32>) {
  // expected-error @+1 {{Batch size must be divisible by splitKV: out batch (3), splitKV (2)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    lse = %l : memref<3x16xf32>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<3x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
  return
}

// -----

// out must have Q's rank (rock: 3).
func.func @out_rank(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<16x8xf16>) {
  // expected-error @+1 {{Number of dimensions do not match (Q and Output): out must be rank 3 (got rank 2)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// out batch / splitKV must equal Q batch.
func.func @out_batch(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<2x16x8xf16>) {
  // expected-error @+1 {{Batch dimensions do not match (Q and Output): out batch (2) divided by splitKV (1) must equal queries batch (1)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// out sequence length must equal Q's.
func.func @out_seq(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x12x8xf16>) {
  // expected-error @+1 {{Sequence length does not match (Q and Output): out sequence length (12) must equal queries sequence length (16)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x12x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// out head dim must equal V's.
func.func @out_head(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x4xf16>) {
  // expected-error @+1 {{Head dimensions do not match (V and Output): out head dim (4) must equal values head dim (8)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x16x4xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// currentSeqLen is rank 1.
func.func @csl_rank(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>, %c: memref<1x1xi32>) {
  // expected-error @+1 {{Number of dimensions is not one (currentSeqLen): currentSeqLen must be rank 1 (got rank 2)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    currentSeqLen = (%c : memref<1x1xi32>)
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// currentSeqLen has one entry per batch.
func.func @csl_batch(%q: memref<2x16x8xf16>, %k: memref<2x8x32xf16>, %v: memref<2x32x8xf16>, %o: memref<2x16x8xf16>, %c: memref<3xi32>) {
  // expected-error @+1 {{Batch dimensions do not match (currentSeqLen and Output): currentSeqLen length (3) must equal queries batch (2)}}
  rock.attention {
    qk = %q * %k : memref<2x16x8xf16>, memref<2x8x32xf16>
    currentSeqLen = (%c : memref<3xi32>)
    %o = softmax(qk) * %v : memref<2x32x8xf16> -> memref<2x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// lse is rank 2.
func.func @lse_rank(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>, %l: memref<16xf32>) {
  // expected-error @+1 {{Number of dimensions is not two (LSE): lse must be rank 2 (got rank 1)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    lse = %l : memref<16xf32>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// lse batch must equal out batch.
func.func @lse_batch(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<2x16x8xf16>, %l: memref<1x16xf32>) {
  // expected-error @+1 {{Batch dimensions do not match (LSE and Output): lse batch (1) must equal out batch (2)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    lse = %l : memref<1x16xf32>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<2x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
  return
}

// -----

// lse length must equal Q sequence length.
func.func @lse_seq(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>, %l: memref<1x8xf32>) {
  // expected-error @+1 {{SeqLenQ dimensions do not match (LSE and Q): lse sequence length (8) must equal queries sequence length (16)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    lse = %l : memref<1x8xf32>
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}

// -----

// The region has one block (generic form: the custom syntax cannot spell two).
func.func @region_blocks(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>) {
  // expected-error @+1 {{pre-second-GEMM region must contain a single block (preSoftmaxBody has more than one)}}
  "rock.attention"(%q, %k, %v, %o) <{numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>}> ({
  ^bb0(%a: f16):
    rock.yield %a : f16
  ^bb1(%b: f16):
    rock.yield %b : f16
  }) : (memref<1x16x8xf16>, memref<1x8x32xf16>, memref<1x32x8xf16>, memref<1x16x8xf16>) -> ()
  return
}

// -----

// The block takes at least the score.
func.func @region_no_args(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>) {
  // expected-error @+1 {{pre-second-GEMM body must have at least one block argument (preSoftmaxBody takes the score and 0 elementwise inputs)}}
  "rock.attention"(%q, %k, %v, %o) <{numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>}> ({
  ^bb0:
    %c = arith.constant 1.0 : f16
    rock.yield %c : f16
  }) : (memref<1x16x8xf16>, memref<1x8x32xf16>, memref<1x32x8xf16>, memref<1x16x8xf16>) -> ()
  return
}

// -----

// The block ends in rock.yield.
func.func @region_terminator(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>) {
  // expected-error @+1 {{pre-second-GEMM body must be terminated by a rock.yield (preSoftmaxBody ends in llvm.unreachable)}}
  "rock.attention"(%q, %k, %v, %o) <{numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>}> ({
  ^bb0(%a: f16):
    llvm.unreachable
  }) : (memref<1x16x8xf16>, memref<1x8x32xf16>, memref<1x32x8xf16>, memref<1x16x8xf16>) -> ()
  return
}

// -----

// The scalar form yields one value (the linalg form, on memrefs, none).
func.func @region_yields_two(%q: memref<1x16x8xf16>, %k: memref<1x8x32xf16>, %v: memref<1x32x8xf16>, %o: memref<1x16x8xf16>) {
  // expected-error @+1 {{pre-second-GEMM body must yield exactly one value (preSoftmaxBody's rock.yield yields 2; only rocMLIR's linalg form, on memrefs, yields none)}}
  rock.attention {
    qk = %q * %k : memref<1x16x8xf16>, memref<1x8x32xf16>
    qk = elementwise {
    ^bb0(%a: f16):
      rock.yield %a, %a : f16, f16
    }
    %o = softmax(qk) * %v : memref<1x32x8xf16> -> memref<1x16x8xf16>
  } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32}
  return
}
