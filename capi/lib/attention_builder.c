/*===- attention_builder.c - the rock-gen attention module ----------------===*/
//
// rockAttentionBuildModule*: prints the module of docs/internals.md ("rock-gen
// → rock-run contract") as MLIR text, then parses and verifies it. Transform
// maps are built with rockTransformAttrCreate / rockTransformMapAttrCreate
// and printed, so their affine maps are derived by the C API.
//
//===----------------------------------------------------------------------===//
#include "attention_args.h"
#include "host_main.h"
#include "host_reference.h"
#include "module_text.h"
#include "rock-c/Attention.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/TransformMap.h"
#include "rock-c/Tuning.h"
#include "support/str.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/Dialect/Tosa.h"
#include "mlir-c/Dialect/Vector.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// One #rock.transform, from plain arrays.
typedef struct TSpec {
  RockTransformKind kind;
  int nParams;
  int64_t params[4];
  int nUp;
  const char *up[4];
  int64_t upDims[4];
  int nLow;
  const char *low[4];
  int64_t lowDims[4];
} TSpec;

/// Emits `%res = rock.transform %src by #map : srcT to resT` where the map
/// has `nOps` transforms and the given upper (result) / lower (source)
/// shapes.
static void emitView(Buf *b, MlirContext ctx, const char *res, const char *src,
                     const char *elt, int nOps, const TSpec *ops, int nUpper,
                     const int64_t *upper, int nLower, const int64_t *lower) {
  MlirAttribute attrs[8];
  for (int i = 0; i < nOps; ++i)
    attrs[i] = rockTransformAttrCreate(
        ctx, ops[i].kind, ops[i].nParams, ops[i].params, ops[i].nUp, ops[i].up,
        ops[i].upDims, ops[i].nLow, ops[i].low, ops[i].lowDims);
  MlirAttribute map = rockTransformMapAttrCreate(ctx, nOps, attrs, nUpper,
                                                 upper, nLower, lower);
  // An alias keeps the op's trailing `: type` from being read as the
  // attribute's type.
  int id = b->defs->nMaps++;
  out(b->defs, "#map%d = ", id);
  mlirAttributePrint(map, printToBuf, b->defs);
  out(b->defs, "\n");
  out(b, "    %%%s = rock.transform %%%s by #map%d : %s to %s\n", res, src, id,
      memrefType(nLower, lower, elt).s, memrefType(nUpper, upper, elt).s);
}

/// A view of the flat `[d0*d1*...]` argument `src` as `[d0, d1, ...]`
/// (row-major), with the dimension names `names`.
static void emitUnflatten(Buf *b, MlirContext ctx, const char *res,
                          const char *src, const char *elt, int n,
                          const int64_t *dims, const char *const *names) {
  TSpec t = {ROCK_TRANSFORM_UNMERGE, n, {0}, n, {0}, {0}, 1, {"raw"}, {0}};
  int64_t total = 1;
  for (int i = 0; i < n; ++i) {
    t.params[i] = dims[i];
    t.up[i] = names[i];
    t.upDims[i] = i;
    total *= dims[i];
  }
  emitView(b, ctx, res, src, elt, 1, &t, n, dims, 1, &total);
}

/// A view of the flat `[1]` argument `src` broadcast to `[B, Sq, Sk]`.
static void emitScalarBroadcast(Buf *b, MlirContext ctx, const char *res,
                                const char *src, const char *elt, int64_t B,
                                int64_t Sq, int64_t Sk) {
  TSpec t[3] = {
      {ROCK_TRANSFORM_ADD_DIM, 1, {B}, 1, {"g"}, {0}, 0, {0}, {0}},
      {ROCK_TRANSFORM_ADD_DIM, 1, {Sq}, 1, {"m"}, {1}, 0, {0}, {0}},
      {ROCK_TRANSFORM_BROADCAST, 1, {1}, 1, {"n"}, {2}, 1, {"raw"}, {0}},
  };
  int64_t upper[3] = {B, Sq, Sk}, lower[1] = {1};
  emitView(b, ctx, res, src, elt, 3, t, 3, upper, 1, lower);
}

/// PassThrough of two dims named `x`, `y` from upper dims `ux`, `uy` to
/// lower dims `lx`, `ly`.
static TSpec passTwo(const char *x, const char *y, int64_t ux, int64_t uy,
                     int64_t lx, int64_t ly) {
  TSpec t = {ROCK_TRANSFORM_PASS_THROUGH,
             0,
             {0},
             2,
             {x, y},
             {ux, uy},
             2,
             {x, y},
             {lx, ly}};
  return t;
}

/// `--transBias`: the flat bias as rocmlir-gen stores it, `[B, Sk, Sq]`
/// (`%biast`), then the permutation to the score layout `ew` = `[B, Sq, Sk]`
/// (`%biasv`).
static void emitBiasTransposed(Buf *b, MlirContext ctx, const char *elt,
                               const int64_t *ew) {
  int64_t st[3] = {ew[0], ew[2], ew[1]};
  const char *stNames[3] = {"g", "n", "m"};
  emitUnflatten(b, ctx, "biast", "bias", elt, 3, st, stNames);
  TSpec t[2] = {
      {ROCK_TRANSFORM_PASS_THROUGH, 0, {0}, 1, {"g"}, {0}, 1, {"g"}, {0}},
      passTwo("m", "n", 1, 2, 2, 1)};
  emitView(b, ctx, "biasv", "biast", elt, 2, t, 3, ew, 3, st);
}

/// Merge{s0, s1} of upper dim 0 (`up`) into lower dims 0, 1 (`l0`, `l1`): a
/// batch index split into its two factors.
static TSpec mergeBatch(const char *up, int64_t s0, int64_t s1, const char *l0,
                        const char *l1) {
  TSpec t = {
      ROCK_TRANSFORM_MERGE, 2, {s0, s1}, 1, {up}, {0}, 2, {l0, l1}, {0, 1}};
  return t;
}

/// The per-group i32 view `src` (`[G]`) as one value per query batch
/// (`[G*Hq]`), in rocmlir-gen's three steps: AddDim `[G, 1]`, Broadcast
/// `[G, Hq]`, Merge `[G*Hq]`.
static void emitPerBatch(Buf *b, MlirContext ctx, const char *res,
                         const char *src, int64_t G, int64_t Hq) {
  char add[64], bc[64];
  snprintf(add, sizeof add, "%s_add", res);
  snprintf(bc, sizeof bc, "%s_bc", res);
  TSpec t1[2] = {
      {ROCK_TRANSFORM_PASS_THROUGH, 0, {0}, 1, {"g"}, {0}, 1, {"g"}, {0}},
      {ROCK_TRANSFORM_ADD_DIM, 1, {1}, 1, {"h"}, {1}, 0, {0}, {0}},
  };
  int64_t g1[2] = {G, 1}, g[1] = {G}, gh[2] = {G, Hq}, bq[1] = {G * Hq};
  emitView(b, ctx, add, src, "i32", 2, t1, 2, g1, 1, g);
  TSpec t2[2] = {
      {ROCK_TRANSFORM_PASS_THROUGH, 0, {0}, 1, {"g"}, {0}, 1, {"g"}, {0}},
      {ROCK_TRANSFORM_BROADCAST, 1, {1}, 1, {"h"}, {1}, 1, {"h"}, {1}},
  };
  emitView(b, ctx, bc, add, "i32", 2, t2, 2, gh, 2, g1);
  TSpec merge = mergeBatch("b", G, Hq, "g", "h");
  emitView(b, ctx, res, bc, "i32", 1, &merge, 1, bq, 2, gh);
}

/// The `[G*P]` i64 page-table argument `src` as `[G, P, 1]` (the operand of
/// rock.deref, docs/semantics.md §6).
static void emitPageTable(Buf *b, MlirContext ctx, const char *res,
                          const char *src, const RockAttentionConfig *c) {
  int64_t tbl[3] = {c->g, c->numPages, 1};
  const char *tblNames[3] = {"g", "p", "one"};
  emitUnflatten(b, ctx, res, src, "i64", 3, tbl, tblNames);
}

/// `%res = rock.deref %tbl`: the pages `[G, P, ps]` of page table `tbl`.
static void emitDeref(Buf *b, const char *res, const char *tbl, const char *elt,
                      const RockAttentionConfig *c) {
  int64_t t[3] = {c->g, c->numPages, 1},
          pages[3] = {c->g, c->numPages, c->pageSize};
  out(b, "    %%%s = rock.deref %%%s : %s -> %s\n", res, tbl,
      memrefType(3, t, "i64").s, memrefType(3, pages, elt).s);
}

/// The paged chain of docs/semantics.md §6 from the rock.deref result `src`
/// (`[G, P, ps]`) to the logical view `res`: `[G, P*ps]`, `[G, Hkv, Sk, D]`,
/// then `[Bkv, Sk, D]` (or `[Bkv, D, Sk]` when `dFirst`) in one map.
static void emitPagedView(Buf *b, MlirContext ctx, const char *res,
                          const char *src, const char *elt,
                          const RockAttentionConfig *c, bool dFirst) {
  int64_t G = c->g, P = c->numPages, ps = c->pageSize, Hkv = c->numHeadsKV,
          Sk = c->seqLenK, D = c->headDimQK;
  char n2[64], n3[64];
  snprintf(n2, sizeof n2, "%s_flat", res);
  snprintf(n3, sizeof n3, "%s_heads", res);
  int64_t pages[3] = {G, P, ps};
  // [G, P*ps] -> [G, P, ps]
  TSpec m1[2] = {
      {ROCK_TRANSFORM_PASS_THROUGH, 0, {0}, 1, {"g"}, {0}, 1, {"g"}, {0}},
      {ROCK_TRANSFORM_MERGE, 2, {P, ps}, 1, {"f"}, {1}, 2, {"p", "i"}, {1, 2}},
  };
  int64_t flat[2] = {G, P * ps};
  emitView(b, ctx, n2, src, elt, 2, m1, 2, flat, 3, pages);
  // [G, Hkv, Sk, D] -> [G, P*ps]
  TSpec u1[2] = {
      {ROCK_TRANSFORM_PASS_THROUGH, 0, {0}, 1, {"g"}, {0}, 1, {"g"}, {0}},
      {ROCK_TRANSFORM_UNMERGE,
       3,
       {Hkv, Sk, D},
       3,
       {"h", "s", "d"},
       {1, 2, 3},
       1,
       {"f"},
       {1}},
  };
  int64_t heads[4] = {G, Hkv, Sk, D};
  emitView(b, ctx, n3, n2, elt, 2, u1, 4, heads, 2, flat);
  // [Bkv, Sk, D] (or [Bkv, D, Sk]) -> [G, Hkv, Sk, D]
  TSpec m2[2] = {mergeBatch("b", G, Hkv, "g", "h"),
                 dFirst ? passTwo("d", "s", 1, 2, 3, 2)
                        : passTwo("s", "d", 1, 2, 2, 3)};
  int64_t view[3] = {G * Hkv, dFirst ? D : Sk, dFirst ? Sk : D};
  emitView(b, ctx, res, n3, elt, 2, m2, 3, view, 4, heads);
}

//===----------------------------------------------------------------------===//
// Module pieces
//===----------------------------------------------------------------------===//

static void emitBoolKey(Buf *b, const char *key, bool v) {
  out(b, ", %s = %s", key, v ? "true" : "false");
}

static void emitListKey(Buf *b, const char *key, const int64_t *v, int64_t n,
                        int64_t G) {
  if (n <= 0)
    return;
  out(b, ", %s = array<i64: ", key);
  for (int64_t i = 0; i < G; ++i)
    out(b, "%s%" PRId64, i ? ", " : "", v[n == 1 ? 0 : i]);
  out(b, ">");
}

static void emitHarness(Buf *b, const RockAttentionConfig *c,
                        const RockAttentionHarness *h) {
#define STR(x, d) ((x) ? (x) : (d))
  out(b, "rock.harness = {t = \"%s\", g = %" PRId64 " : i64",
      rockAttentionDtypeGetName(c->dtype), c->g);
  out(b, ", num_heads_q = %" PRId64 " : i64, num_heads_kv = %" PRId64 " : i64",
      c->numHeadsQ, c->numHeadsKV);
  out(b, ", seq_len_q = %" PRId64 " : i64, seq_len_k = %" PRId64 " : i64",
      c->seqLenQ, c->seqLenK);
  out(b, ", head_dim_qk = %" PRId64 " : i64, head_dim_v = %" PRId64 " : i64",
      c->headDimQK, c->headDimV);
  emitBoolKey(b, "causal", c->causal);
  emitBoolKey(b, "return_lse", c->returnLse);
  emitBoolKey(b, "with_attn_scale", c->withScale);
  emitBoolKey(b, "with_attn_bias", c->withBias);
  emitBoolKey(b, "transQ", c->transQ);
  emitBoolKey(b, "transK", c->transK);
  emitBoolKey(b, "transV", c->transV);
  emitBoolKey(b, "transO", c->transO);
  if (c->transBias)
    emitBoolKey(b, "transBias", true);
  emitBoolKey(b, "paged", c->paged);
  emitBoolKey(b, "reverse_grid", c->reverseGrid);
  out(b, ", split_kv = %" PRId64 " : i64", c->splitKV);
  out(b, ", num_pages = %" PRId64 " : i64, page_size = %" PRId64 " : i64",
      c->paged ? c->numPages : 0, c->paged ? c->pageSize : 0);
  emitListKey(b, "current_seq_len", c->currentSeqLen, c->numCurrentSeqLen,
              c->g);
  emitListKey(b, "prefix_offset", c->prefixOffset, c->numPrefixOffset, c->g);
  if (c->slidingWindowSize > 0)
    out(b, ", sliding_window_size = %" PRId64 " : i64", c->slidingWindowSize);
  if (c->causalLookBack > 0)
    out(b, ", causal_look_back = %" PRId64 " : i64", c->causalLookBack);
  out(b, ", softmax_dtype = \"%s\"",
      rockAttentionDtypeGetName(c->softmaxDtype));
  out(b, ", region_dtype = \"%s\"", attnRegionType(c));
  out(b, ", verifier = ");
  outString(b, STR(h->verifier, "none"));
  out(b, ", rand = ");
  outString(b, STR(h->rand, "distinct"));
  out(b, ", rand_type = ");
  outString(b, STR(h->randType, "int"));
  out(b, ", rand_min = ");
  outF64(b, h->randMin);
  out(b, ", rand_max = ");
  outF64(b, h->randMax);
  out(b, ", rand_min_int = %" PRId64 " : i64, rand_max_int = %" PRId64 " : i64",
      h->randMinInt, h->randMaxInt);
  if (h->hasRMS) {
    out(b, ", RMS_threshold = ");
    outF64(b, h->rmsThreshold);
  }
  if (h->hasAbsDiff) {
    out(b, ", absDiff_threshold = ");
    outF64(b, h->absDiffThreshold);
  }
  if (h->hasRelDiff) {
    out(b, ", relDiff_threshold = ");
    outF64(b, h->relDiffThreshold);
  }
  if (h->hasAtol) {
    out(b, ", atol = ");
    outF64(b, h->atol);
  }
  if (h->hasRtol) {
    out(b, ", rtol = ");
    outF64(b, h->rtol);
  }
  out(b, ", comparator = ");
  outString(b, STR(h->comparator, "legacy"));
  out(b, ", kernel_repeats = %" PRId64 " : i64", h->kernelRepeats);
  emitBoolKey(b, "print_results", h->printResults);
  emitBoolKey(b, "print_inputs", h->printInputs);
  emitBoolKey(b, "print_validation_results", h->printValidationResults);
  out(b, ", print_verify_results = ");
  outString(b, STR(h->printVerifyResults, "summary"));
  out(b, ", arch = ");
  outString(b, STR(h->arch, ""));
  if (c->perfConfig && c->perfConfig[0]) {
    out(b, ", perf_config = ");
    outString(b, c->perfConfig);
  }
  out(b, "}");
#undef STR
}

/// Appends the ops converting the float `%src` of type `from` to `to` as
/// `%dst` (a widening extf, a narrowing truncf, or both through f32); returns
/// the name of the converted value (`src` itself when the types agree).
static const char *emitFloatConv(Buf *b, const char *dst, const char *src,
                                 const char *from, const char *to) {
  if (!strcmp(from, to))
    return src;
  bool wide = !strcmp(from, "f32"), toF32 = !strcmp(to, "f32");
  if (!wide && !toF32) { // f16 <-> bf16: exact through f32
    out(b, "          %s_w = arith.extf %s : %s to f32\n", dst, src, from);
    out(b, "          %s = arith.truncf %s_w : f32 to %s\n", dst, dst, to);
  } else {
    out(b, "          %s = arith.%s %s : %s to %s\n", dst,
        wide ? "truncf" : "extf", src, from, to);
  }
  return dst;
}

/// The pre-softmax region (docs/semantics.md §2.2) in rocmlir-gen's linalg
/// form, or nothing when it is empty: the block takes the score tile
/// `memref<[B, Sq, Sk] x acc>`, the elementwise inputs and the output tile,
/// and one linalg.generic computes the score element by element (rock's
/// scalar form, which rock.attention also accepts, is that generic's body).
/// It computes in attnRegionType(c): the accumulator has that type (i32 for
/// i8) and each elementwise input is converted to it.
static void emitRegion(Buf *b, const RockAttentionConfig *c, const char *vElt,
                       const TypeStr *insTypes, int nIns, const int64_t *ew) {
  bool i8 = c->dtype == ROCK_ATTENTION_I8;
  if (nIns == 0)
    return;
  static const char *const insNames[4] = {"%qbv", "%qsv", "%scalev", "%biasv"};
  const char *names[4];
  const char *elts[4];
  int k = 0;
  if (i8) {
    names[k] = insNames[0];
    elts[k++] = "i8";
    names[k] = insNames[1];
    elts[k++] = "f16";
  }
  if (c->withScale) {
    names[k] = insNames[2];
    elts[k++] = vElt;
  }
  if (c->withBias) {
    names[k] = insNames[3];
    elts[k++] = vElt;
  }
  const char *ty = attnRegionType(c);
  const char *acc = i8 ? "i32" : ty;
  TypeStr qkT = memrefType(3, ew, acc), resT = memrefType(3, ew, ty);
  out(b, "      qk = elementwise otherIns(");
  for (int i = 0; i < nIns; ++i)
    out(b, "%s%s", i ? ", " : "", names[i]);
  out(b, " : ");
  for (int i = 0; i < nIns; ++i)
    out(b, "%s%s", i ? ", " : "", insTypes[i].s);
  out(b, ") {\n      ^bb0(%%qk: %s", qkT.s);
  for (int i = 0; i < nIns; ++i)
    out(b, ", %%ew%d: %s", i, insTypes[i].s);
  out(b, ", %%res: %s):\n", resT.s);
  out(b, "        linalg.generic {indexing_maps = [");
  for (int i = 0; i < nIns + 2; ++i)
    out(b, "%saffine_map<(d0, d1, d2) -> (d0, d1, d2)>", i ? ", " : "");
  out(b, "], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} "
         "ins(%%qk");
  for (int i = 0; i < nIns; ++i)
    out(b, ", %%ew%d", i);
  out(b, " : %s", qkT.s);
  for (int i = 0; i < nIns; ++i)
    out(b, ", %s", insTypes[i].s);
  out(b, ") outs(%%res : %s) {\n        ^bb0(%%acc: %s", resT.s, acc);
  for (int i = 0; i < nIns; ++i)
    out(b, ", %%in%d: %s", i, elts[i]);
  out(b, ", %%o: %s):\n", ty);
  const char *cur = "%acc";
  int in = 0;
  if (i8) {
    out(b, "          %%qb32 = arith.extsi %%in0 : i8 to i32\n");
    out(b, "          %%deq = arith.subi %%acc, %%qb32 : i32\n");
    out(b, "          %%deqf = arith.sitofp %%deq : i32 to %s\n", ty);
    const char *qs = emitFloatConv(b, "%qs", "%in1", "f16", ty);
    out(b, "          %%quant = arith.mulf %%deqf, %s : %s\n", qs, ty);
    cur = "%quant";
    in = 2;
  }
  if (c->withScale) {
    char src[16];
    snprintf(src, sizeof src, "%%in%d", in++);
    const char *sv = emitFloatConv(b, "%sc", src, vElt, ty);
    out(b, "          %%scaled = arith.mulf %s, %s : %s\n", cur, sv, ty);
    cur = "%scaled";
  }
  if (c->withBias) {
    char src[16];
    snprintf(src, sizeof src, "%%in%d", in++);
    const char *bv = emitFloatConv(b, "%bi", src, vElt, ty);
    out(b, "          %%biased = arith.addf %s, %s : %s\n", cur, bv, ty);
    cur = "%biased";
  }
  out(b,
      "          linalg.yield %s : %s\n        }\n        rock.yield\n"
      "      }\n",
      cur, ty);
}

/// The attributes of @rock_attention: rocmlir-gen's `{mhal.arch = ...,
/// rock.kernel}` (and its `rock.schedule_version` when given) for a GPU
/// target `gpuArch`, else the C interface the CPU JIT calls (rock-run also
/// adds it to a module that lacks it).
static void emitKernelAttrs(Buf *b, const char *gpuArch, int64_t schedule) {
  if (gpuArch) {
    out(b, " attributes {mhal.arch = ");
    outString(b, gpuArch);
    out(b, ", rock.kernel");
    if (schedule > 0)
      out(b, ", rock.schedule_version = #rock.rock.schedule_version<%lld>",
          (long long)schedule);
    out(b, "}");
  } else {
    out(b, " attributes {llvm.emit_c_interface}");
  }
}

static void emitAttentionFunc(Buf *b, MlirContext ctx,
                              const RockAttentionConfig *c,
                              const char *gpuArch) {
  bool i8 = c->dtype == ROCK_ATTENTION_I8;
  const char *qElt = rockAttentionDtypeGetName(c->dtype);
  const char *vElt = i8 ? "f16" : qElt;
  int64_t G = c->g, Hq = c->numHeadsQ, Hkv = c->numHeadsKV, S = c->splitKV;
  int64_t B = G * Hq, Bkv = G * Hkv, Sq = c->seqLenQ, Sk = c->seqLenK,
          Dqk = c->headDimQK, Dv = c->headDimV;

  // Signature (docs/user-guide.md §2.3).
  AttnArg args[ATTN_MAX_ARGS];
  int nArgs = rock__attnArgs(c, false, args);
  out(b, "  func.func @rock_attention(");
  rock__attnArgsPrint(b, args, nArgs, "");
  out(b, ")");
  emitKernelAttrs(b, gpuArch, c->scheduleVersion);
  out(b, " {\n");

  // Views, in rocmlir-gen's order: one per argument (in argument order),
  // then the rock.deref of each page table, the per-batch chains of
  // currentSeqLen / prefixOffset, and the K / V chains.
  int64_t qShape[3] = {B, c->transQ ? Dqk : Sq, c->transQ ? Sq : Dqk};
  const char *qNames[3] = {"g", c->transQ ? "k" : "m", c->transQ ? "m" : "k"};
  emitUnflatten(b, ctx, "q3", "q", qElt, 3, qShape, qNames);
  int64_t kShape[3] = {Bkv, c->transK ? Sk : Dqk, c->transK ? Dqk : Sk};
  int64_t vShape[3] = {Bkv, c->transV ? Dv : Sk, c->transV ? Sk : Dv};
  if (c->paged) {
    emitPageTable(b, ctx, "k_tbl", "k", c);
    emitPageTable(b, ctx, "v_tbl", "v", c);
  } else {
    const char *kNames[3] = {"g", c->transK ? "n" : "k", c->transK ? "k" : "n"};
    emitUnflatten(b, ctx, "k_kv", "k", qElt, 3, kShape, kNames);
    const char *vNames[3] = {"g", c->transV ? "d" : "n", c->transV ? "n" : "d"};
    emitUnflatten(b, ctx, "v_kv", "v", vElt, 3, vShape, vNames);
  }
  TypeStr insTypes[4];
  int nIns = 0;
  int64_t ew[3] = {B, Sq, Sk};
  const char *ewNames[3] = {"g", "m", "n"};
  if (i8) {
    emitScalarBroadcast(b, ctx, "qbv", "quant_bias", "i8", B, Sq, Sk);
    insTypes[nIns++] = memrefType(3, ew, "i8");
    emitScalarBroadcast(b, ctx, "qsv", "quant_scale", "f16", B, Sq, Sk);
    insTypes[nIns++] = memrefType(3, ew, "f16");
  }
  if (c->withScale) {
    emitUnflatten(b, ctx, "scalev", "scale", vElt, 3, ew, ewNames);
    insTypes[nIns++] = memrefType(3, ew, vElt);
  }
  if (c->withBias && c->transBias) {
    emitBiasTransposed(b, ctx, vElt, ew);
    insTypes[nIns++] = memrefType(3, ew, vElt);
  } else if (c->withBias) {
    emitUnflatten(b, ctx, "biasv", "bias", vElt, 3, ew, ewNames);
    insTypes[nIns++] = memrefType(3, ew, vElt);
  }
  const char *gNames[1] = {"g"};
  if (c->numCurrentSeqLen > 0)
    emitUnflatten(b, ctx, "csl_g", "current_seq_len", "i32", 1, &G, gNames);
  if (c->numPrefixOffset > 0)
    emitUnflatten(b, ctx, "po_g", "prefix_offset", "i32", 1, &G, gNames);
  int64_t lseShape[2] = {B * S, Sq};
  const char *lseNames[2] = {"g", "m"};
  if (c->returnLse)
    emitUnflatten(b, ctx, "lse2", "lse", "f32", 2, lseShape, lseNames);
  int64_t oShape[3] = {B * S, c->transO ? Dv : Sq, c->transO ? Sq : Dv};
  const char *oNames[3] = {"g", c->transO ? "n" : "m", c->transO ? "m" : "n"};
  emitUnflatten(b, ctx, "out3", "out", vElt, 3, oShape, oNames);
  if (c->paged) {
    emitDeref(b, "k_pages", "k_tbl", qElt, c);
    emitDeref(b, "v_pages", "v_tbl", vElt, c);
  }
  if (c->numCurrentSeqLen > 0)
    emitPerBatch(b, ctx, "cslv", "csl_g", G, Hq);
  if (c->numPrefixOffset > 0)
    emitPerBatch(b, ctx, "pov", "po_g", G, Hq);
  if (c->paged) {
    emitPagedView(b, ctx, "k_kv", "k_pages", qElt, c, !c->transK);
    emitPagedView(b, ctx, "v_kv", "v_pages", vElt, c, c->transV);
  }
  // K / V keep their Bkv heads and the op its numHeadsKV, as current
  // rocmlir-gen emits them (older versions broadcast K / V to every query
  // head with a KV cache and more than one query row;
  // rock-attention-to-gridwise still reads that form as grouped-query).
  const char *kName = "k_kv", *vName = "v_kv";

  // The op.
  TypeStr qT = memrefType(3, qShape, qElt), kT = memrefType(3, kShape, qElt),
          vT = memrefType(3, vShape, vElt), oT = memrefType(3, oShape, vElt);
  int64_t bq[1] = {B};
  TypeStr bT = memrefType(1, bq, "i32");
  out(b, "    rock.attention {\n");
  out(b, "      qk = %s%%q3 * %s%%%s : %s, %s\n", c->transQ ? "tr " : "",
      c->transK ? "tr " : "", kName, qT.s, kT.s);
  if (c->numCurrentSeqLen > 0)
    out(b, "      currentSeqLen = (%%cslv : %s)\n", bT.s);
  if (c->numPrefixOffset > 0)
    out(b, "      prefixOffset = (%%pov : %s)\n", bT.s);
  if (c->paged) {
    int64_t pages[3] = {G, c->numPages, c->pageSize};
    out(b, "      keyAddresses = (%%k_pages : %s)\n",
        memrefType(3, pages, qElt).s);
    out(b, "      valueAddresses = (%%v_pages : %s)\n",
        memrefType(3, pages, vElt).s);
  }
  if (c->causal)
    out(b, "      causal\n");
  if (c->returnLse)
    out(b, "      lse = %%lse2 : %s\n", memrefType(2, lseShape, "f32").s);
  emitRegion(b, c, vElt, insTypes, nIns, ew);
  out(b, "      %s%%out3 = softmax(qk) * %s%%%s : %s -> %s\n",
      c->transO ? "tr " : "", c->transV ? "tr " : "", vName, vT.s, oT.s);
  out(b,
      "    } {numHeadsQ = %" PRId64 " : i32, numHeadsKV = %" PRId64
      " : i32, splitKV = %" PRId64 " : i32",
      Hq, Hkv, S);
  out(b, ", storeMethod = #rock<StoreMethod set>, firstGemmIndices = "
         "array<i64: 0>, preSoftmaxHasSplitKVTransforms = false");
  out(b, ", softmaxType = %s", rockAttentionDtypeGetName(c->softmaxDtype));
  if (c->slidingWindowSize > 0)
    out(b, ", slidingWindowSize = %" PRId64 " : i32", c->slidingWindowSize);
  if (c->causalLookBack > 0)
    out(b, ", causalLookBack = %" PRId64 " : i32", c->causalLookBack);
  if (c->perfConfig && c->perfConfig[0]) {
    out(b, ", perf_config = ");
    outString(b, c->perfConfig);
  }
  if (c->reverseGrid)
    out(b, ", reverseGrid");
  out(b, "}\n    return\n  }\n");
}

static void emitCombineFunc(Buf *b, MlirContext ctx,
                            const RockAttentionConfig *c) {
  const char *elt = rockAttentionDtypeGetName(
      c->dtype == ROCK_ATTENTION_I8 ? ROCK_ATTENTION_F16 : c->dtype);
  int64_t B = c->g * c->numHeadsQ, S = c->splitKV, Sq = c->seqLenQ,
          Dv = c->headDimV;
  out(b, "  func.func @rock_attention_combine(%%out_partial: %s",
      flatType(B * S * Sq * Dv, elt).s);
  out(b, ", %%lse_partial: %s", flatType(B * S * Sq, "f32").s);
  out(b, ", %%out: %s", flatType(B * Sq * Dv, elt).s);
  out(b, ", %%lse: %s) attributes {llvm.emit_c_interface} {\n",
      flatType(B * Sq, "f32").s);
  int64_t po[3] = {B * S, c->transO ? Dv : Sq, c->transO ? Sq : Dv};
  int64_t o[3] = {B, po[1], po[2]};
  int64_t pl[2] = {B * S, Sq}, l[2] = {B, Sq};
  const char *oNames[3] = {"g", c->transO ? "n" : "m", c->transO ? "m" : "n"};
  const char *lNames[2] = {"g", "m"};
  emitUnflatten(b, ctx, "po3", "out_partial", elt, 3, po, oNames);
  emitUnflatten(b, ctx, "pl2", "lse_partial", "f32", 2, pl, lNames);
  emitUnflatten(b, ctx, "o3", "out", elt, 3, o, oNames);
  emitUnflatten(b, ctx, "l2", "lse", "f32", 2, l, lNames);
  out(b,
      "    rock.attention_combine %%po3, %%pl2 into %%o3, %%l2 {splitKV = "
      "%" PRId64 " : i32%s} : %s, %s -> %s, %s\n",
      S, c->transO ? ", oTransposed" : "", memrefType(3, po, elt).s,
      memrefType(2, pl, "f32").s, memrefType(3, o, elt).s,
      memrefType(2, l, "f32").s);
  out(b, "    return\n  }\n");
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

static void loadDialects(MlirContext ctx) {
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__arith__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__memref__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__linalg__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__scf__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__tensor__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__tosa__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__vector__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__math__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__bufferization__(), ctx);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__rock__(), ctx);
}

char *rockAttentionBuildModuleText(MlirContext ctx,
                                   const RockAttentionConfig *cfg,
                                   const RockAttentionHarness *harness) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  RockAttentionConfig c = *cfg;
  char err[512];
  if (!rockAttentionConfigValidate(&c, err, sizeof err)) {
    mlirEmitError(loc, err);
    return NULL;
  }
  RockAttentionHarness defaults;
  rockAttentionHarnessInit(&defaults);
  const RockAttentionHarness *h = harness ? harness : &defaults;
  loadDialects(ctx);

  Buf defs = {0};
  Buf b = {0};
  b.defs = &defs;
  /* A GPU target (rock-c/GpuTarget.h) is recorded verbatim as mhal.arch, as
   * rocmlir-gen does, which the GPU pipeline reads; anything else (empty,
   * "cpu", a host CPU name) keeps the CPU path. */
  const char *arch = h->arch ? h->arch : "";
  RockGpuTarget tgt;
  if (!rockGpuTargetParse(arch, &tgt, err, sizeof err)) {
    mlirEmitError(loc, err);
    return NULL;
  }
  /* No perf_config: the perf DB's entry for the problem, if it has one. */
  char fromDb[512];
  if ((!c.perfConfig || !c.perfConfig[0]) && c.perfDb &&
      rockAttentionResolvePerfConfig(&c, arch, rockTuningDefaultNumCu(arch),
                                     c.perfDb, fromDb, sizeof fromDb, err,
                                     sizeof err) == ROCK_PERF_FROM_DB)
    c.perfConfig = fromDb;
  const char *gpuArch = tgt.vendor != ROCK_GPU_NONE ? arch : NULL;
  /* With the host functions the harness is on @main and the module's
   * attributes are rocmlir-gen's, `{mhal.arch = ...}`. */
  const char *sep = "";
  out(&b, "module attributes {");
  if (gpuArch) {
    out(&b, "mhal.arch = ");
    outString(&b, gpuArch);
    sep = ", ";
  }
  if (!h->hostFunctions) {
    out(&b, "%s", sep);
    emitHarness(&b, &c, h);
    sep = ", ";
  }
  if (c.deviceMemBytes > 0)
    out(&b, "%srock.device_mem_bytes = %" PRId64 " : i64", sep,
        c.deviceMemBytes);
  out(&b, "} {\n");
  emitAttentionFunc(&b, ctx, &c, gpuArch);
  if (c.splitKV > 1)
    emitCombineFunc(&b, ctx, &c);
  if (h->hostFunctions) {
    rock__emitHostReference(&b, &c);
    rock__emitHostMain(&b, &c, h, gpuArch != NULL, emitHarness);
  }
  out(&b, "}\n");
  append(&defs, b.text.data ? b.text.data : "", b.text.len);
  rock__strFree(&b.text);
  return defs.text.data; // malloc'ed: the caller frees it
}

MlirModule
rockAttentionBuildModuleWithHarness(MlirContext ctx,
                                    const RockAttentionConfig *cfg,
                                    const RockAttentionHarness *harness) {
  MlirModule null = {NULL};
  char *text = rockAttentionBuildModuleText(ctx, cfg, harness);
  if (!text)
    return null;
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(m))
    return null; // The parser emitted the diagnostic.
  if (!mlirOperationVerify(mlirModuleGetOperation(m))) {
    mlirModuleDestroy(m); // The verifier emitted the diagnostic.
    return null;
  }
  return m;
}

MlirModule rockAttentionBuildModule(MlirContext ctx,
                                    const RockAttentionConfig *cfg) {
  return rockAttentionBuildModuleWithHarness(ctx, cfg, NULL);
}
