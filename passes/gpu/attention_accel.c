/*===- attention_accel.c - the GPU attention schedule on tensor cores -----===*
 *
 * rock.gridwise_attention on the tile-product emitters (accel.h) for
 * prefill and multi-token decode (Sq·R >= 16 merged rows), f16 / bf16, and
 * i8 Q/K with f16 / bf16 V (gemm0 on the i8 instruction with i32
 * accumulators; the region, e.g. a dequant, takes the i32 scores, then
 * softmax and P·V run on V's instruction):
 *   - one workgroup per (batch·KV-head group, block of NB = 16·W merged
 *     rows, split); the q x group rows of a KV group are merged rows
 *     n = i·R + r, so one MMA tile packs the group's heads and K/V are read
 *     once per group;
 *   - W warps (waves), each owning 16 merged rows against every key;
 *   - Q staged once in workgroup memory, its A fragments kept in registers;
 *   - per key tile of MB keys: the region, scores and masks from
 *     passes/attention/ per accumulator element, the online softmax per row
 *     (lane max + xor shuffles over the lanes that share a row; the row sum
 *     kept per lane and reduced at the end), O = c·O + P·V (V read
 *     [key][dv]);
 *   - finalisation, O and LSE stores from passes/attention/.
 * On NVIDIA (mma.sync, 16-bit; docs/gpu-accel.md):
 *   - one workgroup buffer viewed as Q, K and V [rows][d], 16-byte chunks
 *     XOR-swizzled by row (rows padded by 16 bytes when d is not a multiple
 *     of 64; Q under K and V when the three do not fit side by side);
 *   - fragments by ldmatrix.x4 (.trans for V); P stays in registers (two
 *     m16n8 score accumulators are the A fragment of a k16 step, converted
 *     in pairs), 64-key tiles;
 *   - K and V staged with 16-byte stores marked rock.async_copy
 *     (rock-gpu-async-copy makes them cp.async, through paged views too):
 *     V(t) streams in during Q·K(t)ᵀ and K(t+1) during P·V(t), two
 *     barriers per tile;
 *   - masks only on the tiles that need them (key tail, past some row's
 *     last key, before some row's window start), causal blocks launched
 *     longest first.
 * On sm_90a with rock.gpu_accel_wgmma = true (and 64 merged rows per block),
 * Q·Kᵀ runs on warpgroup MMA instead: Q and K staged in its layout, S cut
 * into the m16n8 tiles the rest reads.
 * Elsewhere (AMD, and rock.gpu_accel_ldmatrix / _p_in_registers = false
 * on NVIDIA as off switches) K and V go through registers into separate
 * buffers, fragments are vector loads, and (without the register form) P
 * goes through workgroup memory with 32-key tiles.
 * rock-gridwise-attention-to-gpu calls rock__gpuAttnAccel first and keeps
 * its SIMT schedule when this one does not apply (other dtypes, Sq·R below
 * decodeMinRows: 1 on NVIDIA, 16 on AMD; no matrix instruction, head dims off
 * the instruction's multiples, workgroup memory, a `features` attribute without
 * the target's matrix instruction: rock-gen -mfma=off / -wmma=off);
 * rock.gpu_accel = false turns it off. Without a user split, the keys are cut
 * so that the grid has about wgPerSm workgroups per SM / CU (rock__gpuNumCu:
 * rock.num_cu, rock-gen -num_cu, else the target's count).
 *===----------------------------------------------------------------------===*/
#include "gpu/accel.h"
#include "gpu/fused_combine.h"
#include "gpu/page_runs.h"
#include "internal.h"
#include "support/perf_config.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAXW = 4, /* warps per workgroup (up to MAXW_LDM with ldmatrix and
               rock.gpu_accel_warps, for comparisons) */
  MAXW_LDM = 8,
  MB_KEYS = 64, /* keys per tile at most (32 when memory is short) */
  VEC = 8,      /* 16-bit elements per 16-byte access */
  SMEM_MAX = 49152,
  MAXKS = 16,       /* Dqk / k */
  MAXNT = 32,       /* Dv / n, MB / n */
  MAXR = 8,         /* distinct rows per lane */
  SPLIT_PER_CU = 2, /* workgroups per CU the internal split aims at (AMD) */
  MIN_ROWS_AMD =
      16,           /* merged rows Sq·R from which it applies (decodeMinRows) */
  L2_AHEAD = 0,     /* key tiles ahead whose K / V lines are prefetched to L2
                       (opt-in: 2 ahead made decode 1.5x slower on the H200) */
  FUSED_ROWS = 4,   /* the internal split is merged by the last workgroup */
  FUSED_SPLIT = 16, /* (rock.gpu_fused_combine) by default up to Sq·R merged
                       rows and from P partitions: B 1 decode on the H200,
                       9-13 % faster at L 8k, 3-8 % at 32k, within 3 % at
                       128k; within 2 % with 8 or 1 rows or fewer partitions
                       (where a paged kernel spills a few bytes), 10 %
                       slower with 16 rows (R 16, B 4, L 16k) */
  FUSED_BY_RULE = 2, /* rock.gpu_fused_combine not given: FUSED_ROWS */
  BY_RULE = 2,       /* rock.gpu_accel_kv_overlap / _page_ahead not given:
                        stagingRule */
  OVL_ROWS = 64,     /* stagingRule: with K^T pairs asked, dense K / V
                        overlap from Sq·R merged rows */
  OVL_MAX_Q = 16,    /* stagingRule: the overlap for up to this many queries
                        (decode; prefill on this schedule not measured) */
  PAGE_TOKENS = 64,  /* stagingRule: page runs from pages of this many keys */
  SPLIT_FILL = 0,    /* the internal split fills its waves with any count
                        of partitions, not only powers of two (rock.gpu_
                        split_fill; opt-in: no gain measured on the H200,
                        docs/gpu.md "Decode") */
  FILL_PCT = 90,     /* fillWave: the share of the waves' resident */
  FILL_WAVES = 4,    /* workgroups to reach, within this many waves */
  LINE = 128,        /* bytes of a cache line */
  STAGES = 2,        /* rock.gpu_accel_stages: K / V tiles staged at once;
                        2: the two-buffer staging (K(t + 1) during P·V(t)),
                        3..MAX_STAGES: the ring (opt-in, ringTop) */
  MAX_STAGES = 6,
  UNROLL_ASYNC = 8 /* cp.async copies a thread issues unrolled at most */
};

typedef struct AccSched {
  RockAccel ac;  /* P·V: V's type */
  RockAccel acS; /* Q·Kᵀ: Q/K's type (i8 -> i32 or = ac); the same C layout */
  int w, nb, mb, ks, ntS, ntD, nr, nchq, nchv;
  int vecQK; /* Q/K elements per 16-byte access */
  bool ldmS; /* Q·Kᵀ fragments with ldmatrix too (16-bit Q/K) */
  bool pReg; /* P stays in registers as the A operand of P·V */
  /* mma.sync 16-bit: ldmatrix fragments from swizzled tiles, K / V staged
   * with cp.async (rock.async_copy) while the other gemm runs; Q, K, V are
   * views of one buffer (Q under K and V when they do not fit side by side) */
  bool ldm, swzQ, swzK, swzV;
  /* K stored key-major ([.., Dqk, Sk]: rocMLIR's default layout): staged
   * as K^T [Dqk][MB] with 16-byte loads along the keys, and read for Q·Kᵀ
   * like V ([k][col], ldmatrix .trans) */
  bool kT;
  /* with cp.async staging: the K / V lines of tile t + l2Ahead are
   * prefetched into L2 while tile t is staged (0: none) */
  int l2Ahead;
  /* with cp.async staging (not wgS): K(t + 1) is issued once Q·K(t)ᵀ has
   * read K(t), V(t + 1) once P·V(t) has read V(t), so a copy of each is in
   * flight at every point of the tile (four barriers a tile, not two) */
  bool ovl;
  /* rock.gpu_accel_stages >= 3 (not wgS): a ring of st slots, each a K
   * and a V tile of mb keys (kStage / vStage bytes apart); the copies of
   * tiles t + 1 .. t + st - 1 are in flight while tile t is read, one
   * cp.async group and one barrier a tile (0: the two-buffer staging) */
  int st;
  int64_t kStage, vStage;
  /* rock.gpu_accel_kt_pairs (kT, two-buffer staging without the overlap):
   * two K^T slots (kStage bytes apart, Q under them), K^T of tiles t + 1
   * and t + 2 issued together after Q·K(t)ᵀ of every second tile, so that
   * each d row is read in runs of 2·mb keys */
  bool kPair;
  bool fill; /* splitOneWave: any partition count (SPLIT_FILL) */
  /* sm_90a: Q·Kᵀ on warpgroup MMA (acW, m64 n MB k16) from Q and K staged
   * in its layout; the S accumulator is cut into acS's tiles */
  bool wgS;
  RockAccel acW;
  int64_t pq, pk, pv; /* row pitch of Q, of K (K^T when kT) and of V */
  int64_t qOff, kOff, vOff, bytes;
  /* rock.gpu_accel_page_ahead: K rows / V staged by page runs whose
   * pointers are loaded a tile ahead (page_runs.h); xK / xV index their
   * page tables in a->extra */
  bool pgK, pgV;
  RockPageView pvK, pvV;
  RockPagePlan plK, plV;
  int xK, xV;
  int64_t numCu;   /* rock__gpuNumCu */
  int64_t wgPerSm; /* the split's workgroups per SM (wgPerSm) */
  char elt[16], eltQK[16];
} AccSched;

/* The schedule's switches (module attributes, docs/gpu.md "Schedule
 * switches"); -1 in any field after a bad value was reported. */
typedef struct AccSwitches {
  int accel;     /* rock.gpu_accel: false keeps the SIMT schedule */
  int ldm;       /* rock.gpu_accel_ldmatrix: false = vector fragment loads */
  int preg;      /* rock.gpu_accel_p_in_registers: false = P through memory */
  int swz;       /* rock.gpu_accel_swizzle: false = rows padded by 16 bytes */
  int warps;     /* rock.gpu_accel_warps: warps per workgroup at most */
  int wgmma;     /* rock.gpu_accel_wgmma: Q·Kᵀ on wgmma (sm_90a) */
  int minRows;   /* rock.gpu_accel_min_rows: merged rows Sq·R that take it
                    (0: the rule of decodeMinRows) */
  int l2Ahead;   /* rock.gpu_accel_l2_prefetch: tiles ahead prefetched to L2 */
  int pageAhead; /* rock.gpu_accel_page_ahead: paged K / V by page runs
                    (BY_RULE when not given) */
  int fused;     /* rock.gpu_fused_combine: the split merged in the kernel
                    (FUSED_BY_RULE when not given) */
  int ovl;       /* rock.gpu_accel_kv_overlap: K and V copies in flight
                    together (BY_RULE when not given) */
  int fill;      /* rock.gpu_split_fill: the split fills the wave */
  int stages;    /* rock.gpu_accel_stages: K / V tiles staged at once */
  int kPair;     /* rock.gpu_accel_kt_pairs: K^T tiles staged two at once */
} AccSwitches;

static bool readSwitches(MlirOperation op, MlirExternalPass pass,
                         AccSwitches *w) {
  w->accel = rock__gpuSwitch(op, pass, "rock.gpu_accel", 1, 0, 1);
  w->ldm = rock__gpuSwitch(op, pass, "rock.gpu_accel_ldmatrix", 1, 0, 1);
  w->preg = rock__gpuSwitch(op, pass, "rock.gpu_accel_p_in_registers", 1, 0, 1);
  w->swz = rock__gpuSwitch(op, pass, "rock.gpu_accel_swizzle", 1, 0, 1);
  w->warps =
      rock__gpuSwitch(op, pass, "rock.gpu_accel_warps", MAXW, 1, MAXW_LDM);
  w->wgmma = rock__gpuSwitch(op, pass, "rock.gpu_accel_wgmma", 0, 0, 1);
  w->minRows = rock__gpuSwitch(op, pass, "rock.gpu_accel_min_rows", 0, 1, 16);
  w->l2Ahead =
      rock__gpuSwitch(op, pass, "rock.gpu_accel_l2_prefetch", L2_AHEAD, 0, 4);
  w->pageAhead =
      rock__gpuSwitch(op, pass, "rock.gpu_accel_page_ahead", BY_RULE, 0, 1);
  w->fused =
      rock__gpuSwitch(op, pass, "rock.gpu_fused_combine", FUSED_BY_RULE, 0, 1);
  w->ovl =
      rock__gpuSwitch(op, pass, "rock.gpu_accel_kv_overlap", BY_RULE, 0, 1);
  w->fill = rock__gpuSwitch(op, pass, "rock.gpu_split_fill", SPLIT_FILL, 0, 1);
  w->stages =
      rock__gpuSwitch(op, pass, "rock.gpu_accel_stages", STAGES, 2, MAX_STAGES);
  w->kPair = rock__gpuSwitch(op, pass, "rock.gpu_accel_kt_pairs", 0, 0, 1);
  return w->kPair >= 0 && w->accel >= 0 && w->ldm >= 0 && w->preg >= 0 &&
         w->swz >= 0 && w->warps >= 0 && w->wgmma >= 0 && w->minRows >= 0 &&
         w->l2Ahead >= 0 && w->pageAhead >= 0 && w->fused >= 0 && w->ovl >= 0 &&
         w->fill >= 0 && w->stages >= 0;
}

/* The staging rule, measured on the H200 (bench/RESULTS-gpu.md, runs 11
 * and 13): K(t + 1) and V(t) in flight together (kv_overlap) for every
 * problem of up to OVL_MAX_Q queries (prefill on this schedule was not
 * measured with it): paged K / V (p16 decode 4-6 % faster, GQA 4 B 64 L 2k
 * p16 25 %), dense q 16 GQA 4 (6-11 % faster), dense q-1 decode at B 1
 * (0.98-0.99x) and 1.003-1.006x at 1-16 GiB of K + V (run 13's final
 * call: dense against dense-ov0); where K^T pairs are asked (`pairs`: they
 * replace it) the run-11 rule, paged K / V or OVL_ROWS merged rows Sq·R. The
 * ring gives it up in applies(). Page runs (page_ahead, `page`) with the
 * overlap (`ovl`, as resolved) for pages of PAGE_TOKENS keys and more
 * (`pageKeys`; p64: 1-3 % faster than p64 with the overlap; p16: 1-1.5 % slower
 * than p16 with it). `sw` is the module's switch: 0 or 1 given wins, BY_RULE
 * takes the rule. */
static bool stagingRule(int sw, bool page, const RockAttn *a, bool ovl,
                        bool pairs, int64_t pageKeys) {
  if (sw != BY_RULE)
    return sw == 1;
  if (page)
    return ovl && pageKeys >= PAGE_TOKENS;
  return a->Sq <= OVL_MAX_Q &&
         (!pairs || a->kvPaged || a->Sq * a->R >= OVL_ROWS);
}

/* Workgroup memory of the schedule for `mb` keys per tile (s->st slots of
 * K and V with the ring); false when it does not fit. */
static bool layout(const RockAttn *a, AccSched *s) {
  int64_t eq = 16 / s->vecQK; /* bytes of a Q / K element */
  int64_t q = eq * s->nb * s->pq, k = eq * (s->kT ? a->Dqk : s->mb) * s->pk,
          v = 2 * (int64_t)s->mb * s->pv;
  s->kStage = k, s->vStage = v;
  if (s->st)
    k *= s->st, v *= s->st;
  if (s->kPair)
    k *= 2;
  if (!s->ldm) {
    s->bytes = q + k + v + (s->pReg ? 0 : 2 * (int64_t)s->nb * s->mb);
    return s->bytes <= SMEM_MAX;
  }
  s->kOff = 0, s->vOff = k;
  if (q + k + v <= SMEM_MAX)
    s->qOff = k + v, s->bytes = q + k + v;
  else
    s->qOff = 0, s->bytes = q > k + v ? q : k + v;
  return s->bytes <= SMEM_MAX;
}

/* The key tile s->mb: the largest from MB_KEYS (32 without P in registers)
 * down to minMb whose layout fits (K^T rows and pitch follow it); false
 * when none does (s->mb is then minMb). */
static bool pickTile(const RockAttn *a, AccSched *s, bool swz, int minMb) {
  for (s->mb = s->pReg ? MB_KEYS : 32;; s->mb /= 2) {
    s->swzK = s->kT ? swz && rock__accelSwizzleFits(s->mb) : s->swzQ;
    s->pk = s->kT ? s->mb + (s->ldm && !s->swzK ? VEC : 0) : s->pq;
    if (layout(a, s))
      return true;
    if (s->mb <= minMb)
      return false;
  }
}

/* The warps per workgroup a perf_config asks for: rocMLIR's waves per
 * workgroup, (mPerBlockG0 / mPerWave) · (nPerBlockG0 / nPerWave), when the
 * wave fields divide the tiles into 1 to `maxw` waves; else 0 (no
 * perf_config, no wave fields, or a count this schedule has no counterpart
 * for, such as rocMLIR's 16-wave workgroups or fields that do not divide
 * the tiles: the schedule keeps its own count). */
static int perfWarps(MlirOperation op, int maxw) {
  MlirAttribute pc = rock__attr(op, "perf_config");
  if (mlirAttributeIsNull(pc) || !mlirAttributeIsAString(pc))
    return 0;
  MlirStringRef str = mlirStringAttrGetValue(pc);
  RockPerfConfig p;
  char err[256];
  if (!rockPerfConfigParse(str.data, str.length, &p, err, sizeof err) ||
      p.mPerWave <= 0 || p.nPerWave <= 0 || p.mPerBlock % p.mPerWave ||
      p.nPerBlock % p.nPerWave)
    return 0;
  int64_t w = (p.mPerBlock / p.mPerWave) * (p.nPerBlock / p.nPerWave);
  return w <= maxw ? (int)w : 0;
}

/* The decode rule: the merged rows Sq·R from which the tensor-core schedule
 * takes a problem instead of the SIMT one. On NVIDIA every 16-bit decode
 * (one row and up) runs on it, its 16-row MMA tile padded: K and V are read
 * once per KV group either way, the registers do not grow with R (about
 * 240 for any R <= 16, d 128), and memory-bound work can afford idle MMA
 * rows (docs/gpu.md, "Decode"). AMD and i8 Q/K keep 16 (not measured). */
static int decodeMinRows(const RockGpuTarget *t, const AccSched *s) {
  return t->vendor == ROCK_GPU_NVIDIA && s->vecQK == VEC ? 1 : MIN_ROWS_AMD;
}

/* Workgroups per SM the internal split aims at (T = this x SMs): as many as
 * the SM's workgroup memory and registers hold at the schedule's size
 * (FlashInfer's blocks-per-SM x SMs), so that a split decode streams on
 * every SM: 6 for a one-warp decode workgroup (36 KiB), 2 for four-warp
 * prefill blocks (48 KiB, about 240 registers a lane). AMD: SPLIT_PER_CU. */
static int64_t wgPerSm(const RockGpuTarget *t, const AccSched *s) {
  if (t->vendor != ROCK_GPU_NVIDIA)
    return SPLIT_PER_CU;
  int64_t smem = t->smVersion >= 90 ? 227 * 1024 : 99 * 1024;
  int64_t bySmem = smem / (s->bytes + 1024); /* 1 KiB reserved a block */
  int64_t byRegs = 65536 / (256 * 32 * (int64_t)s->w);
  int64_t n = bySmem < byRegs ? bySmem : byRegs;
  return n > 1 ? n : 1;
}

/* Whether the schedule applies (then *s is filled) under switches `sw`. */
static bool applies(MlirOperation op, const AccSwitches *sw, RockAttn *a,
                    AccSched *s) {
  if (!sw->accel)
    return false;
  RockGpuTarget t;
  MlirExternalPass quiet = {NULL};
  if (!rock__gpuArch(op, quiet, &t) || rock__gpuAccelOff(op, &t))
    return false;
  s->numCu = rock__gpuNumCu(op, &t);
  char tq[16], tk[16], tv[16];
  rock__typeStr(tq, sizeof tq, a->tq, 1);
  rock__typeStr(tk, sizeof tk, a->tk, 1);
  rock__typeStr(tv, sizeof tv, a->tv, 1);
  /* Type pairs: Q = K = V in f16 / bf16, or i8 Q/K with f16 / bf16 V. */
  bool v16 = !strcmp(tv, "f16") || !strcmp(tv, "bf16");
  if (strcmp(tq, tk) || !v16 || (strcmp(tq, tv) && strcmp(tq, "i8")))
    return false;
  if (!rock__accelSelect(&t, tq, &s->acS) ||
      !rock__accelSelect(&t, tv, &s->ac) || s->acS.n != s->ac.n ||
      s->acS.cElems != s->ac.cElems)
    return false;
  snprintf(s->elt, sizeof s->elt, "%s", tv);
  snprintf(s->eltQK, sizeof s->eltQK, "%s", tq);
  s->vecQK = strcmp(tq, "i8") ? VEC : 2 * VEC;
  const RockAccel *ac = &s->ac, *acS = &s->acS;
  int64_t sqr = a->Sq * a->R;
  int minRows = sw->minRows ? sw->minRows : decodeMinRows(&t, s);
  if (sqr < minRows || a->Dqk % acS->k || a->Dv % ac->n || a->Dqk % s->vecQK ||
      a->Dv % VEC || a->Dqk / acS->k > MAXKS || a->Dv / ac->n > MAXNT)
    return false;
  /* mma.sync: two m16n8 accumulator tiles are the A fragment of a k16 step,
   * so P stays in registers, and the freed memory takes 64-key tiles;
   * ldmatrix reads column pairs of 16. */
  s->pReg = ac->kind == ROCK_ACCEL_MMA_SYNC && 2 * ac->n == ac->k && sw->preg;
  s->ldm = s->pReg && rock__accelHasLdmatrix(ac) && a->Dv % 16 == 0 && sw->ldm;
  int maxw = s->ldm ? sw->warps : MAXW;
  /* A perf_config's wave fields set the warps (rows still bound them). */
  int pw = perfWarps(op, s->ldm ? MAXW_LDM : MAXW);
  if (pw > 0)
    maxw = pw;
  /* ldmatrix reads 8 rows of 16 bytes: 16-byte chunks XOR-swizzled (rows
   * of a multiple of 64 elements) or else rows padded by 16 bytes (also
   * with rock.gpu_accel_swizzle = false) keep them in distinct banks. Q and K
   * take ldmatrix when their instruction does (not i8). */
  bool swz = s->ldm && sw->swz;
  s->ldmS = s->ldm && rock__accelHasLdmatrix(acS);
  s->swzV = swz && rock__accelSwizzleFits(a->Dv);
  s->pv = a->Dv + (s->ldm && !s->swzV ? VEC : 0);
  /* sm_90a, opt-in (rock.gpu_accel_wgmma = true; verified, but slower than
   * ldmatrix + mma.sync so far: docs/gpu-accel.md): Q·Kᵀ on wgmma when one
   * warpgroup holds the block (4 warps, 64 merged rows), with 64-key tiles
   * and Q, K, V side by side (Q is read from workgroup memory every tile). */
  s->wgS = s->ldmS && maxw >= 4 && sqr >= 64 && sw->wgmma &&
           rock__accelSelectWarpgroup(&t, tq, MB_KEYS, &s->acW) &&
           2 * (128 * a->Dqk + MB_KEYS * s->pv) <= SMEM_MAX;
  s->swzQ = !s->wgS && swz && s->ldmS && rock__accelSwizzleFits(a->Dqk);
  s->pq = a->Dqk + (s->ldm && !s->swzQ && !s->wgS ? s->vecQK : 0);
  s->w = (int)((sqr + 15) / 16);
  if (s->w > maxw)
    s->w = maxw;
  if (s->wgS)
    s->w = 4;
  s->nb = 16 * s->w;
  /* Key-major K (16-bit, whole 16-byte chunks of keys): K^T tiles. */
  s->kT = a->kKeyMajor && s->vecQK == VEC && a->Sk % VEC == 0 && !s->wgS;
  s->l2Ahead = s->ldm && t.vendor == ROCK_GPU_NVIDIA ? sw->l2Ahead : 0;
  s->fill = sw->fill;
  /* The ring (opt-in): the largest key tile whose st slots fit; where none
   * does, the two-buffer staging. The K / V overlap and the L2 prefetch
   * give way to it. */
  s->st = s->ldm && !s->wgS && sw->stages > 2 ? sw->stages : 0;
  if (s->st && !pickTile(a, s, swz, 16))
    s->st = 0;
  if (s->st)
    s->l2Ahead = 0;
  s->ovl = s->ldm && !s->wgS && !s->st &&
           stagingRule(sw->ovl, false, a, false, s->kT && sw->kPair, 0);
  /* K^T pairs (opt-in): where the two slots fit with 64-key tiles. */
  s->kPair = !s->st && s->kT && s->ldm && !s->ovl && sw->kPair;
  if (s->kPair && !pickTile(a, s, swz, MB_KEYS))
    s->kPair = false;
  if (!s->st && !s->kPair)
    (void)pickTile(a, s, swz, 32);
  s->ks = (int)(a->Dqk / acS->k);
  s->ntS = s->mb / acS->n;
  s->ntD = (int)(a->Dv / ac->n);
  s->nr = ac->kind == ROCK_ACCEL_MMA_SYNC ? 2 : ac->cElems;
  s->nchq = (int)(a->Dqk / s->vecQK);
  s->nchv = (int)(a->Dv / VEC);
  if (!layout(a, s) || s->mb % ac->k || s->mb / ac->n > MAXNT ||
      (s->wgS && (s->mb != MB_KEYS || s->qOff == s->kOff)))
    return false;
  /* Causal row blocks see more keys the later they come: launch them in
   * reverse, the longest first, so the last wave holds the short ones. */
  if (s->ldm && a->causal)
    a->reverse = !a->reverse;
  a->NB = s->nb;
  a->MB = s->mb;
  a->nNBlk = (sqr + a->NB - 1) / a->NB;
  a->grid = a->Bkv * a->nNBlk * a->S;
  s->wgPerSm = wgPerSm(&t, s);
  return true;
}

/* The distinct row (0..nr-1) of accumulator element e. */
static int rowOf(const AccSched *s, int e) {
  return s->ac.kind == ROCK_ACCEL_MMA_SYNC ? e / 2 : e;
}

static int shuffleXor(RockGen *g, const AccSched *s, int v, int off) {
  char lit[16];
  snprintf(lit, sizeof lit, "%d", off);
  snprintf(lit + 8, 8, "%d", s->ac.wave);
  int o = rock__genConst(g, lit, "i32"), w = rock__genConst(g, lit + 8, "i32");
  int sh = rock__genFresh(g), ok = rock__genFresh(g);
  rock__genLine(g, "%%v%d, %%v%d = gpu.shuffle xor %%v%d, %%v%d, %%v%d : f32",
                sh, ok, v, o, w);
  return sh;
}

/* Reduces `v` (max or add) over the lanes that share its row. */
static int rowReduce(RockGen *g, const AccSched *s, int v, const char *op) {
  int lanes = s->ac.kind == ROCK_ACCEL_MMA_SYNC ? 4 : 16;
  for (int off = 1; off < lanes; off *= 2)
    v = rock__genBin(g, op, v, shuffleXor(g, s, v, off), "f32");
  return v;
}

/* Where chunk (r, d) of a [rows][pitch] tile goes: [r, swizzled d], or
 * with `wgl` the wgmma layout's element offset (rock__accelWgmmaIndex) as
 * [offset / pitch, offset % pitch] of the same contiguous tile. */
static void chunkAt(RockGen *g, bool swz, bool wgl, int rows, int64_t pitch,
                    int r, int d, int *i0, int *i1) {
  if (!wgl) {
    *i0 = r, *i1 = rock__accelSwizzle(g, swz, r, d);
    return;
  }
  int o = rock__accelWgmmaIndex(g, rows, r, d), cp = rock__genIndex(g, pitch);
  *i0 = rock__genBin(g, "arith.divui", o, cp, "index");
  *i1 = rock__genBin(g, "arith.remui", o, cp, "index");
}

/* Row r and element column d of chunk i of a [rows][nch·vec] tile copied by
 * consecutive threads: row-major (i = r·nch + c), or with `wgl` 8 rows at a
 * time (i = (r / 8·nch + c)·8 + r % 8), so that the 8 threads of a 16-byte
 * store phase write 8 rows of one core matrix (128 contiguous bytes, no
 * bank conflict in the wgmma layout) and a warp still reads 64 contiguous
 * bytes of each row. */
static void rowChunk(RockGen *g, bool wgl, int i, int nch, int vec, int *r,
                     int *d) {
  int cn = rock__genIndex(g, nch), c8 = rock__genIndex(g, 8);
  int q = wgl ? rock__genBin(g, "arith.divui", i, c8, "index") : i;
  int c = rock__genBin(g, "arith.remui", q, cn, "index");
  *r = rock__genBin(g, "arith.divui", q, cn, "index");
  if (wgl)
    *r = rock__genBin(g, "arith.addi",
                      rock__genBin(g, "arith.muli", *r, c8, "index"),
                      rock__genBin(g, "arith.remui", i, c8, "index"), "index");
  *d = rock__genBin(g, "arith.muli", c, rock__genIndex(g, vec), "index");
}

/* Whether a cooperative copy of `total` chunks by `nThreads` threads is
 * unrolled (all loads issued before any store) or a loop: plain loads are
 * unrolled when the threads divide the chunks, so that they are all in
 * flight; cp.async copies of contiguous K / V do not wait, and each
 * unrolled one keeps its address live across the key loop, so more than
 * UNROLL_ASYNC a thread (decode: one warp copies 32 chunks of a 64-key
 * tile) are a loop (unrolled: 241-255 registers and up to 520 bytes of
 * spills for d 128; as a loop 224-237, none, and as fast on the H200). A
 * paged copy stays unrolled: each cp.async waits for its page pointer, which
 * the unrolled copies of a page share and load up front; in a loop every
 * copy waited for its own (B 8 L 32k decode, pages of 16 tokens: 369 µs,
 * against 284 unrolled with the split of the time; bench/RESULTS-gpu.md).
 * In the ring (s->st) contiguous cp.async copies are always a loop: its
 * smaller tiles leave 4-8 copies a thread, unrolled 244-255 registers for
 * multi-token decode (q 8 / 16), as a loop no more than without the ring. */
static bool unrolled(const RockAttn *a, const AccSched *s, int64_t total,
                     int nThreads, bool async) {
  return total % nThreads == 0 &&
         (!async || a->kvPaged || (!s->st && total / nThreads <= UNROLL_ASYNC));
}

/* Cooperative copy of `rows` x `nch` 16-byte chunks of `view` (rows from key
 * j0, clamped to Sk - 1), `vec` elements each, into `sm` [rows][nch·vec]
 * (chunks placed by chunkAt with `swz`, `wgl`); with `async`, the stores
 * are marked for rock-gpu-async-copy. */
static void stageKeys(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                      int nThreads, int view, const char *mt, MlirType elt,
                      int vec, int gBlk, int j0, int nch, int sm,
                      const char *smt, bool swz, bool wgl, bool async) {
  int64_t total = (int64_t)s->mb * nch;
  bool flat = unrolled(a, s, total, nThreads, async);
  int reps = flat ? (int)(total / nThreads) : 1;
  for (int rep = 0; rep < reps; ++rep) {
    int i =
        flat ? rock__genBin(g, "arith.addi", tx,
                            rock__genIndex(g, (int64_t)rep * nThreads), "index")
             : rock__genFor(g, tx, rock__genIndex(g, total),
                            rock__genIndex(g, nThreads));
    int jr, d;
    rowChunk(g, wgl, i, nch, vec, &jr, &d);
    int j = rock__genBin(g, "arith.minui",
                         rock__genBin(g, "arith.addi", j0, jr, "index"),
                         rock__genIndex(g, a->Sk - 1), "index");
    char ib[128], ty[32];
    rock__idx3(ib, sizeof ib, gBlk, j, d);
    rock__typeStr(ty, sizeof ty, elt, vec);
    int v = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                  "%s -> %s",
                  v, view, ib, mt, ty);
    int i0, i1;
    chunkAt(g, swz, wgl, s->mb, (int64_t)nch * vec, jr, d, &i0, &i1);
    rock__genLine(g,
                  "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16%s} "
                  ": %s, %s",
                  v, sm, i0, i1, async ? ", rock.async_copy" : "", smt, ty);
    if (!flat)
      rock__genEnd(g);
  }
}

/* Cooperative copy of K^T for the tile from key j0: Dqk rows of MB keys
 * from the key-major view `kt` ([Bkv][Dqk][Sk], a->Sk % VEC == 0), one
 * 16-byte load of VEC consecutive keys per chunk (8 threads read the 128
 * contiguous bytes of one d), into `sm` [Dqk][pk] (chunks swizzled by row
 * with s->swzK). Chunks past the last key re-read the last whole chunk: those
 * keys are masked. */
static void stageKeysT(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                       int nThreads, int kt, const char *mkt, int gBlk, int j0,
                       int sm, const char *smt, bool async) {
  int nch = s->mb / VEC;
  int64_t total = a->Dqk * nch;
  bool flat = unrolled(a, s, total, nThreads, async);
  int reps = flat ? (int)(total / nThreads) : 1;
  char ty[32], ib[128];
  rock__typeStr(ty, sizeof ty, a->tk, VEC);
  for (int rep = 0; rep < reps; ++rep) {
    int i =
        flat ? rock__genBin(g, "arith.addi", tx,
                            rock__genIndex(g, (int64_t)rep * nThreads), "index")
             : rock__genFor(g, tx, rock__genIndex(g, total),
                            rock__genIndex(g, nThreads));
    int d, c;
    rowChunk(g, false, i, nch, VEC, &d, &c);
    int j = rock__genBin(g, "arith.minui",
                         rock__genBin(g, "arith.addi", j0, c, "index"),
                         rock__genIndex(g, a->Sk - VEC), "index");
    rock__idx3(ib, sizeof ib, gBlk, d, j);
    int v = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                  "%s -> %s",
                  v, kt, ib, mkt, ty);
    int i0, i1;
    chunkAt(g, s->swzK, false, (int)a->Dqk, s->pk, d, c, &i0, &i1);
    rock__genLine(g,
                  "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16%s} "
                  ": %s, %s",
                  v, sm, i0, i1, async ? ", rock.async_copy" : "", smt, ty);
    if (!flat)
      rock__genEnd(g);
  }
}

/* The K tile from key j0 into `sm`: rows of K, or K^T from `kt` (s->kT). */
static void stageK(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                   int nThreads, int kt, const char *mkt, int gBlk, int j0,
                   int sm, const char *smt, bool async) {
  if (s->kT)
    stageKeysT(g, a, s, tx, nThreads, kt, mkt, gBlk, j0, sm, smt, async);
  else
    stageKeys(g, a, s, tx, nThreads, a->k, a->mk, a->tk, s->vecQK, gBlk, j0,
              s->nchq, sm, smt, s->swzK, s->wgS, async);
}

/* L2 prefetch of a rows x cols block at [gBlk, r0 + r, c0 + c] of `view`
 * (row and column clamped to rowMax / colMax), one rock.view_prefetch
 * (locality 1: L2) per 128-byte line of a row: thread tx takes line
 * tx % lpr of rows tx / lpr, + nThreads / lpr, ... (nThreads % lpr == 0). */
static void prefetchLines(RockGen *g, int tx, int nThreads, int view,
                          const char *mt, int gBlk, int r0, int64_t rows,
                          int64_t rowMax, int c0, int64_t cols, int64_t colMax,
                          int64_t eltBytes) {
  int64_t perLine = LINE / eltBytes;
  int64_t lpr = (cols + perLine - 1) / perLine;
  if (nThreads % lpr)
    return; /* (every schedule here has lpr | threads) */
  int cl = rock__genIndex(g, lpr);
  int c = rock__genBin(
      g, "arith.minui",
      rock__genBin(g, "arith.addi", c0,
                   rock__genBin(g, "arith.muli",
                                rock__genBin(g, "arith.remui", tx, cl, "index"),
                                rock__genIndex(g, perLine), "index"),
                   "index"),
      rock__genIndex(g, colMax), "index");
  int rr =
      rock__genFor(g, rock__genBin(g, "arith.divui", tx, cl, "index"),
                   rock__genIndex(g, rows), rock__genIndex(g, nThreads / lpr));
  int r = rock__genBin(g, "arith.minui",
                       rock__genBin(g, "arith.addi", r0, rr, "index"),
                       rock__genIndex(g, rowMax), "index");
  char ib[128];
  rock__idx3(ib, sizeof ib, gBlk, r, c);
  rock__genLine(g, "rock.view_prefetch %%v%d[%s] {locality = 1 : i32} : %s",
                view, ib, mt);
  rock__genEnd(g);
}

/* The K and V lines of key tile kp (when kp < end) into L2 (s->l2Ahead). */
static void prefetchTile(RockGen *g, const RockAttn *a, const AccSched *s,
                         int tx, int nThreads, int ktv, const char *mkt,
                         int gBlk, int kp, int end) {
  int more = rock__genBin(g, "arith.cmpi ult,", kp, end, "index");
  rock__genLine(g, "scf.if %%v%d {", more);
  g->depth++;
  int j0;
  (void)rock__attnTileCols(g, a, kp, &j0);
  int64_t eb = 16 / s->vecQK;
  int c0 = rock__genIndex(g, 0);
  if (s->kT)
    prefetchLines(g, tx, nThreads, ktv, mkt, gBlk, c0, a->Dqk, a->Dqk - 1, j0,
                  s->mb, a->Sk - 1, eb);
  else
    prefetchLines(g, tx, nThreads, a->k, a->mk, gBlk, j0, s->mb, a->Sk - 1, c0,
                  a->Dqk, a->Dqk - 1, eb);
  prefetchLines(g, tx, nThreads, a->v, a->mv, gBlk, j0, s->mb, a->Sk - 1, c0,
                a->Dv, a->Dv - 1, 2);
  g->depth--;
  rock__genLine(g, "}");
}

/* The tile products of one warp on instruction `ac` against a tile of `nt`
 * n-columns: acc[t] (+)= A_k · B(col t·n, k) over k < nk; B from `mem`
 * (`mt`) stored [col][k] when kContig, else [k][col], with ldmatrix when
 * `ldm`; A fragment k is af[k]. */
static void tileProducts(RockGen *g, const RockAccel *ac, bool ldm,
                         const int *af, int nk, int mem, const char *mt,
                         bool kContig, bool swz, int lane, int nt, int *acc) {
  for (int k = 0; k < nk; ++k) {
    int k0 = rock__genIndex(g, k * ac->k);
    if (ldm) {
      for (int t = 0; t < nt; t += 2) {
        int b[2];
        rock__accelLdmB2(g, ac, mem, mt, kContig, swz,
                         rock__genIndex(g, t * ac->n), k0, lane, b);
        for (int h = 0; h < 2; ++h)
          acc[t + h] = rock__accelMma(g, ac, af[k], b[h], acc[t + h]);
      }
      continue;
    }
    for (int t = 0; t < nt; ++t)
      acc[t] = rock__accelMma(g, ac, af[k],
                              rock__accelLoadB(g, ac, mem, mt, kContig,
                                               rock__genIndex(g, t * ac->n), k0,
                                               lane),
                              acc[t]);
  }
}

/* S = Q·Kᵀ of the warpgroup on wgmma (s->wgS): Dqk / 16 products of
 * m64 n MB k16 from the staged Q [64][Dqk] and K [MB][Dqk]; warp w's share
 * of the accumulator, cut by 4, is its tiles of acS (same layout). */
static void gemm0Wgmma(RockGen *g, const AccSched *s, int sQ, const char *mQ,
                       int sK, const char *mK, int *sacc) {
  const RockAccel *acW = &s->acW;
  int c0 = rock__genIndex(g, 0);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int acc = rock__accelZero(g, acW);
  for (int k = 0; k < s->ks; ++k) {
    int ck = rock__genIndex(g, k * acW->k);
    int da = rock__accelWgmmaDesc(g, acW, sQ, mQ,
                                  rock__accelWgmmaIndex(g, s->nb, c0, ck));
    int db = rock__accelWgmmaDesc(g, acW, sK, mK,
                                  rock__accelWgmmaIndex(g, s->mb, c0, ck));
    acc = rock__accelMma(g, acW, da, db, acc);
  }
  rock__accelWgmmaEnd(g);
  for (int jt = 0; jt < s->ntS; ++jt) {
    sacc[jt] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.extract_strided_slice %%v%d {offsets = [%d], "
                  "sizes = [%d], strides = [1]} : vector<%dxf32> to "
                  "vector<%dxf32>",
                  sacc[jt], acc, jt * s->acS.cElems, s->acS.cElems, acW->cElems,
                  s->acS.cElems);
  }
}

/* Page-run staging (s->pgK / s->pgV): the views of the page pointers. */
typedef struct PageAhead {
  int pk, pv;            /* pointer views of K and V */
  char mk[512], mv[512]; /* their types */
} PageAhead;

/* The keys a page of `pv` holds. */
static int64_t pageKeys(const RockPageView *pv) {
  return pv->rowStride > 0 ? pv->pageElems / pv->rowStride : 0;
}

/* Which views take page runs (switch `sw`, stagingRule): tiles of whole
 * pages and no key tail (the last tile would clamp its rows), cp.async
 * staging of K rows / V. */
static void planPageRuns(MlirOperation op, int sw, RockAttn *a, AccSched *s) {
  s->pgK = s->pgV = false;
  if (!s->ldm || s->wgS || s->st || !a->kvPaged || a->Sk % s->mb || !sw)
    return;
  int nT = s->w * s->ac.wave;
  s->pgK = !s->kT &&
           rock__gpuPageView(mlirOperationGetOperand(op, 1), &s->pvK) &&
           stagingRule(sw, true, a, s->ovl, false, pageKeys(&s->pvK)) &&
           rock__gpuPagePlan(&s->pvK, nT, s->nchq, s->vecQK, s->mb, &s->plK);
  s->pgV = rock__gpuPageView(mlirOperationGetOperand(op, 2), &s->pvV) &&
           stagingRule(sw, true, a, s->ovl, false, pageKeys(&s->pvV)) &&
           rock__gpuPagePlan(&s->pvV, nT, s->nchv, VEC, s->mb, &s->plV);
  if (s->pgK)
    s->xK = a->nExtra, a->extra[a->nExtra++] = s->pvK.table;
  if (s->pgV)
    s->xV = a->nExtra, a->extra[a->nExtra++] = s->pvV.table;
}

/* The run pointers of V's (v) or K's tile kt into ptrs, kt clamped to the
 * last tile (a tile past the end loads pointers it never uses). */
static void pagePtrs(RockGen *g, const RockAttn *a, const AccSched *s,
                     const PageAhead *pa, bool v, int gBlk, int kt, int *ptrs) {
  int kc = rock__genBin(g, "arith.minui", kt,
                        rock__genIndex(g, a->Sk / s->mb - 1), "index");
  int j0 = rock__genBin(g, "arith.muli", kc, rock__genIndex(g, s->mb), "index");
  rock__gpuPagePtrs(g, v ? &s->plV : &s->plK, v ? pa->pv : pa->pk,
                    v ? pa->mv : pa->mk, gBlk, j0, ptrs);
}

/* V's (v) or K's tile into `sm` from the run pointers `ptrs`. */
static void pageStage(RockGen *g, const RockAttn *a, const AccSched *s, bool v,
                      const int *ptrs, int tx, int nThreads, int sm,
                      const char *smt) {
  if (v)
    rock__gpuPageStage(g, &s->pvV, &s->plV, ptrs, tx, nThreads, s->nchv, VEC,
                       a->tv, sm, smt, s->swzV);
  else
    rock__gpuPageStage(g, &s->pvK, &s->plK, ptrs, tx, nThreads, s->nchq,
                       s->vecQK, a->tk, sm, smt, s->swzK);
}

/* V's tile kt staged by cp.async into `sV` (not committed): from the run
 * pointers `ptrs` with page runs, else through the view. */
static void stageV(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                   int nThreads, int gBlk, int kt, const int *ptrs, int sV,
                   const char *mV) {
  if (s->pgV) {
    pageStage(g, a, s, true, ptrs, tx, nThreads, sV, mV);
    return;
  }
  int j0;
  (void)rock__attnTileCols(g, a, kt, &j0);
  stageKeys(g, a, s, tx, nThreads, a->v, a->mv, a->tv, VEC, gBlk, j0, s->nchv,
            sV, mV, s->swzV, false, true);
}

/* K pairs (s->kPair): K^T of tile kt into `sK0` and, when kt + 1 < end, of
 * tile kt + 1 into `sK1` (not committed). */
static void pairStage(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                      int nThreads, int ktv, const char *mkt, int gBlk, int kt,
                      int end, int sK0, int sK1, const char *mK) {
  for (int h = 0; h < 2; ++h) {
    int kh = rock__genBin(g, "arith.addi", kt, rock__genIndex(g, h), "index");
    if (h) {
      rock__genLine(g, "scf.if %%v%d {",
                    rock__genBin(g, "arith.cmpi ult,", kh, end, "index"));
      g->depth++;
    }
    int j0;
    (void)rock__attnTileCols(g, a, kh, &j0);
    stageK(g, a, s, tx, nThreads, ktv, mkt, gBlk, j0, h ? sK1 : sK0, mK, true);
    if (h) {
      g->depth--;
      rock__genLine(g, "}");
    }
  }
}

/* The K tile `start` staged by cp.async (with s->kPair tile start + 1 too
 * into `sK1`; committed; with s->ovl, V's tile too, a second group), and the K
 * / V lines of tiles start + 1 .. start + l2Ahead - 1 prefetched to L2 (the key
 * loop prefetches tile t + l2Ahead at tile t). */
static void firstTile(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                      int nThreads, int ktv, const char *mkt, int gBlk,
                      int start, int end, int sK, int sK1, const char *mK,
                      int sV, const char *mV, const PageAhead *pa) {
  int j0;
  (void)rock__attnTileCols(g, a, start, &j0);
  if (s->kPair) {
    pairStage(g, a, s, tx, nThreads, ktv, mkt, gBlk, start, end, sK, sK1, mK);
  } else if (s->pgK) {
    int kp[ROCK_PAGE_MAX_RUNS];
    pagePtrs(g, a, s, pa, false, gBlk, start, kp);
    pageStage(g, a, s, false, kp, tx, nThreads, sK, mK);
  } else {
    stageK(g, a, s, tx, nThreads, ktv, mkt, gBlk, j0, sK, mK, true);
  }
  rock__genLine(g, "nvvm.cp.async.commit.group");
  if (s->ovl) {
    int vp[ROCK_PAGE_MAX_RUNS];
    if (s->pgV)
      pagePtrs(g, a, s, pa, true, gBlk, start, vp);
    stageV(g, a, s, tx, nThreads, gBlk, start, vp, sV, mV);
    rock__genLine(g, "nvvm.cp.async.commit.group");
  }
  for (int d = 1; d < s->l2Ahead; ++d)
    prefetchTile(
        g, a, s, tx, nThreads, ktv, mkt, gBlk,
        rock__genBin(g, "arith.addi", start, rock__genIndex(g, d), "index"),
        end);
}

/* K's tile kt + 1 staged by cp.async when `more` and committed (with
 * s->ovl unconditionally, so that every tile commits two groups), from the
 * run pointers `ptrs` with page runs, whose successors (tile kt + 2) go to
 * `nextPtrs`; with s->kPair tiles kt + 1 and kt + 2 (before `end`) into
 * slots `sK`, `sK1`. */
static void nextK(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                  int nThreads, int ktv, const char *mkt, int gBlk, int kt,
                  int end, int more, int sK, int sK1, const char *mK,
                  const int *ptrs, const PageAhead *pa, int *nextPtrs) {
  rock__genLine(g, "scf.if %%v%d {", more);
  g->depth++;
  int kn = rock__genBin(g, "arith.addi", kt, rock__genIndex(g, 1), "index");
  if (s->kPair) {
    pairStage(g, a, s, tx, nThreads, ktv, mkt, gBlk, kn, end, sK, sK1, mK);
  } else if (s->pgK) {
    pageStage(g, a, s, false, ptrs, tx, nThreads, sK, mK);
  } else {
    int jn;
    (void)rock__attnTileCols(g, a, kn, &jn);
    stageK(g, a, s, tx, nThreads, ktv, mkt, gBlk, jn, sK, mK, true);
  }
  if (!s->ovl)
    rock__genLine(g, "nvvm.cp.async.commit.group");
  g->depth--;
  rock__genLine(g, "}");
  if (s->ovl)
    rock__genLine(g, "nvvm.cp.async.commit.group");
  if (s->pgK)
    pagePtrs(g, a, s, pa, false, gBlk,
             rock__genBin(g, "arith.addi", kt, rock__genIndex(g, 2), "index"),
             nextPtrs);
}

/* The view (`ty`) of slot `slot` (an index value) of the one workgroup
 * buffer `sB` (`mB`): off + slot·step bytes. */
static int slotView(RockGen *g, int sB, const char *mB, const char *ty,
                    int64_t off, int64_t step, int slot) {
  int b = rock__genBin(
      g, "arith.addi", rock__genIndex(g, off),
      rock__genBin(g, "arith.muli", slot, rock__genIndex(g, step), "index"),
      "index");
  int v = rock__genFresh(g);
  rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", v, sB, b,
                mB, ty);
  return v;
}

/* The ring (s->st): the views of slot `slot` (an index value) as K (`mK`)
 * into *k and V (`mV`) into *v. */
static void ringSlot(RockGen *g, const AccSched *s, int sB, const char *mB,
                     const char *mK, const char *mV, int slot, int *k, int *v) {
  *k = slotView(g, sB, mB, mK, s->kOff, s->kStage, slot);
  *v = slotView(g, sB, mB, mV, s->vOff, s->vStage, slot);
}

/* K^T pairs (s->kPair): the view of K slot `slot` (an index value). */
static int kSlot(RockGen *g, const AccSched *s, int sB, const char *mB,
                 const char *mK, int slot) {
  return slotView(g, sB, mB, mK, s->kOff, s->kStage, slot);
}

/* The slot of key tile kt in a ring of n: (kt - start) mod n. */
static int ringIndex(RockGen *g, int n, int kt, int start) {
  return rock__genBin(g, "arith.remui",
                      rock__genBin(g, "arith.subi", kt, start, "index"),
                      rock__genIndex(g, n), "index");
}

/* The ring: K and V of key tile kt staged by cp.async into its slot when kt
 * < end, then one commit (unconditional: every tile commits one group, so
 * that wait.group st - 2 means tile t has landed). */
static void ringStage(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                      int nThreads, int ktv, const char *mkt, int gBlk, int kt,
                      int start, int end, int sB, const char *mB,
                      const char *mK, const char *mV) {
  int more = rock__genBin(g, "arith.cmpi ult,", kt, end, "index");
  rock__genLine(g, "scf.if %%v%d {", more);
  g->depth++;
  int k, v, j0;
  ringSlot(g, s, sB, mB, mK, mV, ringIndex(g, s->st, kt, start), &k, &v);
  (void)rock__attnTileCols(g, a, kt, &j0);
  stageK(g, a, s, tx, nThreads, ktv, mkt, gBlk, j0, k, mK, true);
  stageKeys(g, a, s, tx, nThreads, a->v, a->mv, a->tv, VEC, gBlk, j0, s->nchv,
            v, mV, s->swzV, false, true);
  g->depth--;
  rock__genLine(g, "}");
  rock__genLine(g, "nvvm.cp.async.commit.group");
}

/* The ring's first st - 1 tiles (start .. start + st - 2) in flight. */
static void ringPrologue(RockGen *g, const RockAttn *a, const AccSched *s,
                         int tx, int nThreads, int ktv, const char *mkt,
                         int gBlk, int start, int end, int sB, const char *mB,
                         const char *mK, const char *mV) {
  for (int i = 0; i + 1 < s->st; ++i)
    ringStage(
        g, a, s, tx, nThreads, ktv, mkt, gBlk,
        rock__genBin(g, "arith.addi", start, rock__genIndex(g, i), "index"),
        start, end, sB, mB, mK, mV);
}

/* The ring at the top of tile kt: wait for tile kt (st - 2 newer groups may
 * be in flight), barrier (every warp is past tile kt - 1, whose slot is
 * free), tile kt + st - 1 issued into it; *k, *v: tile kt's slot. */
static void ringTop(RockGen *g, const RockAttn *a, const AccSched *s, int tx,
                    int nThreads, int ktv, const char *mkt, int gBlk, int kt,
                    int start, int end, int sB, const char *mB, const char *mK,
                    const char *mV, int *k, int *v) {
  rock__genLine(g, "nvvm.cp.async.wait.group %d", s->st - 2);
  rock__genLine(g, "gpu.barrier");
  ringStage(
      g, a, s, tx, nThreads, ktv, mkt, gBlk,
      rock__genBin(g, "arith.addi", kt, rock__genIndex(g, s->st - 1), "index"),
      start, end, sB, mB, mK, mV);
  ringSlot(g, s, sB, mB, mK, mV, ringIndex(g, s->st, kt, start), k, v);
}

static bool generate(RockGen *g, RockAttn *a, const void *ctx) {
  const AccSched *s = ctx;
  const RockAccel *ac = &s->ac, *acS = &s->acS;
  char mQ[128], mK[128], mV[128], mP[128], ib[160], vt[32], vtS[32];
  const char *wg_ = "#gpu.address_space<workgroup>";
  snprintf(mQ, sizeof mQ, "memref<%dx%lldx%s, %s>", s->nb, (long long)s->pq,
           s->eltQK, wg_);
  snprintf(mK, sizeof mK, "memref<%lldx%lldx%s, %s>",
           (long long)(s->kT ? a->Dqk : s->mb), (long long)s->pk, s->eltQK,
           wg_);
  snprintf(mV, sizeof mV, "memref<%dx%lldx%s, %s>", s->mb, (long long)s->pv,
           s->elt, wg_);
  snprintf(mP, sizeof mP, "memref<%dx%dx%s, %s>", s->nb, s->mb, s->elt, wg_);
  rock__typeStrS(vt, sizeof vt, "f32", ac->cElems);
  rock__typeStrS(vtS, sizeof vtS, acS->acc, acS->cElems);
  int c1 = rock__genIndex(g, 1);
  int nThreads = s->w * ac->wave;
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int v[12];
  for (int i = 0; i < 12; ++i)
    v[i] = rock__genFresh(g);
  int sQ = rock__genFresh(g), sK = rock__genFresh(g), sV = rock__genFresh(g),
      sP = rock__genFresh(g), sB = rock__genFresh(g);
  char mB[96];
  snprintf(mB, sizeof mB, "memref<%lldxi8, %s>", (long long)s->bytes, wg_);
  rock__genLine(
      g,
      "gpu.launch blocks(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, %%v%d = "
      "%%v%d, %%v%d = %%v%d) threads(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, "
      "%%v%d = %%v%d, %%v%d = %%v%d) workgroup(",
      v[0], v[1], v[2], v[3], rock__genIndex(g, a->grid), v[4], c1, v[5], c1,
      v[6], v[7], v[8], v[9], rock__genIndex(g, nThreads), v[10], c1, v[11],
      c1);
  /* (the launch line continues: one buffer viewed as Q, K, V with
   * ldmatrix; else Q, K, V and P's buffer unless P stays in registers) */
  if (s->ldm)
    rock__strAppendf(&g->body, "%%v%d : %s) {\n", sB, mB);
  else
    rock__strAppendf(&g->body, "%%v%d : %s, %%v%d : %s, %%v%d : %s%s", sQ, mQ,
                     sK, mK, sV, mV, s->pReg ? ") {\n" : "");
  if (!s->ldm && !s->pReg)
    rock__strAppendf(&g->body, ", %%v%d : %s) {\n", sP, mP);
  g->depth++;
  rock__attnPdlTrigger(g, a);
  if (s->ldm) {
    const int ids[3] = {sQ, sK, sV};
    const int64_t offs[3] = {s->qOff, s->kOff, s->vOff};
    const char *tys[3] = {mQ, mK, mV};
    for (int i = 0; i < 3; ++i)
      rock__genLine(g, "%%v%d = memref.view %%v%d[%%v%d][] : %s to %s", ids[i],
                    sB, rock__genIndex(g, offs[i]), mB, tys[i]);
  }
  int sK0 = sK, sK1 = -1; /* K^T pairs: the two slots */
  if (s->kPair)
    sK1 = kSlot(g, s, sB, mB, mK, rock__genIndex(g, 1));
  int bx = v[0], tx = v[6];
  char mkt[128];
  int ktv = s->kT ? rock__attnKeyMajorK(g, a, mkt, sizeof mkt) : -1;
  PageAhead ahead;
  memset(&ahead, 0, sizeof ahead);
  if (s->pgK)
    ahead.pk = rock__gpuPagePtrView(g, &s->pvK, a->extraId[s->xK], ahead.mk,
                                    sizeof ahead.mk);
  if (s->pgV)
    ahead.pv = rock__gpuPagePtrView(g, &s->pvV, a->extraId[s->xV], ahead.mv,
                                    sizeof ahead.mv);
  int cw = rock__genIndex(g, ac->wave);
  int lane = rock__genBin(g, "arith.remui", tx, cw, "index");
  int warp = rock__genBin(g, "arith.divui", tx, cw, "index");
  int row0 =
      rock__genBin(g, "arith.muli", warp, rock__genIndex(g, 16), "index");
  int cR = rock__genIndex(g, a->R);
  RockAttnWg wg = rock__attnWorkgroup(g, a, bx);
  int lastRow = rock__genBin(g, "arith.subi", wg.nRows, c1, "index");

  /* The block's key range (uniform): every row of the block. */
  /* With ldmatrix, also the keys every row of the block sees (minLast,
   * maxLow): tiles inside them need no masks. */
  int eff = -1, lowKey = -1, minLast = -1, maxLow = -1;
  if (a->dynamic) {
    eff = rock__genIndex(g, -1);
    lowKey = rock__genIndex(g, a->Sk);
    minLast = rock__genIndex(g, a->Sk);
    maxLow = rock__genIndex(g, 0);
    for (int r = 0; r < s->nb; ++r) {
      int rc = rock__genBin(g, "arith.minui", rock__genIndex(g, r), lastRow,
                            "index");
      RockRowIdx x = rock__attnRowIdx(g, wg.n0, rc, wg.bq0, cR);
      int last = rock__attnRowLast(g, a, x);
      eff = rock__attnBlockLast(g, eff, last);
      if (s->ldm)
        minLast = rock__genBin(g, "arith.minsi", minLast, last, "index");
      if (a->hasLow) {
        int low = rock__attnRowLow(g, a, x);
        lowKey = rock__attnBlockLow(g, lowKey, low);
        if (s->ldm)
          maxLow = rock__genBin(g, "arith.maxsi", maxLow, low, "index");
      }
    }
  }
  int start, end;
  rock__attnTileRange(g, a, wg.split, eff, lowKey, &start, &end);
  /* K of the first tile (and the L2 prefetch of the next ones) in flight
   * before Q is staged when they do not share memory: their loads overlap. */
  bool early = s->ldm && !s->wgS && s->qOff != s->kOff;
  if (early && s->st)
    ringPrologue(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, start, end, sB, mB,
                 mK, mV);
  else if (early)
    firstTile(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, start, end, sK, sK1, mK,
              sV, mV, &ahead);

  /* Q [NB][Dqk] into workgroup memory (rows past the block's clamped). */
  {
    int i = rock__genFor(g, tx, rock__genIndex(g, (int64_t)s->nb * s->nchq),
                         rock__genIndex(g, nThreads));
    int r, d;
    rowChunk(g, s->wgS, i, s->nchq, s->vecQK, &r, &d);
    int rc = rock__genBin(g, "arith.minui", r, lastRow, "index");
    RockRowIdx x = rock__attnRowIdx(g, wg.n0, rc, wg.bq0, cR);
    char ty[32];
    rock__typeStr(ty, sizeof ty, a->tq, s->vecQK);
    rock__idx3(ib, sizeof ib, x.bq, x.i, d);
    int q = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = rock.view_load %%v%d[%s] {rock.align = 16 : i64} : "
                  "%s -> %s",
                  q, a->q, ib, a->mq, ty);
    int i0, i1;
    chunkAt(g, s->swzQ, s->wgS, s->nb, s->pq, r, d, &i0, &i1);
    rock__genLine(g,
                  "vector.store %%v%d, %%v%d[%%v%d, %%v%d] {alignment = 16} : "
                  "%s, %s",
                  q, sQ, i0, i1, mQ, ty);
    rock__genEnd(g);
  }

  if (s->wgS)
    rock__accelWgmmaProxyFence(g);
  rock__genLine(g, "gpu.barrier");
  int qf[MAXKS];
  for (int k = 0; k < (s->wgS ? 0 : s->ks); ++k)
    qf[k] = s->ldmS ? rock__accelLdmA(g, acS, sQ, mQ, s->swzQ, row0,
                                      rock__genIndex(g, k * acS->k), lane)
                    : rock__accelLoadA(g, acS, sQ, mQ, true, row0,
                                       rock__genIndex(g, k * acS->k), lane);
  if (s->ldm && !early) {
    /* K of the first tile in flight while the rows are set up (after every
     * warp has its Q fragments when K lies over Q). */
    if (s->qOff == s->kOff)
      rock__genLine(g, "gpu.barrier");
    if (s->st)
      ringPrologue(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, start, end, sB, mB,
                   mK, mV);
    else
      firstTile(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, start, end, sK, sK1,
                mK, sV, mV, &ahead);
  }

  /* This lane's rows: warp row, indices, key limits. */
  int wrow[MAXR], last[MAXR], low[MAXR], col[MAXR * 2];
  RockRowIdx x[MAXR];
  for (int e = 0; e < ac->cElems; ++e) {
    int r, c;
    rock__accelAccCoord(g, ac, lane, e, &r, &c);
    col[e] = c;
    int ri = rowOf(s, e);
    if (e != 0 && rowOf(s, e - 1) == ri)
      continue;
    wrow[ri] = rock__genBin(g, "arith.addi", row0, r, "index");
    int rc = rock__genBin(g, "arith.minui", wrow[ri], lastRow, "index");
    x[ri] = rock__attnRowIdx(g, wg.n0, rc, wg.bq0, cR);
    if (a->dynamic) {
      last[ri] = rock__attnRowLast(g, a, x[ri]);
      if (a->hasLow)
        low[ri] = rock__attnRowLow(g, a, x[ri]);
    }
  }

  /* The key-tile loop: state m, l (per row, l per lane), O tiles, and the
   * page-run pointers of V(kt) (V(kt + 1) with s->ovl) and K(kt + 1). */
  enum { NST = 2 * MAXR + MAXNT + 2 * ROCK_PAGE_MAX_RUNS };
  int init[NST], args[NST], res[NST], next[NST];
  const char *tys[NST];
  int nSt = 0;
  int zv = rock__genZero(g, "f32", ac->cElems);
  for (int r = 0; r < s->nr; ++r)
    init[nSt] = ninf, tys[nSt++] = "f32";
  for (int r = 0; r < s->nr; ++r)
    init[nSt] = zf, tys[nSt++] = "f32";
  for (int d = 0; d < s->ntD; ++d)
    init[nSt] = zv, tys[nSt++] = vt;
  int pgV0 = nSt, pgK0 = nSt + (s->pgV ? s->plV.nRuns : 0);
  if (s->pgV)
    pagePtrs(g, a, s, &ahead, true, wg.gBlk,
             s->ovl ? rock__genBin(g, "arith.addi", start, c1, "index") : start,
             init + pgV0);
  if (s->pgK)
    pagePtrs(g, a, s, &ahead, false, wg.gBlk,
             rock__genBin(g, "arith.addi", start, c1, "index"), init + pgK0);
  for (; nSt < pgK0 + (s->pgK ? s->plK.nRuns : 0); ++nSt)
    tys[nSt] = "i64";
  int kt;
  rock__genForTyped(g, start, end, c1, nSt, init, tys, &kt, args, res);
  {
    const int *mOld = args, *lOld = args + s->nr, *oOld = args + 2 * s->nr;
    int *mNext = next, *lNext = next + s->nr, *oNext = next + 2 * s->nr;
    int j0;
    (void)rock__attnTileCols(g, a, kt, &j0);
    if (s->kPair)
      sK = kSlot(g, s, sB, mB, mK, ringIndex(g, 2, kt, start));
    if (s->st) {
      ringTop(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, kt, start, end, sB, mB,
              mK, mV, &sK, &sV);
    } else if (s->ovl) {
      /* K(kt) has landed (V(kt) may still be in flight). */
      rock__genLine(g, "nvvm.cp.async.wait.group 1");
      rock__genLine(g, "gpu.barrier");
      if (s->l2Ahead)
        prefetchTile(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk,
                     rock__genBin(g, "arith.addi", kt,
                                  rock__genIndex(g, s->l2Ahead), "index"),
                     end);
    } else if (s->ldm) {
      /* K(kt) has landed and every warp is past P·V of the last tile: V(kt)
       * streams in during Q·Kᵀ. */
      rock__genLine(g, "nvvm.cp.async.wait.group 0");
      if (s->wgS)
        rock__accelWgmmaProxyFence(g);
      rock__genLine(g, "gpu.barrier");
      if (s->pgV)
        pageStage(g, a, s, true, args + pgV0, tx, nThreads, sV, mV);
      else
        stageKeys(g, a, s, tx, nThreads, a->v, a->mv, a->tv, VEC, wg.gBlk, j0,
                  s->nchv, sV, mV, s->swzV, false, true);
      rock__genLine(g, "nvvm.cp.async.commit.group");
      if (s->pgV)
        pagePtrs(g, a, s, &ahead, true, wg.gBlk,
                 rock__genBin(g, "arith.addi", kt, c1, "index"), next + pgV0);
      if (s->l2Ahead)
        prefetchTile(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk,
                     rock__genBin(g, "arith.addi", kt,
                                  rock__genIndex(g, s->l2Ahead), "index"),
                     end);
    } else {
      rock__genLine(g, "gpu.barrier");
      stageK(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, j0, sK, mK, false);
      stageKeys(g, a, s, tx, nThreads, a->v, a->mv, a->tv, VEC, wg.gBlk, j0,
                s->nchv, sV, mV, false, false, false);
      rock__genLine(g, "gpu.barrier");
    }
    /* S = Q·Kᵀ, then the scores of every accumulator element. */
    int xs[MAXNT][8], sacc[MAXNT];
    int mv = rock__attnMaskedValue(g, a, 1);
    for (int jt = 0; jt < s->ntS; ++jt)
      sacc[jt] = rock__accelZero(g, acS);
    if (s->wgS)
      gemm0Wgmma(g, s, sQ, mQ, sK, mK, sacc);
    else
      tileProducts(g, acS, s->ldmS, qf, s->ks, sK, mK, !s->kT, s->swzK, lane,
                   s->ntS, sacc);
    int more = -1;
    if (s->ovl) {
      /* Every warp has read K(kt): K(kt + 1) streams in from here on. */
      rock__genLine(g, "gpu.barrier");
      more = rock__genBin(g, "arith.cmpi ult,",
                          rock__genBin(g, "arith.addi", kt, c1, "index"), end,
                          "index");
      nextK(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, kt, end, more, sK, sK1,
            mK, args + pgK0, &ahead, next + pgK0);
    }
    int jjs[MAXNT][8];
    for (int jt = 0; jt < s->ntS; ++jt) {
      int acc = sacc[jt];
      for (int e = 0; e < ac->cElems; ++e) {
        int ri = rowOf(s, e);
        int sc = rock__genFresh(g);
        rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : %s from %s", sc,
                      acc, e, acS->acc, vtS);
        int jj = rock__genBin(g, "arith.addi", j0,
                              rock__genBin(g, "arith.addi",
                                           rock__genIndex(g, jt * ac->n),
                                           col[e], "index"),
                              "index");
        int xv;
        if (!mlirBlockIsNull(a->rblock)) {
          int jc = rock__genBin(g, "arith.minui", jj,
                                rock__genIndex(g, a->Sk - 1), "index");
          MlirType yt;
          int y = rock__attnRegion(g, a, sc, x[ri], jc, &yt);
          xv = rock__attnScore(g, a, y, yt, 1);
        } else {
          xv = rock__attnScore(g, a, sc, a->acc, 1);
        }
        xs[jt][e] = xv;
        jjs[jt][e] = jj;
      }
    }
    /* The masks; with ldmatrix only on the tiles that need them (the key
     * tail, past some row's last key, before some row's window). */
    bool tail = a->Sk % s->mb != 0;
    int full = -1;
    if (s->ldm && (tail || a->dynamic || a->hasLow)) {
      int jEnd =
          rock__genBin(g, "arith.addi", j0, rock__genIndex(g, s->mb), "index");
      int conds[3], nc = 0;
      if (tail)
        conds[nc++] = rock__genBin(g, "arith.cmpi sle,", jEnd,
                                   rock__genIndex(g, a->Sk), "index");
      if (a->dynamic)
        conds[nc++] = rock__genBin(
            g, "arith.cmpi sle,", jEnd,
            rock__genBin(g, "arith.addi", minLast, c1, "index"), "index");
      if (a->hasLow)
        conds[nc++] = rock__genBin(g, "arith.cmpi sge,", j0, maxLow, "index");
      full = conds[0];
      for (int i = 1; i < nc; ++i)
        full = rock__genBin(g, "arith.andi", full, conds[i], "i1");
    }
    int nx = s->ntS * ac->cElems, res0 = g->next;
    RockStr rl = {0}, tl = {0}, yl = {0};
    if (full >= 0) {
      for (int i = 0; i < nx; ++i) {
        rock__strAppendf(&rl, "%s%%v%d", i ? ", " : "", rock__genFresh(g));
        rock__strAppendf(&tl, "%sf32", i ? ", " : "");
        rock__strAppendf(&yl, "%s%%v%d", i ? ", " : "",
                         xs[i / ac->cElems][i % ac->cElems]);
      }
      rock__genLine(g, "%s = scf.if %%v%d -> (%s) {", rl.data, full, tl.data);
      rock__genLine(g, "  scf.yield %s : %s", yl.data, tl.data);
      rock__genLine(g, "} else {");
      g->depth++;
    }
    for (int jt = 0; jt < s->ntS; ++jt)
      for (int e = 0; e < ac->cElems; ++e) {
        int ri = rowOf(s, e), xv = xs[jt][e], jj = jjs[jt][e];
        xv = rock__attnMaskPad(g, a, xv, jj, mv, 1);
        if (a->dynamic)
          xv = rock__attnMaskLast(g, xv, jj, last[ri], mv, 1);
        if (a->hasLow)
          xv = rock__attnMaskLow(g, xv, jj, low[ri], mv, 1);
        xs[jt][e] = xv;
      }
    if (full >= 0) {
      rock__strFree(&yl);
      for (int i = 0; i < nx; ++i)
        rock__strAppendf(&yl, "%s%%v%d", i ? ", " : "",
                         xs[i / ac->cElems][i % ac->cElems]);
      rock__genLine(g, "scf.yield %s : %s", yl.data, tl.data);
      g->depth--;
      rock__genLine(g, "}");
      for (int i = 0; i < nx; ++i)
        xs[i / ac->cElems][i % ac->cElems] = res0 + i;
    }
    rock__strFree(&rl);
    rock__strFree(&tl);
    rock__strFree(&yl);
    /* The online softmax per row; P into workgroup memory in V's type. */
    int cr[MAXR];
    for (int r = 0; r < s->nr; ++r) {
      cr[r] = -1;
      mNext[r] = mOld[r];
      lNext[r] = lOld[r];
    }
    int pr[MAXNT][8], pu[MAXNT][8]; /* P rounded to V's type / not */
    if (a->softmax) {
      for (int r = 0; r < s->nr; ++r) {
        int tileMax = ninf;
        for (int jt = 0; jt < s->ntS; ++jt)
          for (int e = 0; e < ac->cElems; ++e)
            if (rowOf(s, e) == r)
              tileMax =
                  rock__genBin(g, "arith.maxnumf", tileMax, xs[jt][e], "f32");
        tileMax = rowReduce(g, s, tileMax, "arith.maxnumf");
        int mSafe;
        cr[r] = rock__attnRescale(g, a, mOld[r], tileMax, &mNext[r], &mSafe);
        int rowSum = zf;
        for (int jt = 0; jt < s->ntS; ++jt)
          for (int e = 0; e < ac->cElems; ++e)
            if (rowOf(s, e) == r) {
              int p = rock__attnProb(g, a, xs[jt][e], mSafe, 1, &pr[jt][e]);
              pu[jt][e] = p;
              rowSum = rock__genBin(g, "arith.addf", rowSum, p, "f32");
            }
        lNext[r] = rock__attnRowSum(g, cr[r], lOld[r], rowSum);
      }
    } else {
      for (int jt = 0; jt < s->ntS; ++jt)
        for (int e = 0; e < ac->cElems; ++e) {
          pr[jt][e] = rock__attnProbPlain(g, a, xs[jt][e], 1);
          pu[jt][e] = xs[jt][e];
        }
    }
    for (int jt = 0; jt < s->ntS && !s->pReg; ++jt)
      for (int e = 0; e < ac->cElems; ++e) {
        int p = rock__genConv(g, pr[jt][e], a->f32, a->tv, 1);
        int r = wrow[rowOf(s, e)];
        int c = rock__genBin(g, "arith.addi", col[e],
                             rock__genIndex(g, jt * ac->n), "index");
        rock__genLine(g, "memref.store %%v%d, %%v%d[%%v%d, %%v%d] : %s", p, sP,
                      r, c, mP);
      }
    if (!s->pReg)
      rock__genLine(g, "gpu.barrier");
    /* O = c·O + P·V. */
    int cv = -1;
    if (a->softmax) {
      RockStr list = {0};
      for (int e = 0; e < ac->cElems; ++e)
        rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", cr[rowOf(s, e)]);
      cv = rock__genFresh(g);
      rock__genLine(g, "%%v%d = vector.from_elements %s : %s", cv, list.data,
                    vt);
      rock__strFree(&list);
    }
    for (int d = 0; d < s->ntD; ++d)
      oNext[d] =
          cv >= 0 ? rock__genBinF(g, "arith.mulf", oOld[d], cv, vt) : oOld[d];
    if (s->ovl) {
      /* V(kt) has landed (K(kt + 1) may still be in flight). */
      rock__genLine(g, "nvvm.cp.async.wait.group 1");
      rock__genLine(g, "gpu.barrier");
    } else if (s->ldm && !s->st) {
      /* V(kt) has landed and every warp is past Q·Kᵀ: K(kt + 1) streams in
       * during P·V. */
      rock__genLine(g, "nvvm.cp.async.wait.group 0");
      rock__genLine(g, "gpu.barrier");
      more = rock__genBin(g, "arith.cmpi ult,",
                          rock__genBin(g, "arith.addi", kt, c1, "index"), end,
                          "index");
      if (s->kPair) /* every second tile: K(kt + 1), K(kt + 2) */
        more =
            rock__genBin(g, "arith.andi", more,
                         rock__genBin(g, "arith.cmpi eq,",
                                      ringIndex(g, 2, kt, start), c1, "index"),
                         "i1");
      nextK(g, a, s, tx, nThreads, ktv, mkt, wg.gBlk, kt, end, more, sK0, sK1,
            mK, args + pgK0, &ahead, next + pgK0);
    }
    int pa[MAXNT];
    for (int kk = 0; kk < s->mb / ac->k; ++kk) {
      if (s->pReg) {
        /* A = S tiles 2kk and 2kk + 1 in accumulator order (accel.c),
         * converted in pairs (cvt.rn.bf16x2 / f16x2). */
        int pair[4];
        for (int h = 0; h < 2; ++h)
          for (int e = 0; e < ac->cElems; e += 2) {
            int v2 = rock__genFresh(g);
            rock__genLine(g,
                          "%%v%d = vector.from_elements %%v%d, %%v%d : "
                          "vector<2xf32>",
                          v2, pu[2 * kk + h][e], pu[2 * kk + h][e + 1]);
            pair[2 * h + e / 2] = rock__genConv(g, v2, a->f32, a->tv, 2);
          }
        int lo = rock__genFresh(g), hi = rock__genFresh(g);
        const char *sh = "%%v%d = vector.shuffle %%v%d, %%v%d [0, 1, 2, 3] : "
                         "vector<2x%s>, vector<2x%s>";
        rock__genLine(g, sh, lo, pair[0], pair[1], ac->elt, ac->elt);
        rock__genLine(g, sh, hi, pair[2], pair[3], ac->elt, ac->elt);
        pa[kk] = rock__genFresh(g);
        rock__genLine(g,
                      "%%v%d = vector.shuffle %%v%d, %%v%d [0, 1, 2, 3, 4, 5, "
                      "6, 7] : vector<4x%s>, vector<4x%s>",
                      pa[kk], lo, hi, ac->elt, ac->elt);
      } else {
        pa[kk] = rock__accelLoadA(g, ac, sP, mP, true, row0,
                                  rock__genIndex(g, kk * ac->k), lane);
      }
    }
    tileProducts(g, ac, s->ldm, pa, s->mb / ac->k, sV, mV, false, s->swzV, lane,
                 s->ntD, oNext);
    if (s->ovl) {
      /* Every warp has read V(kt): V(kt + 1) streams in from here on. */
      rock__genLine(g, "gpu.barrier");
      rock__genLine(g, "scf.if %%v%d {", more);
      g->depth++;
      stageV(g, a, s, tx, nThreads, wg.gBlk,
             rock__genBin(g, "arith.addi", kt, c1, "index"), args + pgV0, sV,
             mV);
      g->depth--;
      rock__genLine(g, "}");
      rock__genLine(g, "nvvm.cp.async.commit.group");
      if (s->pgV)
        pagePtrs(
            g, a, s, &ahead, true, wg.gBlk,
            rock__genBin(g, "arith.addi", kt, rock__genIndex(g, 2), "index"),
            next + pgV0);
    }
    rock__genYieldTypedEnd(g, nSt, next, tys);
  }

  /* Finalise: the row sums over the row's lanes, O / l, LSE. */
  int first = rock__genBin(
      g, "arith.cmpi eq,",
      rock__genBin(g, "arith.remui", lane,
                   rock__genIndex(g, ac->kind == ROCK_ACCEL_MMA_SYNC ? 4 : 16),
                   "index"),
      rock__genIndex(g, 0), "index");
  char to[32], tl[32];
  rock__typeStr(to, sizeof to, a->to, 1);
  rock__typeStr(tl, sizeof tl, a->tl, 1);
  for (int r = 0; r < s->nr; ++r) {
    int l = a->softmax ? rowReduce(g, s, res[s->nr + r], "arith.addf")
                       : res[s->nr + r];
    int m = res[r];
    int real = rock__genBin(g, "arith.cmpi ult,", wrow[r], wg.nRows, "index");
    rock__genLine(g, "scf.if %%v%d {", real);
    g->depth++;
    int ob = rock__attnOutRow(g, a, x[r].bq, wg.split);
    int lz, inv = rock__attnFinalGuard(g, l, &lz);
    for (int d = 0; d < s->ntD; ++d)
      for (int e = 0; e < ac->cElems; ++e) {
        if (rowOf(s, e) != r)
          continue;
        int o = rock__genFresh(g);
        rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : f32 from %s", o,
                      res[2 * s->nr + d], e, vt);
        int oc = rock__attnFinalO(g, a, o, lz, inv, 1);
        int dc = rock__genBin(g, "arith.addi", col[e],
                              rock__genIndex(g, d * ac->n), "index");
        rock__idx3(ib, sizeof ib, ob, x[r].i, dc);
        rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", oc,
                      a->out, ib, to, a->mo);
      }
    if (a->hasLse && a->softmax) {
      rock__genLine(g, "scf.if %%v%d {", first);
      g->depth++;
      int lc = rock__attnLse(g, a, l, m, lz);
      rock__idx2(ib, sizeof ib, ob, x[r].i);
      rock__genLine(g, "rock.view_store %%v%d, %%v%d[%s] : %s, %s", lc, a->lse,
                    ib, tl, a->ml);
      g->depth--;
      rock__genLine(g, "}");
    }
    g->depth--;
    rock__genLine(g, "}");
  }
  if (a->fused) {
    RockFusedCtx fc = {.tx = tx,
                       .nThreads = nThreads,
                       .wave = ac->wave,
                       .smem = sB,
                       .wg = wg,
                       .cR = cR,
                       .nb = s->nb};
    snprintf(fc.msmem, sizeof fc.msmem, "%s", mB);
    rock__gpuFusedCombine(g, a, &fc);
  }
  rock__genLine(g, "gpu.terminator");
  g->depth--;
  rock__genLine(g, "}");
  return true;
}

/* The internal split (no user split): the largest power of two P whose
 * grid x P workgroups are resident at once (T = wgPerSm x SMs): one wave,
 * every SM streaming to the end. The rule of rock__attnInternalSplit
 * (smallest P reaching T, partitions of at least 2 tiles) overshoots by up
 * to 2x, and a second partial wave cost 10-25 % on the H200 (B 1 L 128k
 * decode: 512 workgroups 128 µs, 1024 146 µs; B 32 L 128k 3.67 / 4.57 ms:
 * bench/RESULTS-gpu.md). A perf_config's split (rock__attnForcedSplit)
 * replaces the rule. */
static int64_t splitOneWave(const RockAttn *a, const AccSched *s) {
  int64_t forced = rock__attnForcedSplit(a);
  if (forced > 0)
    return forced;
  int64_t T = s->wgPerSm * s->numCu;
  int64_t P = rock__attnInternalSplit(a, T, 2);
  while (P > 1 && a->grid * P > T)
    P /= 2;
  return P >= 2 ? P : 1;
}

/* rock.gpu_split_fill: instead of splitOneWave's power of two, the
 * fewest partitions (at least 2 tiles each, up to FILL_WAVES waves of T)
 * whose workgroups fill at least FILL_PCT % of the waves they take, else
 * the count that fills them best (the fewest among equals); each count is
 * first lowered to the fewest partitions of the same tiles (ceil-div), so
 * that none is empty. For grids under one wave that the rule would split
 * (rock__attnInternalSplit); a perf_config's split wins. B 8 L 8k decode:
 * 12 partitions of 11 tiles, 768 of 792 resident workgroups, instead of 8
 * of 16 tiles, 512; R 4 B 64 L 2k (512 workgroups, not split): 3
 * partitions, 1536 in two waves (the tuning run found 4 partitions 20 %
 * faster than 1 there, docs/tuning.md). */
static int64_t fillWave(const RockAttn *a, const AccSched *s, int64_t P) {
  int64_t T = s->wgPerSm * s->numCu, nMB = (a->Sk + a->MB - 1) / a->MB;
  if (rock__attnForcedSplit(a) > 0 || rock__attnInternalSplit(a, T, 2) < 2)
    return P;
  int64_t best = P, bestN = a->grid * P,
          bestW = (a->grid * P + T - 1) / T; /* fill bestN / (bestW·T) */
  for (int64_t c = 1; c <= nMB / 2 && a->grid * c <= FILL_WAVES * T; ++c) {
    int64_t per = (nMB + c - 1) / c, q = (nMB + per - 1) / per;
    int64_t n = a->grid * q, waves = (n + T - 1) / T;
    if (100 * n >= FILL_PCT * waves * T)
      return q;
    if (n * bestW > bestN * waves)
      best = q, bestN = n, bestW = waves;
  }
  return best;
}

/* The split and its merge: P from splitOneWave, merged in the kernel
 * (*fused) by rule (FUSED_ROWS, FUSED_SPLIT) or by rock.gpu_fused_combine,
 * which needs the one workgroup buffer (ldmatrix schedule) to hold its
 * weights and P a power of two: the tree's nodes of a level all have the
 * same children, whose stats are reduced by xor shuffles over aligned lane
 * groups of that size (fused_combine.c). A forced split (rock.internal_split,
 * a perf_config's split) is any count and is clamped to the key tiles (384
 * keys, split 8: 6), so there the second launch stays. With s->fill and a
 * second launch P fills the wave (fillWave). */
static int64_t planSplit(const RockAttn *a, const AccSched *s, int swFused,
                         bool *fused) {
  int64_t P = splitOneWave(a, s);
  bool want = swFused == FUSED_BY_RULE
                  ? a->Sq * a->R <= FUSED_ROWS && P >= FUSED_SPLIT
                  : swFused == 1;
  bool pow2 = P > 1 && (P & (P - 1)) == 0;
  *fused = want && s->ldm && pow2 && rock__gpuFusedBytes(s->nb) <= s->bytes;
  return *fused || !s->fill ? P : fillWave(a, s, P);
}

bool rock__gpuAttnAccelPlan(MlirOperation op, const RockAttn *a, char *buf,
                            size_t len) {
  MlirExternalPass quiet = {NULL};
  AccSwitches sw;
  AccSched s;
  RockAttn b = *a;
  if (!readSwitches(op, quiet, &sw) || !applies(op, &sw, &b, &s))
    return false;
  bool fused;
  planPageRuns(op, sw.pageAhead, &b, &s);
  int64_t P = planSplit(&b, &s, sw.fused, &fused);
  snprintf(buf, len,
           "tc warps %d rows %d keys %d ldmatrix %d p_in_registers %d "
           "swizzle %d%d%d wgmma %d kT %d reverse %d l2 %d overlap %d "
           "pages %d%d split %lld",
           s.w, s.nb, s.mb, s.ldm, s.pReg, s.swzQ, s.swzK, s.swzV, s.wgS, s.kT,
           b.reverse, s.l2Ahead, s.ovl, s.pgK, s.pgV, (long long)P);
  size_t n = strlen(buf);
  if (s.st && n < len)
    snprintf(buf + n, len - n, " stages %d", s.st);
  if (s.kPair && n < len)
    snprintf(buf + n, len - n, " ktpairs 1");
  return true;
}

int rock__gpuAttnAccel(MlirOperation op, MlirExternalPass pass, RockAttn *a) {
  AccSwitches sw;
  if (!readSwitches(op, pass, &sw))
    return 0;
  AccSched s;
  if (!applies(op, &sw, a, &s))
    return -1;
  planPageRuns(op, sw.pageAhead, a, &s);
  int64_t P = planSplit(a, &s, sw.fused, &a->fused);
  if (a->fused)
    rock__gpuFusedTree(P, &a->fusedCnt, &a->fusedUp);
  return rock__attnLower(op, pass, a, P, true, generate, &s) ? 1 : 0;
}
