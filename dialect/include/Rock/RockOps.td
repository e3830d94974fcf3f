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
    `valueAddresses` naming views that bottom out in `rock.deref`).

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
    OptionalAttr<StrAttr>:$perf_config);
  let regions = (region AnyRegion:$preSoftmaxBody);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Rock_YieldOp : Rock_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["AttentionOp", "GridwiseAttentionOp"]>]> {
  let summary = "terminates an elementwise region with its value";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

def Rock_DerefOp : Rock_Op<"deref", [Pure]> {
  let summary = "views an i64 page table as the pages it points to";
  let description = [{
    `%kd = rock.deref %ptrs : memref<1x64x1xi64> -> memref<1x64x8192xf16>`:
    result element `[b, p, i]` is element `i` of the page whose base byte
    address is `ptrs[b, p, 0]`. Lazy: nothing is loaded here; loads happen
    where a view chain ending in this op is read.
  }];
  let arguments = (ins AnyMemRef:$pointers);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$pointers attr-dict `:` type($pointers) `->` type($result)";
  let hasVerifier = 1;
}

def Rock_TransformOp : Rock_Op<"transform", [Pure]> {
  let summary = "a coordinate view of a buffer (upper -> lower map)";
  let description = [{
    `%y = rock.transform %x by #map : memref<A> to memref<B>`: `%y` has the
    upper shape of `#map`; reading `%y[u]` reads `%x[map(u)]`, or the padding
    value where a Pad makes the coordinate invalid.
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
    `%x = rock.view_load %v[%i, %j] : memref<4x8xf16> -> vector<8xf16>` reads
    through the view chain of `%v` (rock.transform / rock.deref); coordinates
    made invalid by a Pad read `padValue` (default 0) without touching memory.
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
    `rock.view_prefetch %v[%i, %j] {locality = 2 : i32} : memref<4x8xf16>`
    resolves the coordinate through the view chain of `%v` like
    rock.view_load and prefetches its cache line (`locality` 0..3 as in
    llvm.prefetch: 3 keeps it closest). It never faults and never reads the
    element; a coordinate made invalid by a Pad prefetches nothing. The page
    pointer of a paged view is read.
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices,
                       DefaultValuedAttr<I32Attr, "2">:$locality);
  let assemblyFormat = "$source `[` $indices `]` attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Rock_ViewStoreOp : Rock_Op<"view_store", []> {
  let summary = "writes a scalar or a vector along the last dim through a view";
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
    and LSE −inf.
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

#endif
