/*===- host_main.c - rocmlir-gen's host harness: @main and friends --------===*
 *
 * The functions rocmlir-gen emits around the kernel for -pv / -ph, so that a
 * host pipeline (or mlir-runner) can run and check a rock-gen module without
 * rock-run:
 * - `@rock_fill_<t>`: a deterministic fill, values in [-5, 5] (x 1/4 for
 *   floats), from an index hash and a seed;
 * - `@rock_attention_gpu` (GPU targets) / `@rock_attention_cpu`: the kernel
 *   as the harness calls it: @rock_attention, then with split-KV the combine
 *   of the partials in f32 (LSE-weighted, TOSA, as rocmlir-gen's host does),
 *   the result written back to every split so that it compares with the
 *   reference's layout;
 * - `@rock_attention_verify<N>` (N = the index of the argument it checks):
 *   the three gates of docs/user-guide.md §3.3 (RMS, max abs, max rel
 *   difference, the default thresholds of support/thresholds.h unless the
 *   harness sets them, a NaN mismatch failing all) in f64, printing `[r a d]`;
 * - `@main` (carrying `rock.harness`): allocates the kernel's and the
 *   reference's arguments, fills the inputs (the same values for both; paged
 *   K / V as pages in table order built from the dense reference buffers),
 *   sets the outputs to NaN, calls the kernel wrapper, @host_naive_attention
 *   and the verify of the output (and of the LSE).
 * rock-run ignores all of them and keeps its own inputs and f64 reference.
 *
 *===----------------------------------------------------------------------===*/
#include "host_main.h"
#include "attention_args.h"
#include "host_tosa.h"
#include "support/thresholds.h"

static bool isFloat(const char *elt) { return elt[0] == 'f' || elt[0] == 'b'; }

static void emitFill(Buf *b, const char *elt) {
  out(b,
      "  func.func private @rock_fill_%s(%%m: memref<?x%s>, %%seed: i64) {\n"
      "    %%c0 = arith.constant 0 : index\n"
      "    %%c1 = arith.constant 1 : index\n"
      "    %%n = memref.dim %%m, %%c0 : memref<?x%s>\n"
      "    %%k = arith.constant 2654435761 : i64\n"
      "    %%s16 = arith.constant 16 : i64\n"
      "    %%m11 = arith.constant 11 : i64\n"
      "    %%o5 = arith.constant 5 : i64\n"
      "    scf.for %%i = %%c0 to %%n step %%c1 {\n"
      "      %%ii = arith.index_cast %%i : index to i64\n"
      "      %%h0 = arith.muli %%ii, %%k : i64\n"
      "      %%h1 = arith.addi %%h0, %%seed : i64\n"
      "      %%h2 = arith.shrui %%h1, %%s16 : i64\n"
      "      %%h3 = arith.remui %%h2, %%m11 : i64\n"
      "      %%v = arith.subi %%h3, %%o5 : i64\n",
      elt, elt, elt);
  if (isFloat(elt)) {
    out(b, "      %%f = arith.sitofp %%v : i64 to f32\n"
           "      %%q = arith.constant 2.500000e-01 : f32\n"
           "      %%x32 = arith.mulf %%f, %%q : f32\n");
    if (strcmp(elt, "f32"))
      out(b, "      %%x = arith.truncf %%x32 : f32 to %s\n", elt);
  } else {
    out(b, "      %%x = arith.trunci %%v : i64 to %s\n", elt);
  }
  out(b,
      "      memref.store %s, %%m[%%i] : memref<?x%s>\n    }\n"
      "    return\n  }\n",
      !strcmp(elt, "f32") ? "%x32" : "%x", elt);
}

/* The element types the inputs need a fill of (at most 4). */
static int fillTypes(const AttnArg *args, int n, const char **types) {
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (args[i].role == ARG_CSL || args[i].role == ARG_PREFIX ||
        args[i].role == ARG_LSE || args[i].role == ARG_OUT ||
        !strcmp(args[i].elt, "i64"))
      continue;
    bool seen = false;
    for (int j = 0; j < k; ++j)
      seen |= !strcmp(types[j], args[i].elt);
    if (!seen)
      types[k++] = args[i].elt;
  }
  return k;
}

//===----------------------------------------------------------------------===//
// The kernel wrapper and its split-KV combine
//===----------------------------------------------------------------------===//

/* The LSE-weighted combine of the partials in %out / %lse, in f32, written
 * back to every split. */
static void emitCombine(Buf *b, const RockAttentionConfig *c,
                        const char *vElt) {
  HostGen g = {b, 0, 0};
  int64_t one = 1, B = c->g * c->numHeadsQ, S = c->splitKV, Sq = c->seqLenQ,
          Dv = c->headDimV;
  g.shift = rock__hConst(&g, rock__ht(1, &one, "i8"), "0");
  int64_t nO = B * S * Sq * Dv, nL = B * S * Sq;
  /* out [B, S, Sq, Dv] (transO: [B, S, Dv, Sq]), weights [B, S, Sq, 1]
   * (transO: [B, S, 1, Sq]). */
  int64_t od[4] = {B, S, c->transO ? Dv : Sq, c->transO ? Sq : Dv};
  int64_t ld[4] = {B, S, c->transO ? 1 : Sq, c->transO ? Sq : 1};
  HT to = rock__ht(4, od, vElt), tl = rock__ht(4, ld, "f32");
  int o = rock__hReshape(&g, rock__hToTensor(&g, "out", nO, vElt),
                         rock__ht(1, &nO, vElt), to);
  int l = rock__hReshape(&g, rock__hToTensor(&g, "lse", nL, "f32"),
                         rock__ht(1, &nL, "f32"), tl);
  o = rock__hCast(&g, o, to, "f32");
  to = rock__htElt(to, "f32");
  HT tr, tw;
  int mx = rock__hReduce(&g, "tosa.reduce_max", l, tl, 1, &tr);
  int mxs = rock__hBinary(&g, "tosa.maximum", mx, tr,
                          rock__hConst(&g, tr, rock__hLowest("f32")), tr, tr);
  int w = rock__hUnary(&g, "tosa.exp",
                       rock__hBinary(&g, "tosa.sub", l, tl, mxs, tr, tl), tl);
  int ws = rock__hReduce(&g, "tosa.reduce_sum", w, tl, 1, &tr);
  int inv = rock__hUnary(&g, "tosa.reciprocal",
                         rock__hBinary(&g, "tosa.maximum", ws, tr,
                                       rock__hConst(&g, tr, "1.17549435E-38"),
                                       tr, tr),
                         tr);
  int ow = rock__hMul(&g, o, to, w, tl, to);
  int os = rock__hReduce(&g, "tosa.reduce_sum", ow, to, 1, &tw);
  os = rock__hMul(&g, os, tw, inv, tr, tw);
  os = rock__hCast(&g, os, tw, vElt);
  tw = rock__htElt(tw, vElt);
  HT tb;
  os = rock__hBroadcastMul(&g, os, tw, 1, S, &tb);
  rock__hStore(&g, os, tb, "out");
  int lf = rock__hBinary(&g, "tosa.add", rock__hUnary(&g, "tosa.log", ws, tr),
                         tr, mx, tr, tr);
  lf = rock__hBroadcastMul(&g, lf, tr, 1, S, &tb);
  rock__hStore(&g, lf, tb, "lse");
}

static void emitWrapper(Buf *b, const RockAttentionConfig *c, bool gpu) {
  AttnArg args[ATTN_MAX_ARGS];
  int n = rock__attnArgs(c, false, args);
  out(b, "  func.func @rock_attention_%s(", gpu ? "gpu" : "cpu");
  rock__attnArgsPrint(b, args, n, "");
  out(b, ") {\n    call @rock_attention(");
  for (int i = 0; i < n; ++i)
    out(b, "%s%%%s", i ? ", " : "", args[i].name);
  out(b, ") : (");
  for (int i = 0; i < n; ++i)
    out(b, "%s%s", i ? ", " : "", attnArgType(&args[i]).s);
  out(b, ") -> ()\n");
  if (c->splitKV > 1)
    emitCombine(b, c, args[n - 1].elt);
  out(b, "    return\n  }\n");
}

//===----------------------------------------------------------------------===//
// Verify
//===----------------------------------------------------------------------===//

/* The gates of argument `a` (index `index`); `outElt`, the output's element
 * type, picks the default thresholds for the output and the LSE alike, as
 * rock-run does. */
static void emitVerify(Buf *b, int index, const AttnArg *a, const char *outElt,
                       const RockAttentionHarness *h) {
  bool narrow = !strcmp(outElt, "f16") || !strcmp(outElt, "bf16");
  double rms, absD, relD;
  rock__defaultThresholds(narrow, &rms, &absD, &relD);
  if (h->hasRMS)
    rms = h->rmsThreshold;
  if (h->hasAbsDiff)
    absD = h->absDiffThreshold;
  if (h->hasRelDiff)
    relD = h->relDiffThreshold;
  TypeStr t = attnArgType(a);
  const char *ext = "arith.extf";
  out(b,
      "  func.func @rock_attention_verify%d(%%a: %s, %%b: %s) {\n"
      "    %%c0 = arith.constant 0 : index\n"
      "    %%c1 = arith.constant 1 : index\n"
      "    %%n = arith.constant %" PRId64 " : index\n"
      "    %%z = arith.constant 0.000000e+00 : f64\n"
      "    %%r:5 = scf.for %%i = %%c0 to %%n step %%c1 iter_args(%%sq = %%z, "
      "%%ma = %%z, %%mr = %%z, %%mm = %%z, %%nan = %%z) -> (f64, f64, f64, "
      "f64, f64) {\n"
      "      %%x0 = memref.load %%a[%%i] : %s\n"
      "      %%y0 = memref.load %%b[%%i] : %s\n"
      "      %%x = %s %%x0 : %s to f64\n"
      "      %%y = %s %%y0 : %s to f64\n",
      index, t.s, t.s, a->size, t.s, t.s, ext, a->elt, ext, a->elt);
  out(b,
      /* a NaN on one side only is a mismatch; NaN on both is equal */
      "      %%xn = arith.cmpf uno, %%x, %%x : f64\n"
      "      %%yn = arith.cmpf uno, %%y, %%y : f64\n"
      "      %%mis = arith.xori %%xn, %%yn : i1\n"
      "      %%one = arith.constant 1.000000e+00 : f64\n"
      "      %%nan1 = arith.select %%mis, %%one, %%nan : f64\n"
      "      %%d0 = arith.subf %%x, %%y : f64\n"
      "      %%d1 = math.absf %%d0 : f64\n"
      /* equal values (infinities too) and NaN on both sides: no error */
      "      %%both = arith.andi %%xn, %%yn : i1\n"
      "      %%eq = arith.cmpf oeq, %%x, %%y : f64\n"
      "      %%same = arith.ori %%both, %%eq : i1\n"
      "      %%d = arith.select %%same, %%z, %%d1 : f64\n"
      "      %%d2 = arith.mulf %%d, %%d : f64\n"
      "      %%sq1 = arith.addf %%sq, %%d2 : f64\n"
      "      %%ma1 = arith.maximumf %%ma, %%d : f64\n"
      "      %%ya = math.absf %%y : f64\n"
      "      %%yz = arith.cmpf oeq, %%ya, %%z : f64\n"
      "      %%rel0 = arith.divf %%d, %%ya : f64\n"
      "      %%rel = arith.select %%yz, %%z, %%rel0 : f64\n"
      "      %%mr1 = arith.maximumf %%mr, %%rel : f64\n"
      "      %%mm1 = arith.maximumf %%mm, %%ya : f64\n"
      "      scf.yield %%sq1, %%ma1, %%mr1, %%mm1, %%nan1 : f64, f64, f64, "
      "f64, f64\n"
      "    }\n");
  out(b, "    %%nf = arith.constant %.17e : f64\n", (double)a->size);
  out(b, "    %%trms = arith.constant %.17e : f64\n", rms);
  out(b, "    %%tabs = arith.constant %.17e : f64\n", absD);
  out(b, "    %%trel = arith.constant %.17e : f64\n", relD);
  out(b, "    %%rt = math.sqrt %%r#0 : f64\n"
         "    %%sn = math.sqrt %%nf : f64\n"
         "    %%den = arith.mulf %%r#3, %%sn : f64\n"
         "    %%dz = arith.cmpf oeq, %%den, %%z : f64\n"
         "    %%rms0 = arith.divf %%rt, %%den : f64\n"
         "    %%rms = arith.select %%dz, %%r#0, %%rms0 : f64\n"
         "    %%ok = arith.cmpf oeq, %%r#4, %%z : f64\n"
         "    %%g0 = arith.cmpf ole, %%rms, %%trms : f64\n"
         "    %%g1 = arith.cmpf ole, %%r#1, %%tabs : f64\n"
         "    %%g2 = arith.cmpf ole, %%r#2, %%trel : f64\n"
         "    %%v0 = arith.andi %%g0, %%ok : i1\n"
         "    %%v1 = arith.andi %%g1, %%ok : i1\n"
         "    %%v2 = arith.andi %%g2, %%ok : i1\n"
         "    vector.print str \"[\"\n"
         "    vector.print %%v0 : i1 punctuation <no_punctuation>\n"
         "    vector.print str \" \"\n"
         "    vector.print %%v1 : i1 punctuation <no_punctuation>\n"
         "    vector.print str \" \"\n"
         "    vector.print %%v2 : i1 punctuation <no_punctuation>\n"
         "    vector.print str \"]\\n\"\n"
         "    return\n  }\n");
}

//===----------------------------------------------------------------------===//
// @main
//===----------------------------------------------------------------------===//

/* Fills %<p><name> (the argument `a`) with seed `seed`. */
static void fillArg(Buf *b, const char *p, const AttnArg *a, int seed) {
  out(b,
      "    %%%s%s_dyn = memref.cast %%%s%s : %s to memref<?x%s>\n"
      "    %%seed_%s%s = arith.constant %d : i64\n"
      "    call @rock_fill_%s(%%%s%s_dyn, %%seed_%s%s) : (memref<?x%s>, i64) "
      "-> ()\n",
      p, a->name, p, a->name, attnArgType(a).s, a->elt, p, a->name, seed,
      a->elt, p, a->name, p, a->name, a->elt);
}

/* Stores the G per-group values of `v` (n of them, 1 = broadcast). */
static void storeGroups(Buf *b, const char *name, const int64_t *v, int64_t n,
                        int64_t G) {
  for (int64_t g = 0; g < G; ++g)
    out(b,
        "    %%%s_v%" PRId64 " = arith.constant %" PRId64 " : i32\n"
        "    %%%s_i%" PRId64 " = arith.constant %" PRId64 " : index\n"
        "    memref.store %%%s_v%" PRId64 ", %%%s[%%%s_i%" PRId64
        "] : memref<%" PRId64 "xi32>\n",
        name, g, v[n == 1 ? 0 : g], name, g, g, name, g, name, name, g, G);
}

static void nanFill(Buf *b, const char *name, const AttnArg *a) {
  const char *nan = !strcmp(a->elt, "f16")    ? "0x7E00"
                    : !strcmp(a->elt, "bf16") ? "0x7FC0"
                                              : "0x7FC00000";
  out(b,
      "    %%nan_%s = arith.constant %s : %s\n"
      "    linalg.fill ins(%%nan_%s : %s) outs(%%%s : %s)\n",
      name, nan, a->elt, name, a->elt, name, attnArgType(a).s);
}

/* The pages of a paged K / V (%<t>_pages, in table order) from the dense
 * reference buffer %h_<t> ([Bkv, Dqk, Sk], or [Bkv, Sk, Dqk] when
 * `seqFirst`), and the page table %<t> pointing at them. */
static void buildPages(Buf *b, const char *t, const char *elt, bool seqFirst,
                       const RockAttentionConfig *c) {
  int64_t G = c->g, Hkv = c->numHeadsKV, Sk = c->seqLenK, D = c->headDimQK,
          P = c->numPages, ps = c->pageSize, n = G * P * ps;
  int64_t bytes = !strcmp(elt, "f32") ? 4 : !strcmp(elt, "i8") ? 1 : 2;
  out(b,
      "    %%%s_pages = memref.alloc() : memref<%" PRId64 "x%s>\n"
      "    %%%s_bkv = arith.constant %" PRId64 " : index\n"
      "    %%%s_sk = arith.constant %" PRId64 " : index\n"
      "    %%%s_d = arith.constant %" PRId64 " : index\n",
      t, n, elt, t, G * Hkv, t, Sk, t, D);
  /* pages[((bkv * Sk) + s) * D + d] = dense[bkv][d][s] (or [bkv][s][d]) */
  out(b,
      "    scf.for %%%s_b = %%c0 to %%%s_bkv step %%c1 {\n"
      "      scf.for %%%s_s = %%c0 to %%%s_sk step %%c1 {\n"
      "        scf.for %%%s_e = %%c0 to %%%s_d step %%c1 {\n"
      "          %%%s_p0 = arith.muli %%%s_b, %%%s_sk : index\n"
      "          %%%s_p1 = arith.addi %%%s_p0, %%%s_s : index\n"
      "          %%%s_p2 = arith.muli %%%s_p1, %%%s_d : index\n"
      "          %%%s_p = arith.addi %%%s_p2, %%%s_e : index\n",
      t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t, t);
  const char *inner = seqFirst ? "d" : "sk", *innerIdx = seqFirst ? "e" : "s",
             *mid = seqFirst ? "s" : "e";
  out(b,
      "          %%%s_q0 = arith.muli %%%s_b, %%%s_%s : index\n"
      "          %%%s_q1 = arith.addi %%%s_q0, %%%s_%s : index\n"
      "          %%%s_q2 = arith.muli %%%s_q1, %%%s_%s : index\n"
      "          %%%s_q = arith.addi %%%s_q2, %%%s_%s : index\n"
      "          %%%s_x = memref.load %%h_%s[%%%s_q] : memref<%" PRId64 "x%s>\n"
      "          memref.store %%%s_x, %%%s_pages[%%%s_p] : memref<%" PRId64
      "x%s>\n"
      "        }\n      }\n    }\n",
      t, t, t, seqFirst ? "sk" : "d", t, t, t, mid, t, t, t, inner, t, t, t,
      innerIdx, t, t, t, n, elt, t, t, t, n, elt);
  /* table[i] = base + i * ps * bytes */
  out(b,
      "    %%%s_base0 = memref.extract_aligned_pointer_as_index %%%s_pages : "
      "memref<%" PRId64 "x%s> -> index\n"
      "    %%%s_base = arith.index_cast %%%s_base0 : index to i64\n"
      "    %%%s_np = arith.constant %" PRId64 " : index\n"
      "    %%%s_stride = arith.constant %" PRId64 " : i64\n"
      "    scf.for %%%s_i = %%c0 to %%%s_np step %%c1 {\n"
      "      %%%s_i64 = arith.index_cast %%%s_i : index to i64\n"
      "      %%%s_off = arith.muli %%%s_i64, %%%s_stride : i64\n"
      "      %%%s_ptr = arith.addi %%%s_base, %%%s_off : i64\n"
      "      memref.store %%%s_ptr, %%%s[%%%s_i] : memref<%" PRId64 "xi64>\n"
      "    }\n",
      t, t, n, elt, t, t, t, G * P, t, ps * bytes, t, t, t, t, t, t, t, t, t, t,
      t, t, t, G * P);
}

static void emitMain(Buf *b, const RockAttentionConfig *c,
                     const RockAttentionHarness *h, bool gpu,
                     void (*harness)(Buf *, const RockAttentionConfig *,
                                     const RockAttentionHarness *)) {
  AttnArg ka[ATTN_MAX_ARGS], ha[ATTN_MAX_ARGS];
  int n = rock__attnArgs(c, false, ka);
  (void)rock__attnArgs(c, true, ha);
  out(b, "  func.func @main() attributes {");
  harness(b, c, h);
  out(b, "} {\n    %%c0 = arith.constant 0 : index\n"
         "    %%c1 = arith.constant 1 : index\n");
  for (int i = 0; i < n; ++i)
    out(b,
        "    %%%s = memref.alloc() : %s\n"
        "    %%h_%s = memref.alloc() : %s\n",
        ka[i].name, attnArgType(&ka[i]).s, ha[i].name, attnArgType(&ha[i]).s);
  for (int i = 0; i < n; ++i) {
    const AttnArg *a = &ha[i];
    if (a->role == ARG_OUT || a->role == ARG_LSE) {
      nanFill(b, ka[i].name, &ka[i]);
      char hn[64];
      snprintf(hn, sizeof hn, "h_%s", a->name);
      nanFill(b, hn, a);
    } else if (a->role == ARG_CSL || a->role == ARG_PREFIX) {
      const int64_t *v =
          a->role == ARG_CSL ? c->currentSeqLen : c->prefixOffset;
      int64_t nv =
          a->role == ARG_CSL ? c->numCurrentSeqLen : c->numPrefixOffset;
      char hn[64];
      snprintf(hn, sizeof hn, "h_%s", a->name);
      storeGroups(b, a->name, v, nv, c->g);
      storeGroups(b, hn, v, nv, c->g);
    } else {
      fillArg(b, "h_", a, i + 1);
      if (c->paged && (a->role == ARG_K || a->role == ARG_V))
        buildPages(b, a->name, a->elt,
                   a->role == ARG_K ? c->transK : !c->transV, c);
      else
        out(b, "    memref.copy %%h_%s, %%%s : %s to %s\n", a->name, a->name,
            attnArgType(a).s, attnArgType(a).s);
    }
  }
  out(b, "    call @rock_attention_%s(", gpu ? "gpu" : "cpu");
  for (int i = 0; i < n; ++i)
    out(b, "%s%%%s", i ? ", " : "", ka[i].name);
  out(b, ") : (");
  for (int i = 0; i < n; ++i)
    out(b, "%s%s", i ? ", " : "", attnArgType(&ka[i]).s);
  out(b, ") -> ()\n    call @host_naive_attention(");
  for (int i = 0; i < n; ++i)
    out(b, "%s%%h_%s", i ? ", " : "", ha[i].name);
  out(b, ") : (");
  for (int i = 0; i < n; ++i)
    out(b, "%s%s", i ? ", " : "", attnArgType(&ha[i]).s);
  out(b, ") -> ()\n");
  for (int i = 0; i < n; ++i)
    if (ka[i].role == ARG_OUT || ka[i].role == ARG_LSE)
      out(b,
          "    call @rock_attention_verify%d(%%%s, %%h_%s) : (%s, %s) -> ()\n",
          i, ka[i].name, ha[i].name, attnArgType(&ka[i]).s,
          attnArgType(&ka[i]).s);
  for (int i = 0; i < n; ++i)
    out(b, "    memref.dealloc %%%s : %s\n    memref.dealloc %%h_%s : %s\n",
        ka[i].name, attnArgType(&ka[i]).s, ha[i].name, attnArgType(&ha[i]).s);
  if (c->paged)
    out(b,
        "    memref.dealloc %%k_pages : %s\n"
        "    memref.dealloc %%v_pages : %s\n",
        flatType(c->g * c->numPages * c->pageSize, ha[1].elt).s,
        flatType(c->g * c->numPages * c->pageSize, ha[2].elt).s);
  out(b, "    return\n  }\n");
}

void rock__emitHostMain(Buf *b, const RockAttentionConfig *c,
                        const RockAttentionHarness *h, bool gpu,
                        void (*harness)(Buf *, const RockAttentionConfig *,
                                        const RockAttentionHarness *)) {
  AttnArg ka[ATTN_MAX_ARGS];
  int n = rock__attnArgs(c, false, ka);
  emitWrapper(b, c, gpu);
  emitMain(b, c, h, gpu, harness);
  for (int i = 0; i < n; ++i)
    if (ka[i].role == ARG_OUT || ka[i].role == ARG_LSE)
      emitVerify(b, i, &ka[i], ka[n - 1].elt, h);
  AttnArg ha[ATTN_MAX_ARGS];
  (void)rock__attnArgs(c, true, ha);
  const char *types[4];
  int nt = fillTypes(ha, n, types);
  for (int i = 0; i < nt; ++i)
    emitFill(b, types[i]);
}
