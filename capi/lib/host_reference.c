/*===- host_reference.c - rocmlir-gen's @host_naive_attention -------------===*
 *
 * The host reference rocmlir-gen emits next to the kernel, in TOSA on
 * tensors with rocmlir-gen's structure, computing docs/semantics.md:
 *   1. Q, K, V from the flat arguments (transposed back as trans* say); with
 *      grouped-query heads K and V broadcast to every query head
 *      (expand_shape, tosa.mul by ones, collapse_shape);
 *   2. scores = Q·K in f32 (i32 for i8), then the pre-softmax region in its
 *      own types (attnRegionType; i8's dequantise step is a linalg.generic),
 *      cast to softmaxType;
 *   3. the masks of §3 on the [G, Hq, Sq, Sk] view, −inf where a key is
 *      hidden;
 *   4. the softmax, with rocmlir-gen's finite guards (the row max raised to
 *      the lowest float, the row sum to 1) when a row may be fully masked or
 *      the LSE is returned (§2.4: O = 0, lse = −inf);
 *   5. P (in V's type) · V in f32, cast to out's type, and with split-KV the
 *      result broadcast to every split's partial (the host harness combines
 *      the kernel's partials before it compares).
 * Paged K / V are read as the dense logical buffers (attention_args.h).
 *
 *===----------------------------------------------------------------------===*/
#include "host_reference.h"
#include "attention_args.h"
#include "host_tosa.h"

typedef struct Ref {
  HostGen g;
  const RockAttentionConfig *c;
  const char *qElt, *vElt, *sm, *acc;
  int64_t G, Hq, Hkv, B, Bkv, R, Sq, Sk, Dqk, Dv, S;
} Ref;

/* A flat argument viewed as the rank-3 `[d0, d1, d2]`, transposed to
 * `[d0, d2, d1]` when `tr`. */
static int input3(Ref *r, const char *name, const char *elt, int64_t d0,
                  int64_t d1, int64_t d2, bool tr, HT *t) {
  int64_t n = d0 * d1 * d2, dims[3] = {d0, tr ? d2 : d1, tr ? d1 : d2};
  int x = rock__hToTensor(&r->g, name, n, elt);
  *t = rock__ht(3, dims, elt);
  x = rock__hReshape(&r->g, x, rock__ht(1, &n, elt), *t);
  return tr ? rock__hTranspose3(&r->g, x, *t, t) : x;
}

/* `[Bkv, a, b]` -> `[Bkv, 1, a, b]` -> `[Bkv, R, a, b]` -> `[B, a, b]`. */
static int headBroadcast(Ref *r, int x, HT *t) {
  if (r->R == 1)
    return x;
  HT e, m;
  x = rock__hExpand(&r->g, x, *t, 0, &e);
  x = rock__hBroadcastMul(&r->g, x, e, 1, r->R, &m);
  return rock__hCollapse(&r->g, x, m, 0, t);
}

/* Scores rounded to softmaxType are then computed with in f32, as the
 * kernel does (passes/attention/softmax.c). */
static int widen(Ref *r, int x, HT *t) {
  if (!strcmp(t->elt, "f32"))
    return x;
  x = rock__hCast(&r->g, x, *t, "f32");
  *t = rock__htElt(*t, "f32");
  return x;
}

/* Appends the conversion of the float scalar `src` from `from` to `to` as
 * `dst` (through f32 between f16 and bf16); returns the converted name. */
static const char *floatConv(Buf *b, const char *dst, const char *src,
                             const char *from, const char *to) {
  if (!strcmp(from, to))
    return src;
  if (strcmp(from, "f32") && strcmp(to, "f32")) {
    out(b, "      %s_w = arith.extf %s : %s to f32\n", dst, src, from);
    out(b, "      %s = arith.truncf %s_w : f32 to %s\n", dst, dst, to);
  } else {
    out(b, "      %s = arith.%s %s : %s to %s\n", dst,
        strcmp(from, "f32") ? "extf" : "truncf", src, from, to);
  }
  return dst;
}

/* The elementwise input `name` ([B * Sq * Sk] flat) as a tensor of `te`
 * ([B, Sq, Sk]); with --transBias the bias is stored [B, Sk, Sq] and is
 * transposed first, as the kernel's view reads it. */
static int ewInput(Ref *r, const char *name, HT te) {
  int64_t n = r->B * r->Sq * r->Sk;
  int x = rock__hToTensor(&r->g, name, n, r->vElt);
  if (!r->c->transBias || strcmp(name, "bias"))
    return rock__hReshape(&r->g, x, rock__ht(1, &n, r->vElt), te);
  int64_t sd[3] = {te.d[0], te.d[2], te.d[1]};
  HT ts = rock__ht(3, sd, r->vElt), tt;
  x = rock__hReshape(&r->g, x, rock__ht(1, &n, r->vElt), ts);
  return rock__hTranspose3(&r->g, x, ts, &tt);
}

/* i8: (s − quantBias) in i32, to the region's type, × quantScale, the scale
 * and bias in that type (each input converted to it, as the kernel's region
 * does), then softmaxType: one linalg.generic. */
static int dequantRegion(Ref *r, int qk, HT tq, HT *t) {
  const RockAttentionConfig *c = r->c;
  const char *rt = attnRegionType(c);
  int64_t one = 1;
  int zp = rock__hToTensor(&r->g, "quant_bias", 1, "i8");
  int qs = rock__hToTensor(&r->g, "quant_scale", 1, "f16");
  int ew[2], nEw = 0;
  HT te = rock__ht(3, tq.d, r->vElt);
  const char *ewNames[2] = {"scale", "bias"};
  bool has[2] = {c->withScale, c->withBias};
  for (int i = 0; i < 2; ++i)
    if (has[i])
      ew[nEw++] = ewInput(r, ewNames[i], te);
  *t = rock__htElt(tq, r->sm);
  int e = r->g.next++, y = r->g.next++;
  Buf *b = r->g.b;
  out(b, "    %%t%d = tensor.empty() : %s\n", e, rock__htStr(*t).s);
  const char *id = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>",
             *bc = "affine_map<(d0, d1, d2) -> (0)>";
  out(b, "    %%t%d = linalg.generic {indexing_maps = [%s, %s, %s", y, id, bc,
      bc);
  for (int i = 0; i < nEw; ++i)
    out(b, ", %s", id);
  out(b,
      ", %s], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}"
      " ins(%%t%d, %%t%d, %%t%d",
      id, qk, zp, qs);
  for (int i = 0; i < nEw; ++i)
    out(b, ", %%t%d", ew[i]);
  out(b, " : %s, %s, %s", rock__htStr(tq).s,
      shapedType("tensor", 1, &one, "i8").s,
      shapedType("tensor", 1, &one, "f16").s);
  for (int i = 0; i < nEw; ++i)
    out(b, ", %s", rock__htStr(te).s);
  out(b, ") outs(%%t%d : %s) {\n    ^bb0(%%s: i32, %%zp: i8, %%qs: f16", e,
      rock__htStr(*t).s);
  for (int i = 0; i < nEw; ++i)
    out(b, ", %%ew%d: %s", i, r->vElt);
  out(b, ", %%o: %s):\n", r->sm);
  out(b,
      "      %%zp32 = arith.extsi %%zp : i8 to i32\n"
      "      %%d = arith.subi %%s, %%zp32 : i32\n"
      "      %%df = arith.sitofp %%d : i32 to %s\n",
      rt);
  const char *qsv = floatConv(b, "%qsr", "%qs", "f16", rt);
  out(b, "      %%x0 = arith.mulf %%df, %s : %s\n", qsv, rt);
  const char *cur = "%x0";
  static const char *const ops[2] = {"arith.mulf", "arith.addf"};
  for (int i = 0, k = 0; i < 2; ++i)
    if (has[i]) {
      char src[16], dst[16];
      snprintf(src, sizeof src, "%%ew%d", k++);
      snprintf(dst, sizeof dst, "%%ewr%d", i);
      const char *ev = floatConv(b, dst, src, r->vElt, rt);
      out(b, "      %%x%d = %s %s, %s : %s\n", i + 1, ops[i], cur, ev, rt);
      cur = i ? "%x2" : "%x1";
    }
  if (strcmp(rt, r->sm)) {
    /* to softmaxType, through f32 between f16 and bf16 */
    if (strcmp(rt, "f32")) {
      out(b, "      %%xw = arith.extf %s : %s to f32\n", cur, rt);
      cur = "%xw";
    }
    if (strcmp(r->sm, "f32")) {
      out(b, "      %%xs = arith.truncf %s : f32 to %s\n", cur, r->sm);
      cur = "%xs";
    }
  }
  out(b, "      linalg.yield %s : %s\n    } -> %s\n", cur, r->sm,
      rock__htStr(*t).s);
  return widen(r, y, t);
}

/* An elementwise input `x` of type `te` in the region's type `t` (a cast
 * when they differ). */
static int ewTo(Ref *r, int x, HT te, HT t) {
  return strcmp(te.elt, t.elt) ? rock__hCast(&r->g, x, te, t.elt) : x;
}

/* Float: the scale and bias in the region's type, then softmaxType. */
static int floatRegion(Ref *r, int qk, HT tq, HT *t) {
  const RockAttentionConfig *c = r->c;
  int x = qk;
  *t = tq;
  if (c->withScale || c->withBias) {
    const char *rt = attnRegionType(c);
    if (strcmp(rt, t->elt)) {
      x = rock__hCast(&r->g, x, *t, rt);
      *t = rock__htElt(*t, rt);
    }
    int64_t n = r->B * r->Sq * r->Sk;
    HT te = rock__htElt(*t, r->vElt);
    if (c->withScale) {
      int s = rock__hReshape(&r->g, rock__hToTensor(&r->g, "scale", n, r->vElt),
                             rock__ht(1, &n, r->vElt), te);
      s = ewTo(r, s, te, *t);
      x = rock__hMul(&r->g, x, *t, s, *t, *t);
    }
    if (c->withBias) {
      int s = ewInput(r, "bias", te);
      s = ewTo(r, s, te, *t);
      x = rock__hBinary(&r->g, "tosa.add", x, *t, s, *t, *t);
    }
  }
  x = rock__hCast(&r->g, x, *t, r->sm);
  *t = rock__htElt(*t, r->sm);
  return widen(r, x, t);
}

/* A `[G]` i32 argument as `[G, 1, 1, 1]` (*t4). */
static int perGroup(Ref *r, const char *name, HT *t4) {
  int64_t g4[4] = {r->G, 1, 1, 1};
  HT t1 = rock__ht(1, &r->G, "i32");
  *t4 = rock__ht(4, g4, "i32");
  int x = rock__hToTensor(&r->g, name, r->G, "i32");
  x = rock__hReshape(&r->g, x, t1, t1);
  return rock__hReshape(&r->g, x, t1, *t4);
}

/* `x` of type `t` broadcast to `m4`'s shape (tosa.mul by ones). */
static int spread(Ref *r, int x, HT t, HT m4) {
  int ones = rock__hConst(&r->g, m4, "1");
  return rock__hMul(&r->g, x, t, ones, m4, m4);
}

/* 0 .. n-1 along dim `dim` of `m4`, broadcast to its shape. */
static int positions(Ref *r, int64_t n, int dim, HT m4) {
  int64_t d[4] = {1, 1, 1, 1};
  d[dim] = n;
  HT t1 = rock__ht(1, &n, "i32"), t4 = rock__ht(4, d, "i32");
  int x = rock__hReshape(&r->g, rock__hRange(&r->g, n), t1, t4);
  return spread(r, x, t4, m4);
}

/* Scores where `hideMask` (i1) holds become −inf. */
static int hide(Ref *r, int s, HT t4, int hideMask, HT m1) {
  return rock__hSelect(&r->g, hideMask, m1,
                       rock__hConst(&r->g, t4, "0xFF800000"), t4, s, t4);
}

/* A splat i32 `v` of `m4`'s shape. */
static int splatI32(Ref *r, HT m4, int64_t v) {
  char s[32];
  snprintf(s, sizeof s, "%" PRId64, v);
  return rock__hConst(&r->g, m4, s);
}

/* The masks of docs/semantics.md §3 on `[G, Hq, Sq, Sk]`. */
static int masks(Ref *r, int s, HT *t) {
  const RockAttentionConfig *c = r->c;
  bool csl = c->numCurrentSeqLen > 0, po = c->numPrefixOffset > 0;
  bool window = c->slidingWindowSize > 0, band = c->causalLookBack > 0;
  if (!csl && !c->causal && !window)
    return s;
  int64_t d4[4] = {r->G, r->Hq, r->Sq, r->Sk};
  HT t4 = rock__ht(4, d4, "f32"), m4 = rock__htElt(t4, "i32"),
     m1 = rock__htElt(t4, "i1");
  /* rocmlir-gen's order: the index as [G, 1, 1, 1], the scores as
   * [G, Hq, Sq, Sk], the row and key positions, then the broadcasts */
  HT tg;
  int cslR = csl ? perGroup(r, "current_seq_len", &tg) : -1;
  s = rock__hReshape(&r->g, s, *t, t4);
  int bound = c->causal ? positions(r, r->Sq, 2, m4) : -1;
  int col = positions(r, r->Sk, 3, m4);
  int cslB = csl ? spread(r, cslR, tg, m4) : -1;
  if (c->causal && po)
    bound = rock__hBinary(&r->g, "tosa.add", bound, m4,
                          spread(r, perGroup(r, "prefix_offset", &tg), tg, m4),
                          m4, m4);
  if (csl)
    s = hide(r, s, t4,
             rock__hBinary(&r->g, "tosa.greater", col, m4, cslB, m4, m1), m1);
  if (c->causal)
    s = hide(r, s, t4,
             rock__hBinary(&r->g, "tosa.greater", col, m4, bound, m4, m1), m1);
  if (window) {
    int kv = splatI32(r, m4, r->Sk - 1);
    if (csl)
      kv = rock__hBinary(&r->g, "tosa.minimum", cslB, m4, kv, m4, m4);
    int low = rock__hBinary(&r->g, "tosa.sub", kv, m4,
                            splatI32(r, m4, c->slidingWindowSize), m4, m4);
    low = rock__hBinary(&r->g, "tosa.maximum", low, m4, splatI32(r, m4, 0), m4,
                        m4);
    s = hide(r, s, t4,
             rock__hBinary(&r->g, "tosa.greater", low, m4, col, m4, m1), m1);
  }
  if (band) {
    int low = rock__hBinary(&r->g, "tosa.sub", bound, m4,
                            splatI32(r, m4, c->causalLookBack), m4, m4);
    s = hide(r, s, t4,
             rock__hBinary(&r->g, "tosa.greater", low, m4, col, m4, m1), m1);
  }
  return rock__hReshape(&r->g, s, t4, *t);
}

/* `[B, a, b]` broadcast to every split: `[B·S, a, b]`. */
static int toSplits(Ref *r, int x, HT *t) {
  if (r->S == 1)
    return x;
  HT e, m;
  x = rock__hExpand(&r->g, x, *t, 0, &e);
  x = rock__hBroadcastMul(&r->g, x, e, 1, r->S, &m);
  return rock__hCollapse(&r->g, x, m, 0, t);
}

/* Softmax over the keys, P · V, the LSE; stores out (and lse). */
static void softmaxPV(Ref *r, int s, HT ts, int v, HT tv) {
  const RockAttentionConfig *c = r->c;
  bool guard = c->returnLse || c->causal || c->numCurrentSeqLen > 0 ||
               c->slidingWindowSize > 0;
  HT tr;
  int mx = rock__hReduce(&r->g, "tosa.reduce_max", s, ts, 2, &tr);
  int mxs = mx;
  if (guard)
    mxs = rock__hBinary(&r->g, "tosa.maximum", mx, tr,
                        rock__hConst(&r->g, tr, rock__hLowest("f32")), tr, tr);
  int e =
      rock__hUnary(&r->g, "tosa.exp",
                   rock__hBinary(&r->g, "tosa.sub", s, ts, mxs, tr, ts), ts);
  int sum = rock__hReduce(&r->g, "tosa.reduce_sum", e, ts, 2, &tr);
  int lse = -1;
  HT tl = rock__htElt(tr, "f32");
  if (c->returnLse) {
    int sumC = rock__hCast(&r->g, sum, tr, "f32");
    int mxC = rock__hCast(&r->g, mx, tr, "f32");
    lse = rock__hBinary(&r->g, "tosa.add",
                        rock__hUnary(&r->g, "tosa.log", sumC, tl), tl, mxC, tl,
                        tl);
  }
  int sums = sum;
  if (guard)
    sums = rock__hBinary(&r->g, "tosa.maximum", sum, tr,
                         rock__hConst(&r->g, tr, rock__hOne("f32")), tr, tr);
  int p = rock__hMul(&r->g, e, ts,
                     rock__hUnary(&r->g, "tosa.reciprocal", sums, tr), tr, ts);
  p = rock__hCast(&r->g, p, ts, r->vElt);
  HT to;
  int o = rock__hMatmul(&r->g, p, rock__htElt(ts, r->vElt), v, tv, "f32", &to);
  if (strcmp(r->vElt, "f32")) {
    o = rock__hCast(&r->g, o, to, r->vElt);
    to = rock__htElt(to, r->vElt);
  }
  if (c->transO)
    o = rock__hTranspose3(&r->g, o, to, &to);
  o = toSplits(r, o, &to);
  rock__hStore(&r->g, o, to, "out");
  if (lse >= 0) {
    lse = toSplits(r, lse, &tl);
    rock__hStore(&r->g, lse, tl, "lse");
  }
}

void rock__emitHostReference(Buf *b, const RockAttentionConfig *c) {
  bool i8 = c->dtype == ROCK_ATTENTION_I8;
  Ref r = {{b, 0, 0},
           c,
           rockAttentionDtypeGetName(c->dtype),
           NULL,
           rockAttentionDtypeGetName(c->softmaxDtype),
           i8 ? "i32" : "f32",
           c->g,
           c->numHeadsQ,
           c->numHeadsKV,
           0,
           0,
           0,
           c->seqLenQ,
           c->seqLenK,
           c->headDimQK,
           c->headDimV,
           c->splitKV};
  r.vElt = i8 ? "f16" : r.qElt;
  r.B = r.G * r.Hq;
  r.Bkv = r.G * r.Hkv;
  r.R = r.Hq / r.Hkv;
  AttnArg args[ATTN_MAX_ARGS];
  int n = rock__attnArgs(c, true, args);
  out(b, "  func.func @host_naive_attention(");
  rock__attnArgsPrint(b, args, n, "");
  out(b, ") {\n");
  int64_t one = 1;
  r.g.shift = rock__hConst(&r.g, rock__ht(1, &one, "i8"), "0");
  HT tq, tk, tv;
  int q = input3(&r, "q", r.qElt, r.B, r.Sq, r.Dqk, c->transQ, &tq);
  int k = input3(&r, "k", r.qElt, r.Bkv, r.Dqk, r.Sk, c->transK, &tk);
  int v = input3(&r, "v", r.vElt, r.Bkv, r.Sk, r.Dv, c->transV, &tv);
  k = headBroadcast(&r, k, &tk);
  v = headBroadcast(&r, v, &tv);
  HT ts;
  int s = rock__hMatmul(&r.g, q, tq, k, tk, r.acc, &ts);
  s = i8 ? dequantRegion(&r, s, ts, &ts) : floatRegion(&r, s, ts, &ts);
  s = masks(&r, s, &ts);
  softmaxPV(&r, s, ts, v, tv);
  out(b, "    return\n  }\n");
}
