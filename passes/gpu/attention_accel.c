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
 * This file reads the switches and plans the schedule (AccSched,
 * attention_accel.h); attention_accel_kernel.c emits the kernel and
 * attention_accel_stage.c its K / V copies.
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_accel.h"
#include "gpu/fused_combine.h"
#include "internal.h"
#include "support/perf_config.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAXW = 4, /* warps per workgroup (up to MAXW_LDM with ldmatrix and
               rock.gpu_accel_warps, for comparisons) */
  MAXW_LDM = 8,
  MB_KEYS = 64, /* keys per tile at most (32 when memory is short) */
  SMEM_MAX = 49152,
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
  STAGES = 2,        /* rock.gpu_accel_stages: K / V tiles staged at once;
                        2: the two-buffer staging (K(t + 1) during P·V(t)),
                        3..MAX_STAGES: the ring (opt-in, rock__tcRingTop) */
  MAX_STAGES = 6,
  FAN_BY_RULE = 0,       /* rock.gpu_fused_fan not given: fanRule */
  KEY_WARPS_BY_RULE = 0, /* rock.gpu_accel_key_warps not given: keyWarpsRule
                            (1, 2, 4: warps on one partition's keys,
                            rock__tcMergeWarps) */
};

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
  int fan;       /* rock.gpu_fused_fan: that merge's fan-in (8, 16, 32) */
  int ovl;       /* rock.gpu_accel_kv_overlap: K and V copies in flight
                    together (BY_RULE when not given) */
  int fill;      /* rock.gpu_split_fill: the split fills the wave */
  int stages;    /* rock.gpu_accel_stages: K / V tiles staged at once */
  int kPair;     /* rock.gpu_accel_kt_pairs: K^T tiles staged two at once */
  int kw;        /* rock.gpu_accel_key_warps: warps on one partition */
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
  static const int fans[] = {8, 16, 32}, keyWarps[] = {1, 2, 4};
  w->fan =
      rock__gpuSwitchIn(op, pass, "rock.gpu_fused_fan", FAN_BY_RULE, fans, 3);
  w->ovl =
      rock__gpuSwitch(op, pass, "rock.gpu_accel_kv_overlap", BY_RULE, 0, 1);
  w->fill = rock__gpuSwitch(op, pass, "rock.gpu_split_fill", SPLIT_FILL, 0, 1);
  w->stages =
      rock__gpuSwitch(op, pass, "rock.gpu_accel_stages", STAGES, 2, MAX_STAGES);
  w->kPair = rock__gpuSwitch(op, pass, "rock.gpu_accel_kt_pairs", 0, 0, 1);
  w->kw = rock__gpuSwitchIn(op, pass, "rock.gpu_accel_key_warps",
                            KEY_WARPS_BY_RULE, keyWarps, 3);
  return w->kw >= 0 && w->kPair >= 0 && w->accel >= 0 && w->ldm >= 0 &&
         w->preg >= 0 && w->swz >= 0 && w->warps >= 0 && w->wgmma >= 0 &&
         w->minRows >= 0 && w->l2Ahead >= 0 && w->pageAhead >= 0 &&
         w->fused >= 0 && w->fan >= 0 && w->ovl >= 0 && w->fill >= 0 &&
         w->stages >= 0;
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
  if (s->kw > 1) /* key warps: a K and a V slot each */
    k *= s->kw, v *= s->kw;
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
  char err[512];
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

/* Bytes of the key warps' states (rock__tcMergeWarps): kw - 1 warps' O
 * (Dv f32 a row of 16) and m, l (2·nr f32 a lane). */
static int64_t keyWarpBytes(const RockAttn *a, const AccSched *s, int kw) {
  return (int64_t)(kw - 1) * (16 * a->Dv + 2 * s->nr * s->ac.wave) * 4;
}

/* rock.gpu_accel_key_warps = kw (s->kw, the key tile: the largest from 64
 * down to 16 keys whose kw K / V slots fit): kw warps of one warp's rows on
 * one partition. Not where the workgroup has several warps of rows, nor
 * with wgmma, the ring, K^T pairs or the L2 prefetch (their staging is the
 * workgroup's); the reason goes to s->kwWhy. */
static void keyWarps(const RockAttn *a, AccSched *s, bool swz, int kw) {
  s->kw = 1, s->kwWhy = NULL;
  if (kw == 1)
    return;
  s->nr = 2; /* (mma.sync, the only schedule it takes) */
  s->kwWhy = !s->ldm      ? "ldmatrix"
             : s->w > 1   ? "row warps"
             : s->wgS     ? "wgmma"
             : s->st      ? "ring"
             : s->kPair   ? "ktpairs"
             : s->l2Ahead ? "l2"
                          : NULL;
  if (s->kwWhy)
    return;
  s->kw = kw;
  if (!pickTile(a, s, swz, 16) || keyWarpBytes(a, s, kw) > s->bytes) {
    s->kw = 1, s->kwWhy = "memory";
    (void)pickTile(a, s, swz, 32);
  }
}

/* The key warps when rock.gpu_accel_key_warps is not given: 2 for 16-bit
 * decode on NVIDIA sm_90 and later with dense (unpaged) K and V stored
 * [keys][d], else 1. Measured on an H100 (two device calls, CUDA graphs,
 * bf16 Hq 32 / Hkv 8 d 128 and the GQA rows; kw2 against one warp): dense
 * 0.96-0.99x on every row (B 1 L 8k 20.3 / 21.1 µs, B 8 L 8k 94.8 / 96.4,
 * R 8 B 1 L 128k 183.5 / 191.6); pages of 16 tokens 1.01-1.03x slower, of
 * 64 tokens 0.97-1.03x (mixed); rocMLIR's default K layout (K^T tiles)
 * 1.02-1.19x slower; 4 warps (16-key tiles) 0.97-1.02x. keyWarps still
 * falls back where the staging cannot take it. */
static int keyWarpsRule(const RockAttn *a, const RockGpuTarget *t,
                        const AccSched *s) {
  return t->vendor == ROCK_GPU_NVIDIA && t->smVersion >= 90 && !a->kvPaged &&
                 !a->kKeyMajor && s->vecQK == VEC
             ? 2
             : 1;
}

/* Whether the schedule applies (then *s is filled) under switches `sw`. */
static bool applies(MlirOperation op, const AccSwitches *sw, RockAttn *a,
                    AccSched *s) {
  s->kw = 1, s->kwWhy = NULL;
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
  keyWarps(a, s, swz,
           sw->kw == KEY_WARPS_BY_RULE ? keyWarpsRule(a, &t, s) : sw->kw);
  if (!s->st && !s->kPair && s->kw == 1)
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

/* The fused merge's fan-in where rock.gpu_fused_fan is not given: P itself
 * where the P partitions of 16 or 32 then merge in one level (one arrival
 * and one round of loads at the kernel's end instead of two) and that
 * node's weights fit; else ROCK_FUSED_FAN. Measured on an H100 (run 15,
 * bench/RESULTS-gpu.md): B 1 L 8k with 32 partitions 0.950x at fan 32,
 * 0.977x at 16; 64 partitions (pages of 16 tokens) 1.19x slower at 32, so
 * two levels stay there. */
static int fanRule(const AccSched *s, int64_t P) {
  bool oneLevel = P > ROCK_FUSED_FAN && P <= ROCK_FUSED_FAN_MAX;
  return oneLevel && P <= s->ac.wave &&
                 rock__gpuFusedBytes(s->nb, (int)P) <= s->bytes
             ? (int)P
             : ROCK_FUSED_FAN;
}

/* The split and its merge: P from splitOneWave, merged in the kernel
 * (*fused) by rule (FUSED_ROWS, FUSED_SPLIT) or by rock.gpu_fused_combine,
 * which needs the one workgroup buffer (ldmatrix schedule) to hold its
 * weights and P a power of two: the tree's nodes of a level all have the
 * same children, whose stats are reduced by xor shuffles over aligned lane
 * groups of that size (fused_combine.c); the tree's fan-in `fan`
 * (rock.gpu_fused_fan) sizes the weights and must fit a warp. A forced split
 * (rock.internal_split, a perf_config's split) is any count and is clamped to
 * the key tiles (384 keys, split 8: 6), so there the second launch stays. With
 * s->fill and a second launch P fills the wave (fillWave). */
static int64_t planSplit(const RockAttn *a, const AccSched *s, int swFused,
                         int *fanIo, bool *fused) {
  int fan = *fanIo == FAN_BY_RULE ? ROCK_FUSED_FAN : *fanIo;
  int64_t P = splitOneWave(a, s), warpParts = P;
  /* key warps: the rule's partitions of one warp, kw of them a workgroup
   * (the same keys a warp, kw times fewer workgroups and partials); the
   * fused rule still counts the warps' partitions */
  if (s->kw > 1 && rock__attnForcedSplit(a) <= 0)
    P = P / s->kw > 1 ? P / s->kw : 1;
  bool want = swFused == FUSED_BY_RULE
                  ? a->Sq * a->R <= FUSED_ROWS && warpParts >= FUSED_SPLIT
                  : swFused == 1;
  bool pow2 = P > 1 && (P & (P - 1)) == 0;
  *fused = want && s->ldm && pow2 && fan <= s->ac.wave &&
           rock__gpuFusedBytes(s->nb, fan) <= s->bytes;
  if (*fanIo == FAN_BY_RULE)
    *fanIo = *fused ? fanRule(s, P) : ROCK_FUSED_FAN;
  return *fused || !s->fill || s->kw > 1 ? P : fillWave(a, s, P);
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
  int64_t P = planSplit(&b, &s, sw.fused, &sw.fan, &fused);
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
  n = strlen(buf);
  if (fused && sw.fan != ROCK_FUSED_FAN && n < len)
    snprintf(buf + n, len - n, " fan %d", sw.fan);
  n = strlen(buf);
  if ((s.kw > 1 || s.kwWhy) && n < len)
    snprintf(buf + n, len - n, " key_warps %d%s%s%s", s.kw, s.kwWhy ? " (" : "",
             s.kwWhy ? s.kwWhy : "", s.kwWhy ? ")" : "");
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
  int64_t P = planSplit(a, &s, sw.fused, &sw.fan, &a->fused);
  a->fusedFan = sw.fan;
  if (a->fused)
    rock__gpuFusedTree(P, a->fusedFan, &a->fusedCnt, &a->fusedUp);
  return rock__attnLower(op, pass, a, P, true, rock__tcGenerate, &s) ? 1 : 0;
}
