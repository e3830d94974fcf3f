//===- RockOps.td - rock operations -----------------------*- tablegen -*-===//
#ifndef ROCK_OPS_TD
#define ROCK_OPS_TD

include "Rock/RockDialect.td"
include "Rock/RockAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

def Rock_TransformMapAttrC : Attr<CPred<"::llvm::isa<::mlir::rock::TransformMapAttr>($_self)">,
    "transform map"> {
  let storageType = "::mlir::rock::TransformMapAttr";
  let returnType = "::mlir::rock::TransformMapAttr";
  let convertFromStorage = "$_self";
}

//===----------------------------------------------------------------------===//
// rock.attention
//===----------------------------------------------------------------------===//

def Rock_AttentionOp : Rock_Op<"attention", [AttrSizedOperandSegments]> {
  let summary = "attention: softmax(Q·K [elementwise region]) · V, optionally split-KV";
  let description = [{
    Computes `out = softmax(region(Q·K)) · V` per query row with optional
    grouped-query heads, causal / prefix-causal / KV-cache masks, split-KV
    partial outputs (with `lse`) and paged K/V (`keyAddresses` /
    `valueAddresses` naming views that bottom out in `rock.deref`). The
    arithmetic, the masks and the split-KV math are in docs/semantics.md.

    Operands (with `B = batch(queries)`, `Bkv = batch(keys)`, `S = splitKV`):
    queries `[B, Sq, Dqk]` (`qTransposed`: `[B, Dqk, Sq]`), keys
    `[Bkv, Dqk, Sk]` (`kTransposed`: `[Bkv, Sk, Dqk]`), values `[Bkv, Sk, Dv]`
    (`vTransposed`: `[Bkv, Dv, Sk]`), elementwise inputs `[B, Sq, Sk]` each,
    currentSeqLen `[B]` i32 (inclusive index of the last valid key),
    prefixOffset `[1]` or `[B]` i32, keyAddresses / valueAddresses (the
    `rock.deref` that keys / values are views of, or a view of it: paged
    mode), out
    `[B*S, Sq, Dv]` (`oTransposed`: `[B*S, Dv, Sq]`), lse `[B*S, Sq]` f32,
    f16 or bf16 (computed in f32, rounded on the store: rocmlir-gen stores
    it in the output's type).

    Verifier rules, checked in this order (the first broken one reports;
    where rocMLIR has the same rule the message starts with rocMLIR's words,
    e.g. "numHeadsQ is not divisible by numHeadsKV", and rock's context
    follows):
    1. `splitKV != 1` needs `lse` ("Flash decoding needs LSE output");
       `splitKV` is positive.
    2. `storeMethod` is `set`.
    3. `prefixOffset` needs `causal`.
    4. `numHeadsQ` and `numHeadsKV` are positive and `numHeadsKV` divides
       `numHeadsQ`.
    5. Shapes: `Bkv * numHeadsQ / numHeadsKV == B` and K and V batches
       agree; Q and K head dims agree; K and V sequence lengths agree; out
       batch is `B * S`; out sequence length is `Sq`; out head dim is `Dv`;
       every elementwise input is `[B, Sq, Sk]`.
    6. currentSeqLen is rank 1, i32, length `B`; prefixOffset rank 1, i32,
       length 1 or `B`.
    7. lse is rank 2, f32 / f16 / bf16, `[B*S, Sq]`.
    8. Element types: Q and K agree (f32, f16, bf16 or i8); i8 Q/K need f16
       V and out, float Q/K need V and out of the same type; keyAddresses /
       valueAddresses lead (through rock.transform views) to a rock.deref
       that keys / values are views of; softmaxType is a float.
    9. The region has one block in either form (support/region_form.h):
       rock's scalar form, `1 + #elementwise inputs` scalar arguments ending
       in `rock.yield` of one float; or rocMLIR's linalg form, the score
       tile, the elementwise inputs (their shapes) and the output tile as
       `2 + #elementwise inputs` memrefs, `memref.alloc`s, one
       `linalg.generic` (identity maps, parallel iterators, reading block
       arguments, writing the output or an alloc that one `memref.copy`
       writes to it, its body not reading the output element and yielding
       one float) and `rock.yield` without operands; `firstGemmIndices == [0]`;
       `slidingWindowSize > 0` when present; `causalLookBack > 0` when
       present, and it needs `causal`.
    10. The split-KV memory guard (docs/semantics.md §5.7).
    11. `perf_config`, when present, parses (docs/user-guide.md §2.5).

    Custom syntax: `tr` before an operand marks it transposed; optional
    clauses between the `qk =` line and the output line, in this order:
    `currentSeqLen = (%x : T)`, `slidingWindowSize = N` (the attribute;
    also accepted in the attribute dictionary), `prefixOffset = (%p : T)`,
    `keyAddresses = (%kd : T)`, `valueAddresses = (%vd : T)`,
    `causalLookBack = L` (the attribute; also accepted in the attribute
    dictionary), `causal`,
    `lse = %l : T`, `qk = elementwise otherIns(%s : T) { ^bb0(...): ... }`.
    rocMLIR's newer names `lastValidKVIndex = (%x : T)` and
    `slidingWindowLookBack = N` (clause or dictionary) are read as
    currentSeqLen and slidingWindowSize, which mean the same; rock prints
    its own names.

    ```mlir
    rock.attention {
      qk = %q * %k : memref<1x64x1024xf16>, memref<1x64x1024xf16>
      lse = %lse : memref<2x1024xf32>
      %out = softmax(qk) * %v : memref<1x1024x64xf16> -> memref<2x1024x64xf16>
    } {numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, splitKV = 2 : i32}
    ```
  }];
  let arguments = (ins
    AnyMemRef:$queries,
    AnyMemRef:$keys,
    AnyMemRef:$values,
    Variadic<AnyMemRef>:$preSoftmaxElemWiseInputs,
    Optional<AnyMemRef>:$currentSeqLen,
    Optional<AnyMemRef>:$prefixOffset,
    Optional<AnyMemRef>:$keyAddresses,
    Optional<AnyMemRef>:$valueAddresses,
    AnyMemRef:$out,
    Optional<AnyMemRef>:$lse,
    I32Attr:$numHeadsQ,
    // Optional as upstream: without it there is one K/V head (1).
    DefaultValuedAttr<I32Attr, "1">:$numHeadsKV,
    UnitAttr:$qTransposed,
    UnitAttr:$kTransposed,
    UnitAttr:$vTransposed,
    UnitAttr:$oTransposed,
    UnitAttr:$causal,
    UnitAttr:$reverseGrid,
    DefaultValuedAttr<I32Attr, "1">:$splitKV,
    OptionalAttr<Rock_GemmFeaturesAttr>:$features,
    DefaultValuedAttr<Rock_StoreMethodAttr, "::mlir::rock::StoreMethod::Set">:$storeMethod,
    OptionalAttr<TypeAttr>:$softmaxType,
    DefaultValuedAttr<DenseI64ArrayAttr, "{0}">:$firstGemmIndices,
    DefaultValuedAttr<BoolAttr, "false">:$preSoftmaxHasSplitKVTransforms,
    OptionalAttr<I32Attr>:$slidingWindowSize,
    OptionalAttr<I32Attr>:$causalLookBack,
    OptionalAttr<StrAttr>:$perf_config);
  let regions = (region AnyRegion:$preSoftmaxBody);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Rock_YieldOp : Rock_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["AttentionOp", "GridwiseAttentionOp",
                 "GridwiseAttentionAccelOp"]>]> {
  let summary = "terminates an elementwise region with its value";
  let description = [{
    Ends the pre-softmax region of `rock.attention` and
    `rock.gridwise_attention`: in rock's scalar form its one operand is the
    score after the elementwise ops, which the lowering converts to
    `softmaxType`; in rocMLIR's linalg form it has no operand (the
    `linalg.generic` before it computes the score).

    ```mlir
    ^bb0(%qk: f16, %scale: f16):
      %s = arith.mulf %qk, %scale : f16
      rock.yield %s : f16
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

def Rock_DerefOp : Rock_Op<"deref", [Pure]> {
  let summary = "views an i64 page table as the pages it points to";
  let description = [{
    Result element `[b, p, i]` is element `i` of the page whose base byte
    address is `pointers[b, p, 0]` (pointers `[batch, numPages, 1]` i64,
    result `[batch, numPages, pageSize]`), or, for a flat table
    `[numPages]`, element `[p, i]` of the page at `pointers[p]`. Lazy:
    nothing is loaded here; loads happen where a view chain ending in this
    op is read (`rock.view_load` / `rock.view_store` / `rock.view_prefetch`).
    The result may only be used by `rock.transform` and those view ops. A
    vector access through it needs pages that are a multiple of its 128-bit
    pieces (docs/semantics.md §6).

    ```mlir
    %kd = rock.deref %ptrs : memref<1x64x1xi64> -> memref<1x64x8192xf16>
    ```
  }];
  let arguments = (ins AnyMemRef:$pointers);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$pointers attr-dict `:` type($pointers) `->` type($result)";
  let hasVerifier = 1;
}

def Rock_TransformOp : Rock_Op<"transform", [Pure]> {
  let summary = "a coordinate view of a buffer (upper -> lower map)";
  let description = [{
    `%y` has the upper shape of `#map` and `%x` its lower shape; reading
    `%y[u]` reads `%x[map(u)]`, or the padding value where a Pad makes the
    coordinate invalid. Pure: no data moves until a `rock.view_load` /
    `rock.view_store` reads through the chain (the nine transform kinds are
    in docs/semantics.md §7).

    ```mlir
    #t = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
        by [<PassThrough ["a", "b"] at [0, 1] -> ["b", "a"] at [1, 0]>]
        bounds = [4, 8] -> [8, 4]>
    %y = rock.transform %x by #t : memref<8x4xf32> to memref<4x8xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$input, Rock_TransformMapAttrC:$transform);
  let results = (outs AnyMemRef:$output);
  // Custom: `by #rock.transform_map<...> : A to B` must parse although the
  // generic attribute parser takes `: A` as the attribute's type.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Rock_ViewLoadOp : Rock_Op<"view_load", []> {
  let summary = "reads a scalar or a vector along the last dim through a view";
  let description = [{
    Reads through the view chain of the source (rock.transform /
    rock.deref): one index per source dim; a vector result covers the
    coordinates `(i0, ..., in + t)` for `t < N`. Coordinates made invalid by a
    Pad read `padValue` (default 0) without touching memory. A vector access
    on a paged view never straddles a page.

    ```mlir
    %s = rock.view_load %v[%i, %j] : memref<4x8xf16> -> f16
    %x = rock.view_load %v[%i, %j] {padValue = 0xFFF0000000000000 : f64}
        : memref<4x8xf16> -> vector<8xf16>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       OptionalAttr<F64Attr>:$padValue);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$source `[` $indices `]` attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Rock_ViewPrefetchOp : Rock_Op<"view_prefetch", []> {
  let summary = "hints that the element at a view coordinate will be read soon";
  let description = [{
    Resolves the coordinate through the view chain of `%v` like
    rock.view_load and prefetches its cache line (`locality` 0..3 as in
    llvm.prefetch: 3 keeps it closest). It never faults and never reads the
    element; a coordinate made invalid by a Pad prefetches nothing. The page
    pointer of a paged view is read. With `lines = N` (1..64) it prefetches
    the N 64-byte lines of the elements from the coordinate on along the
    innermost dimension (N * 64 bytes of them, as a vector access of that
    many lanes would read): resolved once where such an access provably
    stays contiguous (inside one page), else once per line.

    ```mlir
    rock.view_prefetch %v[%i, %j] {locality = 3 : i32} : memref<4x8xf16>
    rock.view_prefetch %k[%b, %t, %c0] {lines = 4 : i32} : memref<1x64x128xbf16>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       DefaultValuedAttr<I32Attr, "2">:$locality,
                       DefaultValuedAttr<I32Attr, "1">:$lines);
  let assemblyFormat = "$source `[` $indices `]` attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Rock_ViewStoreOp : Rock_Op<"view_store", []> {
  let summary = "writes a scalar or a vector along the last dim through a view";
  let description = [{
    Writes through the view chain of the destination like `rock.view_load`
    reads: elements whose coordinate a Pad makes invalid are dropped.

    ```mlir
    rock.view_store %x, %v[%i, %j] : vector<8xf16>, memref<4x8xf16>
    ```
  }];
  let arguments = (ins AnyType:$value, AnyMemRef:$dest, Variadic<Index>:$indices);
  let assemblyFormat = "$value `,` $dest `[` $indices `]` attr-dict `:` type($value) `,` type($dest)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gridwise level
//===----------------------------------------------------------------------===//

def Rock_GridwiseAttentionOp : Rock_Op<"gridwise_attention", [AttrSizedOperandSegments]> {
  let summary = "tiled split-KV attention over canonical views";
  let description = [{
    Canonical operands: queries `[B, Sq, Dqk]`, keys `[Bkv, Sk, Dqk]`,
    values `[Bkv, Sk, Dv]`, elementwise inputs `[B, Sq, Sk]`, currentSeqLen and
    prefixOffset `[B]` (i32), out `[B*splitKV, Sq, Dv]`, lse `[B*splitKV, Sq]`.
    Explicit tiling: `mPerBlock` keys per tile, `nPerBlock` merged query rows
    (`n = i*numRepeatsGQA + r`) per tile, `gridSize` workgroups.
    `prePadG0M = Sk` and `prePadG0N = Sq*numRepeatsGQA` are the real sizes
    before padding; `gridSize = Bkv * ceil(Sq*R / nPerBlock) * splitKV`.
    Produced by rock-attention-to-gridwise, lowered to loops by
    rock-lower-gridwise-attention (docs/semantics.md §5 for the split math).

    ```mlir
    rock.gridwise_attention q(%q : memref<2x8x64xf16>) k(%k : memref<1x16x64xf16>)
        v(%v : memref<1x16x32xf16>) out(%out : memref<4x8x32xf16>)
        lse(%lse : memref<4x8xf32>)
        attributes {splitKV = 2 : i32, numRepeatsGQA = 2 : i32,
                    prePadG0M = 16 : i64, prePadG0N = 16 : i64,
                    mPerBlock = 16 : i32, nPerBlock = 8 : i32,
                    gridSize = 4 : i64, softmaxType = f32} {
    ^bb0(%a: f16):
      rock.yield %a : f16
    }
    ```
  }];
  let arguments = (ins
    AnyMemRef:$queries,
    AnyMemRef:$keys,
    AnyMemRef:$values,
    Variadic<AnyMemRef>:$preSoftmaxElemWiseInputs,
    Optional<AnyMemRef>:$currentSeqLen,
    Optional<AnyMemRef>:$prefixOffset,
    AnyMemRef:$out,
    Optional<AnyMemRef>:$lse,
    UnitAttr:$causal,
    UnitAttr:$reverseGrid,
    I32Attr:$splitKV,
    I32Attr:$numRepeatsGQA,
    I64Attr:$prePadG0M,
    I64Attr:$prePadG0N,
    I32Attr:$mPerBlock,
    I32Attr:$nPerBlock,
    I64Attr:$gridSize,
    TypeAttr:$softmaxType,
    DefaultValuedAttr<BoolAttr, "true">:$enableSoftmax,
    OptionalAttr<I32Attr>:$slidingWindowSize,
    OptionalAttr<I32Attr>:$causalLookBack,
    OptionalAttr<Rock_GemmFeaturesAttr>:$features);
  let regions = (region AnyRegion:$preSoftmaxBody);
  let assemblyFormat = [{
    `q` `(` $queries `:` type($queries) `)`
    `k` `(` $keys `:` type($keys) `)`
    `v` `(` $values `:` type($values) `)`
    (`elementwise` `(` $preSoftmaxElemWiseInputs^ `:` type($preSoftmaxElemWiseInputs) `)`)?
    (`currentSeqLen` `(` $currentSeqLen^ `:` type($currentSeqLen) `)`)?
    (`prefixOffset` `(` $prefixOffset^ `:` type($prefixOffset) `)`)?
    `out` `(` $out `:` type($out) `)`
    (`lse` `(` $lse^ `:` type($lse) `)`)?
    attr-dict-with-keyword $preSoftmaxBody
  }];
  let hasVerifier = 1;
}

def Rock_AttentionCombineOp : Rock_Op<"attention_combine", []> {
  let summary = "LSE-weighted merge of split-KV partial outputs, in f32";
  let description = [{
    `out[b, i, :] = Σ_s w_s·partial[b*S+s, i, :] / Σ_s w_s` with
    `w_s = exp(lse_s − max_s lse_s)`; rows whose splits are all −inf give 0
    and LSE −inf (docs/semantics.md §5.8). partialOut `[B*S, Sq, Dv]` (or
    `[B*S, Dv, Sq]` with `oTransposed`), partialLse `[B*S, Sq]` f32; out
    `[B, Sq, Dv]` in the same layout and partialOut's element type, optional
    lse `[B, Sq]` f32.

    ```mlir
    rock.attention_combine %po, %pl into %out, %lse {splitKV = 2 : i32}
        : memref<4x8x32xf16>, memref<4x8xf32> -> memref<2x8x32xf16>, memref<2x8xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$partialOut, AnyMemRef:$partialLse,
                       AnyMemRef:$out, Optional<AnyMemRef>:$lse,
                       I32Attr:$splitKV, UnitAttr:$oTransposed);
  let assemblyFormat = [{
    $partialOut `,` $partialLse `into` $out (`,` $lse^)? attr-dict `:`
    type($partialOut) `,` type($partialLse) `->` type($out) (`,` type($lse)^)?
  }];
  let hasVerifier = 1;
}

def Rock_GridwiseAttentionAccelOp
    : Rock_Op<"gridwise_attention_accel", [AttrSizedOperandSegments]> {
  let summary = "rocMLIR's gridwise attention on accelerators (parse-only)";
  let description = [{
    rocMLIR's gridwise attention: operands already laid out and padded for
    its blockwise MFMA / WMMA pipeline (queries as `[G, K, M]` gemm views,
    `prePadG0M` / `prePadG0N` the sizes before padding), the accelerator
    tuning parameters of both gemms in `params0` / `params1`
    (`#rock.xdlops_gemm_derived_params`, `#rock.xdlops_gemm_params`,
    `#rock.mfma_gemm_params`, `#rock.wmma_gemm_params`,
    `#rock.accel_gemm_params`), and its pre-softmax region in memref-tile
    form. rock parses, verifies and prints it so rocMLIR's IR can be read;
    its passes lower `rock.attention` instead and report this op as
    parse-only (docs/rocmlir-compat.md says why).

    Operands, in order: queries, keys, values, elementwise inputs,
    currentSeqLen, prefixOffset, keyAddresses, valueAddresses, out, lse. The
    attribute dictionary's `operandSegmentSizes` (or rocMLIR's older
    `operand_segment_sizes`) has 10 entries, or rocMLIR's older 6 (no
    prefixOffset, paged operands, lse), 7 (no prefixOffset, paged
    operands) or 8 (no paged operands); it prints with 10.

    Verifier rules, in rocMLIR's order and words where rocMLIR has them:
    1. `storeMethod` is `set` when `enableSoftmax` (default true).
    2. `params0` and `params1` are accelerator tuning parameters whose
       required fields are positive; params0's `nPerBlock` is divisible by
       its `kpack`.
    3. Without softmax (`enableSoftmax = false`): no lse, `splitKV` 1, no
       softmaxType, currentSeqLen, prefixOffset or causal.
    4. `prefixOffset` needs `causal`.
    5. The region is empty or ends in `rock.yield`.

    ```mlir
    rock.gridwise_attention_accel(%q, %k, %v, %out) features = mfma|dot
        preSoftmaxOps = {} {blockSize = 64 : i32, gridSize = 24 : i32,
        params0 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32,
          mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32,
          nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, forceUnroll = true>,
        params1 = #rock.xdlops_gemm_derived_params<kpackPerBlock = 32,
          mPerBlock = 32, nPerBlock = 32, kpack = 1, mPerWave = 32,
          nPerWave = 32, mnPerXdl = 32, splitKFactor = 1, forceUnroll = true>,
        operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 1, 0>}
        : memref<1x64x384xf32>, memref<1x64x384xf32>, memref<1x384x64xf32>,
          memref<1x384x64xf32>
    ```
  }];
  let arguments = (ins
    AnyMemRef:$queries,
    AnyMemRef:$keys,
    AnyMemRef:$values,
    Variadic<AnyMemRef>:$preSoftmaxElemWiseInputs,
    Optional<AnyMemRef>:$currentSeqLen,
    Optional<AnyMemRef>:$prefixOffset,
    Optional<AnyMemRef>:$keyAddresses,
    Optional<AnyMemRef>:$valueAddresses,
    AnyMemRef:$out,
    Optional<AnyMemRef>:$lse,
    OptionalAttr<AnyAttr>:$params0,
    OptionalAttr<AnyAttr>:$params1,
    OptionalAttr<Rock_GemmFeaturesAttr>:$features,
    DefaultValuedAttr<Rock_StoreMethodAttr, "::mlir::rock::StoreMethod::Set">:$storeMethod,
    DefaultValuedAttr<BoolAttr, "true">:$enableSoftmax,
    DefaultValuedAttr<I32Attr, "1">:$splitKV,
    UnitAttr:$causal,
    OptionalAttr<TypeAttr>:$softmaxType);
  let regions = (region AnyRegion:$preSoftmaxBody);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif
