/*===- lower_combine.c - rock-lower-combine -------------------------------===*
 *
 * Lowers rock.attention_combine (docs/semantics.md §5.8) to an scf.parallel
 * over the rows (b, i) of the final output. Per row, in f32:
 *   M   = max_s lse_s                  (arith.maximumf: NaN propagates)
 *   w_s = exp(lse_s - M), or 0 without reading anything when lse_s = -inf
 *   L   = sum_s w_s
 *   O   = sum_s w_s * O_s / L          (O_s read only when lse_s != -inf)
 *   LSE = M + ln L
 * and when M = -inf (every split empty or the row fully masked) O = 0 and
 * LSE = -inf. The partial LSEs may be f64 (the internal split's scratch,
 * passes/attention/lower.c): M and lse_s - M are then taken in f64, the
 * rest in f32, so the weights keep f32 accuracy whatever |lse|. The splits
 * are loops (scf.for over s), so the IR and the
 * compile time do not grow with S: per row, one loop takes the max, a
 * second computes each weight once into a per-row heap buffer of S f32
 * (a split never read is tagged -1) and sums L, and the loop over the head
 * dim accumulates the weighted partials in split order. Operands are read and
 *written with rock.view_load / rock.view_store, which rock-lower-views
 *resolves.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>

/* Static shape of a rank-`rank` memref value; false if it is not one. */
static bool staticShape(MlirValue v, intptr_t rank, int64_t *dims) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAMemRef(t) || mlirShapedTypeGetRank(t) != rank ||
      !mlirShapedTypeHasStaticShape(t))
    return false;
  for (intptr_t i = 0; i < rank; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return true;
}

static void appendSig(RockStr *s, const char *name, MlirValue v, bool comma) {
  rock__strAppendf(s, "%s%%%s: ", comma ? ", " : "", name);
  rock__strAppendType(s, mlirValueGetType(v));
}

/* The shape of one combine. */
typedef struct Comb {
  int64_t B, Sq, Dv, S;
  bool oT, hasLse;
  bool gpu; /* a gpu.launch: blocks over rows, threads over the head dim */
  bool pdl; /* (gpu) a programmatic dependent launch: griddepcontrol.wait
             * before the partials are read */
  MlirType pElt, oElt;             /* element types of the partial / final O */
  const char *lt;                  /* "f32" or "f64": the partial LSEs */
  RockStr tp, tl, to, tL, tpe, te; /* printed types (tpe: partial element) */
} Comb;

/* Appends the per-row prologue: %M (the max of the partial LSEs), %empty
 * (M == -inf), %Ms (M, or 0 when empty), %w (a per-row heap buffer holding
 * each split's weight, or -1 for a split that is never read) and %L (the
 * sum of the weights, in split order). */
static void appendWeights(RockStr *s, const Comb *c) {
  bool wide = c->lt[1] == '6';
  const char *ninfL = wide ? "%lninf" : "%ninf",
             *zeroL = wide ? "%lzero" : "%zero";
  rock__strAppendf(
      s,
      "    %%M = scf.for %%s = %%c0 to %%cS step %%c1 iter_args(%%m = %s) "
      "-> (%s) {\n"
      "      %%r = arith.addi %%r0, %%s : index\n"
      "      %%x = rock.view_load %%pl[%%r, %%i] : %s -> %s\n"
      "      %%mx = arith.maximumf %%m, %%x : %s\n"
      "      scf.yield %%mx : %s\n"
      "    }\n"
      "    %%empty = arith.cmpf oeq, %%M, %s : %s\n"
      "    %%Ms = arith.select %%empty, %s, %%M : %s\n"
      "    %%w = memref.%s() : memref<%lldxf32>\n",
      ninfL, c->lt, c->tl.data, c->lt, c->lt, c->lt, ninfL, c->lt, zeroL, c->lt,
      c->gpu ? "alloca" : "alloc", (long long)c->S);
  /* A split whose LSE is -inf has weight 0 and is never read; a NaN LSE
   * compares unequal, so it is read and propagates. */
  rock__strAppendf(
      s,
      "    %%L = scf.for %%s = %%c0 to %%cS step %%c1 iter_args(%%acc = "
      "%%zero) -> (f32) {\n"
      "      %%r = arith.addi %%r0, %%s : index\n"
      "      %%x = rock.view_load %%pl[%%r, %%i] : %s -> %s\n"
      "      %%ok = arith.cmpf une, %%x, %s : %s\n"
      "%s"
      "%s"
      "%s"
      "%s"
      "      %%tag = arith.select %%ok, %%ws, %%skip : f32\n"
      "      memref.store %%tag, %%w[%%s] : memref<%lldxf32>\n"
      "      %%n = arith.addf %%acc, %%ws : f32\n"
      "      scf.yield %%n : f32\n"
      "    }\n",
      c->tl.data, c->lt, ninfL, c->lt,
      c->gpu ? "" : "      %ws = scf.if %ok -> (f32) {\n",
      wide ? "        %dl = arith.subf %x, %Ms : f64\n"
             "        %d = arith.truncf %dl : f64 to f32\n"
           : "        %d = arith.subf %x, %Ms : f32\n",
      /* exp(d); on the GPU as ex2.approx(d * log2 e), without libdevice. */
      c->gpu ? "        %d2 = arith.mulf %d, %log2e : f32\n"
               "        %e = llvm.call_intrinsic "
               "\"llvm.nvvm.ex2.approx.ftz.f\"(%d2) : (f32) -> f32\n"
             : "        %e = math.exp %d : f32\n",
      /* On the GPU without a branch (the weight of an empty split is
       * selected away, as the branch's 0), so that nothing waits on the
       * LSE loads before the partials' loads are issued. */
      c->gpu ? "      %ws = arith.select %ok, %e, %zero : f32\n"
             : "        scf.yield %e : f32\n"
               "      } else {\n"
               "        scf.yield %zero : f32\n"
               "      }\n",
      (long long)c->S);
}

/* Appends the loop over the head dim: O[b, i, d] = sum_s w_s O_s / L, the
 * splits in order, a split read only when its tag is not -1 (>= 0, or NaN:
 * `uge`). */
static void appendOutputLoop(RockStr *s, const Comb *c) {
  unsigned pWidth = mlirFloatTypeGetWidth(c->pElt);
  unsigned width = mlirFloatTypeGetWidth(c->oElt);
  const char *widen = pWidth < 32 ? "extf" : "truncf";
  const char *narrow = width < 32 ? "truncf" : "extf";
  /* On the GPU each thread owns the columns tx, tx + NT, ...; every partial
   * is loaded (no branch per split, so the loads overlap) and a skipped
   * split's term is dropped by a select: it still contributes nothing. */
  rock__strAppendf(
      s,
      "    scf.for %%d = %s to %%cDv step %s {\n"
      "      %%a = scf.for %%s = %%c0 to %%cS step %%c1 iter_args(%%acc = "
      "%%zero) -> (f32) {\n"
      "        %%ws = memref.load %%w[%%s] : memref<%lldxf32>\n"
      "        %%ok = arith.cmpf uge, %%ws, %%zero : f32\n"
      "%s"
      "          %%r = arith.addi %%r0, %%s : index\n"
      "          %%p = rock.view_load %%po[%%r, %s] : %s -> %s\n",
      c->gpu ? "%tx" : "%c0", c->gpu ? "%cNT" : "%c1", (long long)c->S,
      c->gpu ? "" : "        %n = scf.if %ok -> (f32) {\n",
      c->oT ? "%d, %i" : "%i, %d", c->tp.data, c->tpe.data);
  const char *pf = "%p";
  if (pWidth != 32) {
    rock__strAppendf(s, "          %%pf = arith.%s %%p : %s to f32\n", widen,
                     c->tpe.data);
    pf = "%pf";
  }
  rock__strAppendf(s,
                   "          %%t = arith.mulf %%ws, %s : f32\n"
                   "          %%sum = arith.addf %%acc, %%t : f32\n"
                   "%s"
                   "        scf.yield %%n : f32\n"
                   "      }\n"
                   "      %%q = arith.divf %%a, %%L : f32\n"
                   "      %%qs = arith.select %%empty, %%zero, %%q : f32\n",
                   pf,
                   c->gpu
                       ? "          %n = arith.select %ok, %sum, %acc : f32\n"
                       : "          scf.yield %sum : f32\n"
                         "        } else {\n"
                         "          scf.yield %acc : f32\n"
                         "        }\n");
  const char *val = "%qs";
  if (width != 32) {
    rock__strAppendf(s, "      %%qe = arith.%s %%qs : f32 to %s\n", narrow,
                     c->te.data);
    val = "%qe";
  }
  rock__strAppendf(s, "      rock.view_store %s, %%o[%%b, %s] : %s, %s\n", val,
                   c->oT ? "%d, %i" : "%i, %d", c->te.data, c->to.data);
  rock__strAppend(s, "    }\n");
  if (!c->gpu)
    rock__strAppendf(s, "    memref.dealloc %%w : memref<%lldxf32>\n",
                     (long long)c->S);
}

/* Appends the function text lowering one combine with arguments
 * (%po, %pl, %o[, %l]). */
static void buildText(RockStr *s, const Comb *c, const MlirValue *args) {
  rock__strAppend(s, "func.func @combine(");
  appendSig(s, "po", args[0], false);
  appendSig(s, "pl", args[1], true);
  appendSig(s, "o", args[2], true);
  if (c->hasLse)
    appendSig(s, "l", args[3], true);
  rock__strAppend(s, ") {\n");
  rock__strAppendf(s,
                   "  %%c0 = arith.constant 0 : index\n"
                   "  %%c1 = arith.constant 1 : index\n"
                   "  %%cB = arith.constant %lld : index\n"
                   "  %%cSq = arith.constant %lld : index\n"
                   "  %%cDv = arith.constant %lld : index\n"
                   "  %%cS = arith.constant %lld : index\n"
                   "  %%ninf = arith.constant 0xFF800000 : f32\n"
                   "  %%zero = arith.constant 0.000000e+00 : f32\n"
                   "  %%skip = arith.constant -1.000000e+00 : f32\n",
                   (long long)c->B, (long long)c->Sq, (long long)c->Dv,
                   (long long)c->S);
  if (c->lt[1] == '6')
    rock__strAppend(s, "  %lninf = arith.constant 0xFFF0000000000000 : f64\n"
                       "  %lzero = arith.constant 0.000000e+00 : f64\n");
  if (c->gpu)
    rock__strAppendf(s,
                     "  %%cNT = arith.constant %lld : index\n"
                     "  %%log2e = arith.constant 1.44269504 : f32\n"
                     "  %%ln2 = arith.constant 0.69314718 : f32\n"
                     "  gpu.launch blocks(%%b, %%i, %%bz) in (%%gb = %%cB, "
                     "%%gi = %%cSq, %%gz = %%c1) threads(%%tx, %%ty, %%tz) in "
                     "(%%nt = %%cNT, %%nty = %%c1, %%ntz = %%c1) {\n",
                     (long long)(c->Dv < 256 ? c->Dv : 256));
  else
    rock__strAppend(s, "  scf.parallel (%b, %i) = (%c0, %c0) to (%cB, %cSq) "
                       "step (%c1, %c1) {\n");
  if (c->pdl) /* the split's grid complete and its partials visible */
    rock__strAppend(s, "    nvvm.griddepcontrol wait\n");
  rock__strAppend(s, "    %r0 = arith.muli %b, %cS : index\n");
  appendWeights(s, c);
  appendOutputLoop(s, c);
  if (c->hasLse && c->gpu)
    rock__strAppend(s, "    %lg = llvm.call_intrinsic "
                       "\"llvm.nvvm.lg2.approx.ftz.f\"(%L) : (f32) -> f32\n"
                       "    %lnL = arith.mulf %lg, %ln2 : f32\n");
  else if (c->hasLse)
    rock__strAppend(s, "    %lnL = math.log %L : f32\n");
  if (c->hasLse && c->lt[1] == '6')
    rock__strAppend(s, "    %lnL64 = arith.extf %lnL : f32 to f64\n"
                       "    %lse64 = arith.addf %M, %lnL64 : f64\n"
                       "    %lse = arith.truncf %lse64 : f64 to f32\n");
  else if (c->hasLse)
    rock__strAppend(s, "    %lse = arith.addf %M, %lnL : f32\n");
  if (c->hasLse)
    rock__strAppendf(s,
                     "    %%lses = arith.select %%empty, %%ninf, %%lse : f32\n"
                     "    rock.view_store %%lses, %%l[%%b, %%i] : f32, %s\n",
                     c->tL.data);
  rock__strAppend(s, c->gpu ? "    gpu.terminator\n  }\n  return\n}\n"
                            : "    scf.reduce\n  }\n  return\n}\n");
}

bool rock__inlineCombine(MlirOperation anchor, int64_t B, int64_t Sq,
                         int64_t Dv, int64_t S, bool oT, intptr_t nArgs,
                         const MlirValue *args, bool gpu, bool pdl) {
  Comb c = {.B = B,
            .Sq = Sq,
            .Dv = Dv,
            .S = S,
            .oT = oT,
            .hasLse = nArgs == 4,
            .gpu = gpu,
            .pdl = gpu && pdl};
  c.pElt = mlirShapedTypeGetElementType(mlirValueGetType(args[0]));
  c.lt = mlirTypeIsAF64(mlirShapedTypeGetElementType(mlirValueGetType(args[1])))
             ? "f64"
             : "f32";
  c.oElt = mlirShapedTypeGetElementType(mlirValueGetType(args[2]));
  rock__strAppendType(&c.tp, mlirValueGetType(args[0]));
  rock__strAppendType(&c.tl, mlirValueGetType(args[1]));
  rock__strAppendType(&c.to, mlirValueGetType(args[2]));
  rock__strAppendType(&c.tpe, c.pElt);
  rock__strAppendType(&c.te, c.oElt);
  if (c.hasLse)
    rock__strAppendType(&c.tL, mlirValueGetType(args[3]));
  RockStr text = {0};
  buildText(&text, &c, args);
  bool ok = rock__inlineFuncText(anchor, text.data, nArgs, args, 0, NULL);
  rock__strFree(&text);
  rock__strFree(&c.tp);
  rock__strFree(&c.tl);
  rock__strFree(&c.to);
  rock__strFree(&c.tpe);
  rock__strFree(&c.te);
  rock__strFree(&c.tL);
  return ok;
}

bool rock__lowerCombineOp(MlirOperation op, MlirExternalPass pass, bool gpu) {
  intptr_t nArgs = mlirOperationGetNumOperands(op);
  if (nArgs < 3 || nArgs > 4) {
    rock__passFail(pass, op, "rock.attention_combine needs 3 or 4 operands");
    return false;
  }
  MlirValue args[4];
  for (intptr_t i = 0; i < nArgs; ++i)
    args[i] = mlirOperationGetOperand(op, i);
  int64_t S = rock__intAttr(op, "splitKV", 0);
  bool oT = rock__flagAttr(op, "oTransposed");
  int64_t po[3], pl[2], o[3], l[2];
  if (!staticShape(args[0], 3, po) || !staticShape(args[1], 2, pl) ||
      !staticShape(args[2], 3, o) ||
      (nArgs == 4 && !staticShape(args[3], 2, l))) {
    rock__passFail(pass, op, "rock-lower-combine needs static shapes");
    return false;
  }
  MlirType elt = mlirShapedTypeGetElementType(mlirValueGetType(args[2]));
  MlirType pElt = mlirShapedTypeGetElementType(mlirValueGetType(args[0]));
  if (S <= 0 || po[0] != o[0] * S || !mlirTypeIsAFloat(elt) ||
      !mlirTypeIsAFloat(pElt)) {
    rock__passFail(pass, op,
                   "rock.attention_combine splitKV (%lld), batches (%lld, "
                   "%lld) or element type are inconsistent",
                   (long long)S, (long long)po[0], (long long)o[0]);
    return false;
  }
  if (!rock__inlineCombine(op, o[0], oT ? o[2] : o[1], oT ? o[1] : o[2], S, oT,
                           nArgs, args, gpu, false)) {
    mlirExternalPassSignalFailure(pass);
    return false;
  }
  mlirOperationDestroy(op);
  return true;
}

static bool lowerOne(MlirOperation op, MlirExternalPass pass) {
  return rock__lowerCombineOp(op, pass, false);
}

static void run(MlirOperation root, MlirExternalPass pass) {
  rock__lowerEach(root, "rock.attention_combine", lowerOne, pass);
}

static const RockPassDef def = {
    "RockLowerCombine", "rock-lower-combine",
    "lower rock.attention_combine to f32 loops over the output rows", "", run};

MlirPass rockLowerCombinePassCreate(void) { return rock__passCreate(&def); }
void rockLowerCombinePassRegister(void) { rock__passRegister(&def); }
