/*===- tuning_space.c - the perf_configs a target's lowering tells apart --===*
 *
 * rockAttentionTuningSpace (rock-c/Tuning.h). Candidates come from the knob
 * lists below (docs/tuning.md, "The space"); each is told apart from the
 * others by what the lowering would do with it, not by a copy of its rules:
 * the problem's module gets the candidate as its perf_config and goes
 * through rock-attention-to-gridwise (the one place a perf_config becomes
 * tiles and knob attributes), then
 *   - cpu: the gridwise op's tiles (mPerBlock, nPerBlock) are the schedule;
 *   - GPU targets: rock__gpuAttnPlan says which schedule (tensor-core or
 *     SIMT), its shape and the internal split the GPU lowering would emit.
 * Candidates with a schedule seen before are dropped. The candidate whose
 * schedule is the heuristic's (the module without a perf_config) comes
 * first, so a tuner knows which config the heuristic already is.
 *
 *===----------------------------------------------------------------------===*/
#include "passes/internal.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/Passes.h"
#include "rock-c/Tuning.h"
#include "support/err.h"
#include "support/ir.h"
#include "support/str.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Pass.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PLAN_LEN = 256 };

/*===--- schedules --------------------------------------------------------===*/

typedef struct Planner {
  MlirContext ctx;
  MlirModule base; /* the problem's module, no perf_config */
  MlirPassManager pm;
  bool gpu;
} Planner;

typedef struct Walk {
  const char *perfConfig; /* set on rock.attention ops (NULL: none) */
  MlirContext ctx;
  RockStr *plan; /* appended by gridwise ops */
  bool gpu, ok;
} Walk;

static MlirWalkResult setPerf(MlirOperation op, void *user) {
  Walk *w = user;
  if (rock__isOp(op, "rock.attention") && w->perfConfig)
    mlirOperationSetAttributeByName(
        op, mlirStringRefCreateFromCString("perf_config"),
        mlirStringAttrGet(w->ctx,
                          mlirStringRefCreateFromCString(w->perfConfig)));
  return MlirWalkResultAdvance;
}

static MlirWalkResult planOp(MlirOperation op, void *user) {
  Walk *w = user;
  if (!rock__isOp(op, "rock.gridwise_attention"))
    return MlirWalkResultAdvance;
  char buf[PLAN_LEN];
  if (w->gpu) {
    w->ok = w->ok && rock__gpuAttnPlan(op, buf, sizeof buf);
  } else {
    snprintf(buf, sizeof buf, "cpu keys %" PRId64 " rows %" PRId64,
             rock__intAttr(op, "mPerBlock", 0),
             rock__intAttr(op, "nPerBlock", 0));
  }
  rock__strAppendf(w->plan, "%s%s", w->plan->len ? "; " : "", buf);
  return MlirWalkResultAdvance;
}

/* The schedule of the problem with `perfConfig` (NULL: the heuristic) into
 * *plan (emptied first); false when it does not lower. */
static bool planOf(Planner *p, const char *perfConfig, RockStr *plan) {
  rock__strFree(plan);
  MlirOperation m = mlirOperationClone(mlirModuleGetOperation(p->base));
  Walk w = {perfConfig, p->ctx, plan, p->gpu, true};
  mlirOperationWalk(m, setPerf, &w, MlirWalkPreOrder);
  bool ok = !mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(p->pm, m));
  if (ok)
    mlirOperationWalk(m, planOp, &w, MlirWalkPreOrder);
  mlirOperationDestroy(m);
  return ok && w.ok && plan->len > 0;
}

/* The internal split of a schedule line ("... split N"), 0 if none. */
static int64_t planSplit(const char *plan) {
  const char *at = strstr(plan, "split ");
  return at ? strtoll(at + 6, NULL, 10) : 0;
}

/*===--- candidates -------------------------------------------------------===*/

typedef struct Cands {
  char **v;
  int64_t n, cap;
} Cands;

static void add(Cands *c, RockStr *s) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->v = realloc(c->v, (size_t)c->cap * sizeof *c->v);
    if (!c->v)
      abort();
  }
  c->v[c->n++] = s->data;
  *s = (RockStr){0};
}

static int64_t pow2Ceil(int64_t v) {
  int64_t p = 1;
  while (p < v && p < ((int64_t)1 << 40))
    p *= 2;
  return p;
}

/* cpu: keys per tile x merged rows per tile. Full: powers of two, keys 16
 * to 256 (no more than the keys, rounded up), rows 4 to 512 (no more than
 * the merged rows, rounded up; 4 is the fused decode loops' least). Quick:
 * decode-like problems (<= 64 merged rows) keep one row tile over all rows
 * (what the fused loops need) and 32-256 keys; the others 32-128 keys and
 * 16-512 rows. */
static void cpuCands(const RockAttentionConfig *c, bool full, Cands *out) {
  int64_t rows = c->seqLenQ * (c->numHeadsQ / c->numHeadsKV);
  int64_t maxMb = pow2Ceil(c->seqLenK), maxNb = pow2Ceil(rows);
  bool decode = rows <= 64;
  for (int64_t mb = 16; mb <= 256; mb *= 2) {
    if ((mb > maxMb && mb > 16) ||
        (!full && (mb < 32 || (!decode && mb > 128))))
      continue;
    for (int64_t nb = 4; nb <= 512; nb *= 2) {
      if (nb > maxNb && nb > 4)
        continue;
      if (!full && (decode ? nb != (maxNb < 4 ? 4 : maxNb) : nb < 16))
        continue;
      RockStr s = {0};
      rock__strAppendf(&s,
                       "attn:v3:%" PRId64 ",%" PRId64 ",%" PRId64
                       ",8,32,32,16,4,1,1,0,0,1",
                       mb, mb, nb);
      add(out, &s);
    }
  }
}

/* Appends ",name=v" (":rock:name=v" first) to a perf_config. */
static void field(RockStr *s, bool *first, const char *name, int64_t v) {
  rock__strAppendf(s, "%s%s=%" PRId64, *first ? ":rock:" : ",", name, v);
  *first = false;
}

/* The internal splits of a GPU space: the heuristic's (0: no field), none,
 * and 2-128 partitions (quick: twice and half the heuristic's `autoSplit`
 * where it splits; where it does not, 2 and 4 for single-query decode,
 * whose one wave of workgroups can still leave latency uncovered: paged
 * GQA 4, B 64, L 2k on the H200 ran 20 % faster with 4, bench/RESULTS-
 * tuning.md). */
static int64_t gpuSplits(bool full, bool decode, int64_t autoSplit,
                         int64_t *splits) {
  int64_t n = 0;
  splits[n++] = 0;
  splits[n++] = 1;
  if (full)
    for (int64_t p = 2; p <= 128; p *= 2)
      splits[n++] = p;
  else if (autoSplit > 1 && autoSplit <= 512) {
    splits[n++] = 2 * autoSplit;
    if (autoSplit > 2)
      splits[n++] = autoSplit / 2;
  } else if (decode) {
    splits[n++] = 2;
    splits[n++] = 4;
  }
  return n;
}

/* The tensor-core schedules: warps W = 1, 2, 4, 8 in rocMLIR's wave
 * fields ((mPerBlockG0 / mPerWave) * (nPerBlockG0 / nPerWave) = (64 / 64) *
 * (16 W / 16)); on NVIDIA the L2 prefetch distance (the heuristic's, 0, 1,
 * 2, 4 tiles; quick: the heuristic's and 0) and the opposites of the
 * staging rule (ovl, pages: the one the rule picks has the heuristic's
 * schedule and drops out, as does either where it changes nothing, such
 * as pages on dense K / V); on sm_90 the warpgroup-MMA
 * prefill as the heuristic has it, without its producer warpgroup, with
 * and without consumer ping-pong, with the 32-byte swizzle in place of the
 * default 128-byte one (each and both), with cp.async instead of TMA, with
 * the plan parameters opposite to the rule's (no producer form above head
 * dim 128, 192-key tiles, three and two consumer warpgroups, three and four
 * K / V stages; where they change nothing the plan says so and the
 * candidate drops out), off (mma.sync), and one or two key warps on a
 * decode partition (the one the rule picks drops out); each with the
 * splits. */
static void tcCands(const RockGpuTarget *t, bool full, const int64_t *splits,
                    int64_t nSplit, Cands *out) {
  static const char *const sm90[] = {
      "",           "ovl=0",        "ovl=1",
      "pages=0",    "pages=1",      "producer=0",
      "pingpong=1", "swizzle128=0", "pingpong=1,swizzle128=0",
      "tma=0",      "pingpong=0",   "wide=0",
      "wkeys=192",  "consumers=3",  "consumers=2",
      "wgmma=0",    "kwarps=1",     "kwarps=2",
      "wgstages=3", "wgstages=4"};
  bool nv = t->vendor == ROCK_GPU_NVIDIA;
  int nSched = nv && t->smVersion == 90 ? (int)(sizeof sm90 / sizeof *sm90)
               : nv                     ? 5
                                        : 1;
  static const int64_t l2s[] = {-1, 0, 1, 2, 4};
  int nL2 = t->vendor != ROCK_GPU_NVIDIA ? 1 : full ? 5 : 2;
  for (int sc = 0; sc < nSched; ++sc)
    for (int64_t w = 1; w <= 8; w *= 2)
      for (int l = 0; l < nL2; ++l)
        for (int64_t i = 0; i < nSplit; ++i) {
          RockStr s = {0};
          bool first = true;
          rock__strAppendf(
              &s, "attn:v3:64,64,%" PRId64 ",8,64,16,16,4,1,1,2,0,1", 16 * w);
          if (splits[i])
            field(&s, &first, "split", splits[i]);
          if (l2s[l] >= 0)
            field(&s, &first, "l2", l2s[l]);
          if (sm90[sc][0]) {
            rock__strAppendf(&s, "%s%s", first ? ":rock:" : ",", sm90[sc]);
            first = false;
          }
          add(out, &s);
        }
}

/* The SIMT schedule (path=simt): keys per lane group 1-16, fewest lanes per
 * row 4-32, 1 or 2 stages (quick: seven combinations around the defaults
 * 4 / 16 / 1), each with the splits. Only where the heuristic runs the
 * SIMT schedule; where it runs tensor cores, the SIMT schedule comes at
 * its defaults (the choice between the two stays in the space). */
static void simtCands(bool full, bool simtHeuristic, const int64_t *splits,
                      int64_t nSplit, Cands *out) {
  static const int quick[][3] = {{4, 16, 1}, {8, 16, 1}, {2, 16, 1}, {4, 8, 1},
                                 {8, 8, 1},  {4, 16, 2}, {8, 16, 2}};
  for (int64_t keys = 1; keys <= 16; keys *= 2)
    for (int64_t lanes = 4; lanes <= 32; lanes *= 2)
      for (int64_t stages = 1; stages <= 2; ++stages) {
        bool dflt = keys == 4 && lanes == 16 && stages == 1, inQuick = false;
        for (size_t q = 0; q < sizeof quick / sizeof *quick; ++q)
          inQuick |= quick[q][0] == keys && quick[q][1] == lanes &&
                     quick[q][2] == stages;
        if (simtHeuristic ? !full && !inQuick : !dflt)
          continue;
        for (int64_t i = 0; i < nSplit; ++i) {
          RockStr s = {0};
          rock__strAppend(&s, "attn:v3:64,64,16,8,64,16,16,4,1,1,2,0,1:rock:"
                              "path=simt");
          if (!dflt)
            rock__strAppendf(
                &s, ",keys=%" PRId64 ",lanes=%" PRId64 ",stages=%" PRId64, keys,
                lanes, stages);
          if (splits[i])
            rock__strAppendf(&s, ",split=%" PRId64, splits[i]);
          add(out, &s);
        }
      }
}

/* GPU targets: the tensor-core candidates, then the SIMT ones. */
static void gpuCands(const RockGpuTarget *t, bool full, bool decode,
                     const char *heur, Cands *out) {
  int64_t splits[12];
  int64_t nSplit = gpuSplits(full, decode, planSplit(heur), splits);
  tcCands(t, full, splits, nSplit, out);
  simtCands(full, !strncmp(heur, "simt", 4), splits, nSplit, out);
}

/*===--- the space --------------------------------------------------------===*/

static bool setUp(Planner *p, MlirContext ctx, const RockAttentionConfig *cfg,
                  const char *arch, int64_t numCu, char *err, size_t errLen) {
  RockAttentionHarness h;
  rockAttentionHarnessInit(&h);
  h.arch = arch;
  RockAttentionConfig c = *cfg;
  c.perfConfig = NULL;
  c.perfDb = NULL;
  p->ctx = ctx;
  p->base = rockAttentionBuildModuleWithHarness(ctx, &c, &h);
  if (mlirModuleIsNull(p->base))
    return rock__fail(err, errLen, "the problem does not build");
  if (p->gpu)
    mlirOperationSetAttributeByName(
        mlirModuleGetOperation(p->base),
        mlirStringRefCreateFromCString("rock.num_cu"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), numCu));
  rockRegisterAllPasses();
  p->pm = mlirPassManagerCreate(ctx);
  RockStr msg = {0};
  MlirLogicalResult r =
      mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(p->pm),
                            mlirStringRefCreateFromCString(
                                "builtin.module(rock-attention-to-gridwise)"),
                            rock__strCallback, &msg);
  rock__strFree(&msg);
  if (mlirLogicalResultIsFailure(r))
    return rock__fail(err, errLen, "cannot build rock-attention-to-gridwise");
  return true;
}

int64_t rockAttentionTuningSpace(MlirContext ctx,
                                 const RockAttentionConfig *cfg,
                                 const char *arch, int64_t numCu,
                                 RockTuningSpaceKind kind,
                                 RockTuningSpaceCallback emit, void *user,
                                 char *err, size_t errLen) {
  RockGpuTarget t;
  if (!rockGpuTargetParse(arch ? arch : "", &t, err, errLen))
    return -1;
  Planner p = {.gpu = t.vendor != ROCK_GPU_NONE};
  p.pm.ptr = NULL;
  p.base.ptr = NULL;
  int64_t count = -1;
  RockStr heur = {0}, plan = {0};
  Cands cands = {0};
  char **plans = NULL;
  if (!setUp(&p, ctx, cfg, arch ? arch : "", numCu, err, errLen))
    goto done;
  if (!planOf(&p, NULL, &heur)) {
    rock__fail(err, errLen, "the problem does not lower on %s",
               p.gpu ? arch : "cpu");
    goto done;
  }
  bool full = kind == ROCK_TUNING_FULL;
  if (p.gpu)
    gpuCands(&t, full, cfg->seqLenQ == 1, heur.data, &cands);
  else
    cpuCands(cfg, full, &cands);
  /* Schedules of the kept candidates; the heuristic's one goes first. */
  plans = calloc((size_t)cands.n, sizeof *plans);
  int64_t *order = calloc((size_t)cands.n + 1, sizeof *order), kept = 0;
  if (!plans || !order)
    abort();
  for (int64_t i = 0; i < cands.n; ++i) {
    if (!planOf(&p, cands.v[i], &plan))
      continue; /* does not lower with this knob: not in the space */
    bool seen = false;
    for (int64_t j = 0; j < kept && !seen; ++j)
      seen = !strcmp(plans[order[j]], plan.data);
    if (seen)
      continue;
    plans[i] = plan.data;
    plan = (RockStr){0};
    if (!strcmp(plans[i], heur.data) && kept > 0) {
      memmove(order + 1, order, (size_t)kept * sizeof *order);
      order[0] = i;
    } else {
      order[kept] = i;
    }
    ++kept;
  }
  emit(NULL, heur.data, user);
  for (int64_t j = 0; j < kept; ++j)
    emit(cands.v[order[j]], plans[order[j]], user);
  free(order);
  count = kept;
done:
  for (int64_t i = 0; i < cands.n; ++i) {
    free(cands.v[i]);
    if (plans)
      free(plans[i]);
  }
  free(cands.v);
  free(plans);
  rock__strFree(&heur);
  rock__strFree(&plan);
  if (p.pm.ptr)
    mlirPassManagerDestroy(p.pm);
  if (p.base.ptr)
    mlirModuleDestroy(p.base);
  return count;
}
