/*===- attention_wgmma.c - the sm_90a prefill schedule (warpgroup MMA) ---===*
 *
 * rock.gridwise_attention on Hopper's own tensor-core instruction, for
 * prefill on sm_90 / sm_90a (docs/gpu-accel.md, "The sm_90a prefill
 * schedule"):
 *   - a workgroup of 1 or 2 consumer warpgroups, each owning 64 merged rows
 *     (the q x group rows of a KV group, as the mma.sync schedule merges
 *     them), against key tiles of mb = 128 keys (64 when a head dim is
 *     above 128);
 *   - Q, K, V staged with cp.async in the wgmma operand layouts (no
 *     swizzle; attention_wgmma_stage.c) in dynamic workgroup memory: Q once,
 *     K and V in two stages each;
 *   - S = Q·Kᵀ with A and B from workgroup memory; O += P·V with P in
 *     registers (the register-A form through PTX inline asm; accel_wgmma.c);
 *   - per tile t, after one barrier: K(t + 1) and V(t) stream in while
 *     S(t) and P·V(t - 1) are issued together, then the softmax of tile t
 *     runs as P·V(t - 1) finishes on the tensor cores (wait_group 1), and O
 *     is rescaled after it (wait_group 0); the last tile's P·V follows the
 *     loop;
 *   - the scores, masks, online softmax, finalisation, LSE, causal
 *     longest-first order and internal split are passes/attention/'s.
 * It applies to 16-bit Q = K = V (f16 / bf16), prefill (at least 64
 * queries per head), head dims multiples of 16 up to 256 (and key counts a
 * multiple of 8 when K is stored [d][keys]); otherwise, or with the module
 * attribute rock.gpu_wgmma = false (plain sm_90 PTX), the mma.sync schedule
 * runs. rock.gpu_wgmma_overlap = false makes the softmax wait for P·V (an
 * ablation); consumer ping-pong (attention_wgmma_ws.c: the consumer
 * warpgroups' products in turns) runs by planShape's rule above head dim
 * 128, rock.gpu_wgmma_pingpong = true / false turns it on / off; the
 * tiles are staged 128-byte swizzled where both head dims are multiples of
 * 64 (attention_wgmma.h; on the H200 16-65 % faster than the 32-byte
 * swizzle), rock.gpu_wgmma_swizzle128 = false keeps the 32-byte one; dense
 * K and V are staged by TMA in the producer form (attention_wgmma_tma.c;
 * always 128-byte swizzled; on the H200 1.31-1.54x the cp.async staging at
 * d 128, run 9), rock.gpu_wgmma_tma = false keeps cp.async; paged K / V
 * are staged by TMA too (one copy per page over a map of the page pool,
 * where rock__wgTmaPagedPlan's rule allows; 1.33-1.57x the cp.async form on
 * the H200, run 11), rock.gpu_wgmma_tma_paged = false keeps them on
 * cp.async without a producer; three plan parameters (planShape,
 * planKeys): rock.gpu_wgmma_wide = false (no producer form above head dim
 * 128), rock.gpu_wgmma_keys (the key tile), rock.gpu_wgmma_consumers (the
 * rule: 3 consumer warpgroups at head dims up to 64, else 2);
 * rock.gpu_wgmma_persistent (planPersist's rule: causal problems;
 * true / false turns it on / off; tileLoop) makes the producer form's
 * workgroups persistent, min(tiles, SMs) of them looping over the tiles;
 * rock.gpu_wgmma_q_buffers = 2 (opt-in) gives that form two Q buffers,
 * rock.gpu_wgmma_dynamic (on wherever the persistent form is, unless
 * false; planDyn) its tiles from a global counter (attention_wgmma_dyn.c);
 * rock.gpu_wgmma_stages = 3 / 4 (opt-in; planStages) gives the producer
 * form that many K / V stages where they fit.
 * A module
 * whose kernels hold wgmma is compiled
 * for sm_90a (rock-gpu-attach-target).
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/attention_wgmma.h"
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
  SMEM_MAX = 232448, /* 227 KiB of dynamic workgroup memory per block */
  MAX_PA = 64,       /* P registers: mb / 16 x 4 */
};

/* The schedule switches (docs/gpu.md, "Schedule switches"). */
typedef struct WgSwitches {
  bool on;       /* rock.gpu_wgmma */
  bool overlap;  /* rock.gpu_wgmma_overlap */
  bool producer; /* rock.gpu_wgmma_producer */
  int pingpong;  /* rock.gpu_wgmma_pingpong (WG_BY_RULE: not given) */
  bool swizzle;  /* rock.gpu_wgmma_swizzle128 */
  bool tma;      /* rock.gpu_wgmma_tma */
  bool tmaPaged; /* rock.gpu_wgmma_tma_paged */
  int lanes;     /* rock.gpu_wgmma_tma_paged_lanes */
  bool wide;     /* rock.gpu_wgmma_wide */
  int keys;      /* rock.gpu_wgmma_keys (0: the rule) */
  int consumers; /* rock.gpu_wgmma_consumers (0: the rule) */
  int persist;   /* rock.gpu_wgmma_persistent (WG_BY_RULE: not given) */
  int qBufs;     /* rock.gpu_wgmma_q_buffers (1, 2) */
  int dyn;       /* rock.gpu_wgmma_dynamic (WG_BY_RULE when not given) */
  int stages;    /* rock.gpu_wgmma_stages (WG_STAGES when not given) */
  bool lazy;     /* rock.gpu_wgmma_lazy_rescale */
  int exp2Fma;   /* rock.gpu_wgmma_exp2_fma (0: off) */
} WgSwitches;

/* (rock.gpu_wgmma_tma) Whether K and V are tensors TMA can copy the tiles
 * of (tma_view.h): whole 64-element blocks of head dims, the contiguous
 * dimension d (K [keys][d], V) or the keys (K [d][keys], tiles of whole
 * blocks). Fills c->tk, c->tv. Paged K / V: rock__wgTmaPagedPlan. */
static bool tmaViews(MlirOperation op, WgCtx *c) {
  const RockAttn *a = c->a;
  return a->Dqk % 64 == 0 && a->Dv % 64 == 0 &&
         rock__gpuTmaView(mlirOperationGetOperand(op, 1), &c->tk) &&
         rock__gpuTmaView(mlirOperationGetOperand(op, 2), &c->tv) &&
         c->tk.stride[a->kKeyMajor ? 1 : 2] == 1 && c->tv.stride[2] == 1;
}

/* The workgroup memory of a plan with key tiles of mb keys: Q (c->qBufs
 * buffers), then c->stages stages of K and V, the 1 KiB of the swizzle's
 * alignment, the mbarriers (sets c->q, k, v, stageBytes, barOff, bytes).
 * Four a stage for K and V (full and empty of each), with TMA one FULL_Q a
 * Q buffer and one EMPTY_Q (persist) a Q buffer: two stages, 80 bytes with
 * one buffer, 96 with two. */
static void layout(WgCtx *c) {
  const RockAttn *a = c->a;
  int qb = c->qBufs > 1 ? 2 : 1;
  int64_t qBytes = 2LL * c->nb * a->Dqk;
  c->q = (WgTile){c->nb, (int)a->Dqk, false, 0, "", c->sw128, qBytes};
  c->stageBytes = 2LL * c->mb * (a->Dqk + a->Dv);
  c->k = (WgTile){c->mb, (int)a->Dqk, a->kKeyMajor, qb * qBytes,
                  "",    c->sw128,    c->stageBytes};
  c->v = (WgTile){
      (int)a->Dv, c->mb,    true,         c->k.off + 2LL * c->mb * a->Dqk,
      "",         c->sw128, c->stageBytes};
  /* (sw128: the tiles start up to 1024 - 16 bytes into the buffer) */
  c->barOff = c->k.off + c->stages * c->stageBytes + (c->sw128 ? 1024 : 0);
  c->bytes = c->barOff + (c->ws ? 32 * c->stages + (c->tma ? 16 * qb : 0) : 0);
  /* (dyn: the two tile slots after the barriers) */
  c->slotOff = c->bytes;
  c->bytes += c->dyn ? 8 : 0;
}

/* The workgroup's shape: consumer warpgroups (nwg, nb rows), whether a
 * producer warpgroup copies (ws), whether the consumers take turns
 * (pingpong) and the register split of the roles. The rule (measured on
 * the H200, bench/RESULTS-gpu-wgmma.md run 11): 3 consumer warpgroups
 * (192 rows) at head dims up to 64 with dense K / V, whole 128-key tiles
 * (a key tail's masks or rock.gpu_wgmma_keys = 192 spill, ptxas -v) and
 * no per-row key limits, else 2 from 128 merged rows on (else 1);
 * rock.gpu_wgmma_consumers = N asks for up to N (3: head dims up to 128,
 * the producer form only, no per-row key limits: with the causal /
 * KV-cache / window masks its 160 registers spill, ptxas -v).
 * Warp-specialised (a producer warpgroup; rock.gpu_wgmma_producer = false
 * turns it off) with two or three consumer warpgroups, no pre-softmax
 * region and dense K / V (through page tables one copying warpgroup is
 * slower than all threads, bench/RESULTS-gpu-wgmma.md run 2), head dims up
 * to 128, or up to 256 unless rock.gpu_wgmma_wide = false (d 256: O alone
 * is 128 registers a lane, which fits setmaxnreg 240; the region's extra
 * values would not). Ping-pong by rule above head dim 128 without per-row
 * key limits (two consumer warpgroups of the producer form); an explicit
 * rock.gpu_wgmma_pingpong = true turns it on wherever the producer form
 * has two or three consumer warpgroups (a ring of three at d 64), = false
 * off everywhere. setmaxnreg: two consumer warpgroups 232 / producer 40
 * (240 / 24 above d 128), three 160 / 32 (the register file's 64 Ki
 * either way). */
static void planShape(MlirOperation op, const RockAttn *a, const WgSwitches *sw,
                      WgCtx *c) {
  int64_t sqr = a->Sq * a->R;
  bool narrow = a->Dqk <= 128 && a->Dv <= 128;
  bool small = a->Dqk <= 64 && a->Dv <= 64 && !a->kvPaged && a->Sk % 128 == 0 &&
               sw->keys <= 128;
  int want = sw->consumers ? sw->consumers
             : small       ? WG_MAX_CONSUMERS
                           : WG_MAX_WG;
  if (want > 2 && (!narrow || a->dynamic || a->hasLow))
    want = 2;
  c->nwg = (int)(sqr / WG_ROWS < want ? sqr / WG_ROWS : want);
  if (c->nwg < 1)
    c->nwg = 1;
  bool wsShape = sw->producer && c->nwg >= 2 && (narrow || sw->wide) &&
                 mlirBlockIsNull(a->rblock);
  /* Paged K / V take the producer form only with TMA copies, one per page
   * (through page tables one copying warpgroup's cp.async is slower than
   * all threads', bench/RESULTS-gpu-wgmma.md run 2), where
   * rock__wgTmaPagedPlan's rule allows, with two consumer warpgroups at
   * head dims up to 128 and the rule's key tile (the producer's 40
   * registers hold a tile's page addresses). */
  c->mb = narrow ? 128 : 64;
  bool pagedTma = a->kvPaged && wsShape && narrow && c->nwg == 2 && sw->tma &&
                  sw->tmaPaged && rock__wgTmaPagedPlan(op, c);
  c->ws = wsShape && (!a->kvPaged || pagedTma);
  c->pagedLanes = pagedTma ? sw->lanes : 0;
  if (c->nwg > 2 && !c->ws)
    c->nwg = 2;
  c->nb = WG_ROWS * c->nwg;
  c->nThreads = WG_LANES * (c->nwg + (c->ws ? 1 : 0));
  c->pingpong = c->ws && (sw->pingpong == WG_BY_RULE ? !narrow && !a->dynamic
                                                     : sw->pingpong == 1);
  c->regsC = c->nwg > 2 ? 160 : narrow ? 232 : 240;
  c->regsP = c->nwg > 2 ? 32 : narrow ? 40 : 24;
}

/* The key tile: 128 keys (64 when a head dim is above 128), or
 * rock.gpu_wgmma_keys where that plan fits the workgroup memory. */
static void planKeys(const WgSwitches *sw, WgCtx *c) {
  const RockAttn *a = c->a;
  c->mb = a->Dqk <= 128 && a->Dv <= 128 ? 128 : 64;
  layout(c);
  if (!sw->keys || sw->keys == c->mb || c->paged)
    return;
  WgCtx t = *c;
  t.mb = sw->keys;
  layout(&t);
  if (t.bytes <= SMEM_MAX)
    *c = t;
}

/* (rock.gpu_wgmma_stages) The K / V stages: WG_STAGES, or 3 / 4 where asked,
 * with the producer form (its mbarriers track each stage's rounds, any
 * number of them; the form where every thread copies keeps two: its one
 * barrier a tile orders the reuse of the other stage) and where they fit
 * the workgroup memory with the plan's key tile (three at d 128: Q 32 KiB
 * + 3 x 64 KiB + the swizzle's 1 KiB + 112 bytes of barriers, 230512 of
 * 232448 bytes; d 256, Q 64 KiB and 64 KiB a stage: two), else two, as
 * rock.gpu_wgmma_keys keeps the rule's tile where the one asked does not
 * fit (the plan line says which it took). A third stage lets the producer
 * copy tile t + 2 before tile t is released (it waits for the release of
 * tile t + 2 - stages), a tile more of slack for the copies' latency. */
static void planStages(const WgSwitches *sw, WgCtx *c) {
  if (sw->stages == WG_STAGES)
    return;
  /* (the running key-tile index u of attention_wgmma_ws.c is taken mod 3 in
   * i32: below 2^31 where the launch's key tiles are, at most twice the
   * tiles' keys over mb with the split, which adds at most one a tile) */
  const RockAttn *a = c->a;
  int64_t kt = (a->Sk + c->mb - 1) / c->mb;
  int64_t rows = (a->Sq * a->R + c->nb - 1) / c->nb;
  if (!c->ws || 2 * a->Bkv * rows * kt >= (1LL << 31))
    return;
  WgCtx t = *c;
  t.stages = sw->stages;
  layout(&t);
  if (t.bytes <= SMEM_MAX)
    *c = t;
}

/* (rock.gpu_wgmma_persistent) Whether the workgroups loop over the tiles
 * (c->persist), or why not (c->persistWhy; one tile a workgroup then). The
 * rule, when the switch is not given (measured on the H200, run 13: causal
 * 0.909-0.988x of the one-tile kernel, B 4 Hq 32 Hkv 8 S 2k to S 16k;
 * non-causal 1.022-1.127x, slower): causal problems; = true asks for it
 * everywhere, = false keeps one tile. Where it is asked: the producer form with
 * dense K and V by TMA (the Q-free barrier, EMPTY_Q of attention_wgmma_ws.c,
 * orders the producer's next Q after the consumers' last Q·Kᵀ), head dims up
 * to 128 (d 256 with ping-pong off spills: ptxas -v), two or three consumer
 * warpgroups (three: the 160 / 32 registers of the one-tile kernel, the tile
 * loop's counters as i32, tileLoop), no per-row first keys (a sliding window or
 * look-back spilled 32 bytes), without ping-pong (its named barriers are
 * balanced per tile, but not verified across tiles). */
static void planPersist(const WgSwitches *sw, WgCtx *c) {
  const RockAttn *a = c->a;
  c->qBufs = 1;
  if (sw->persist == WG_BY_RULE ? !a->causal : sw->persist != 1)
    return;
  c->persistWhy = !c->ws                        ? "no producer warpgroup"
                  : c->paged                    ? "paged K / V"
                  : !c->tma                     ? "K / V not staged by TMA"
                  : a->Dqk > 128 || a->Dv > 128 ? "head dim above 128"
                  : a->hasLow                   ? "per-row first keys"
                  : c->pingpong                 ? "consumer ping-pong"
                                                : NULL;
  c->persist = !c->persistWhy;
  /* The producer's tile loop needs more than 40 registers (at 232 / 40 it
   * spilled 12 bytes, bf16 causal Hq 64 / Hkv 8 d 128, ptxas -v): 224 / 56,
   * the same register file. */
  if (c->persist && c->nwg == 2)
    c->regsC = 224, c->regsP = 56;
  /* (rock.gpu_wgmma_q_buffers = 2) Q of the next tile loads while this one
   * runs, where the second buffer fits (d 128: 164944 + 32784 bytes of 227
   * KiB), with two consumer warpgroups (three spilled 4-12 bytes at 160 / 32,
   * ptxas -v: bf16 d 64 MHA and GQA 4), at 232 / 48 (the whole register
   * file; at 224 / 56 the consumers spilled 8 bytes, f16 MHA 2048 x 1000
   * keys with the LSE). */
  if (c->persist && c->nwg == 2 && sw->qBufs == 2) {
    WgCtx t = *c;
    t.qBufs = 2;
    t.regsC = 232, t.regsP = 48;
    layout(&t);
    if (t.bytes <= SMEM_MAX)
      *c = t;
  }
}

/* (rock.gpu_wgmma_dynamic) Whether the persistent workgroups take their
 * tiles from a global counter (c->dyn; attention_wgmma_dyn.c), or why not
 * (c->dynWhy, where it was asked for): wherever the persistent form is on
 * and its two tile slots (8 bytes) fit, unless = false. The rule, measured
 * on an H100 (one device call, CUDA graphs): against the static persistent
 * loop, causal bf16 B 2 Hq 64 Hkv 8 S 4k / 8k / 16k 0.946 / 0.928 / 0.980x,
 * B 4 Hq 32 Hkv 8 S 2k 0.928x, f16 S 8k 0.882x; non-causal, where the
 * persistent form is only asked for, 0.94-1.05x, level with one tile a
 * workgroup. */
static void planDyn(const WgSwitches *sw, WgCtx *c) {
  if (!sw->dyn || !c->persist) {
    c->dynWhy = sw->dyn == 1 && !c->persist ? "not persistent" : NULL;
    return;
  }
  WgCtx t = *c;
  t.dyn = true;
  layout(&t);
  if (t.bytes > SMEM_MAX)
    c->dynWhy = "workgroup memory";
  else
    *c = t;
}

/* The plan for `a`: false when the schedule does not apply. */
static bool applies(MlirOperation op, RockAttn *a, const WgSwitches *sw,
                    WgCtx *c) {
  RockGpuTarget t;
  MlirExternalPass quiet = {NULL};
  if (!rock__gpuArch(op, quiet, &t) || t.vendor != ROCK_GPU_NVIDIA ||
      t.smVersion != 90 || !sw->on)
    return false;
  memset(c, 0, sizeof *c);
  c->a = a;
  c->stages = WG_STAGES;
  c->numCu = rock__gpuNumCu(op, &t);
  rock__typeStr(c->elt, sizeof c->elt, a->tq, 1);
  char tk[16], tv[16];
  rock__typeStr(tk, sizeof tk, a->tk, 1);
  rock__typeStr(tv, sizeof tv, a->tv, 1);
  if ((strcmp(c->elt, "f16") && strcmp(c->elt, "bf16")) || strcmp(c->elt, tk) ||
      strcmp(c->elt, tv))
    return false;
  /* Prefill: at least a warpgroup's rows of queries per head (multi-token
   * decode, a few queries against a long cache, is read-bound: the
   * mma.sync schedule streams it faster, bench/RESULTS-gpu-wgmma.md). */
  int64_t sqr = a->Sq * a->R;
  if (a->Sq < WG_ROWS || a->Dqk % 16 || a->Dv % 16 || a->Dqk > 256 ||
      a->Dv > 256 || (a->kKeyMajor && a->Sk % 8))
    return false;
  planShape(op, a, sw, c);
  /* The 128-byte swizzle needs whole 64-element blocks (every tile's two
   * extents are head dims or key tiles). */
  c->tma = sw->tma && c->ws && (c->paged || tmaViews(op, c));
  c->sw128 = (sw->swizzle || c->tma) && a->Dqk % 64 == 0 && a->Dv % 64 == 0;
  RockGpuTarget ta = t;
  snprintf(ta.chip, sizeof ta.chip, "sm_90a");
  planKeys(sw, c);
  planStages(sw, c);
  planPersist(sw, c);
  planDyn(sw, c);
  if (!rock__accelSelectWarpgroup(&ta, c->elt, c->mb, &c->acS) ||
      !rock__accelSelectWarpgroup(&ta, c->elt, (int)a->Dv, &c->acO))
    return false;
  if (c->bytes > SMEM_MAX)
    return false;
  WgTile *ts[3] = {&c->q, &c->k, &c->v};
  for (int i = 0; i < 3; ++i)
    snprintf(ts[i]->mt, sizeof ts[i]->mt,
             "memref<%dx8x%s, #gpu.address_space<workgroup>>",
             ts[i]->nn * ts[i]->kk / 8, c->elt);
  c->overlap = sw->overlap;
  c->lazy = sw->lazy && a->softmax;
  c->exp2Fma = a->softmax ? sw->exp2Fma : 0;
  if (c->paged) {
    if (a->nExtra + 2 > ROCK_ATTN_MAX_EXTRA)
      return false;
    c->xK = a->nExtra, a->extra[a->nExtra++] = c->pgK.table;
    c->xV = a->nExtra, a->extra[a->nExtra++] = c->pgV.table;
  }
  /* Causal row blocks see more keys the later they come: the longest
   * first. */
  if (a->causal)
    a->reverse = !a->reverse;
  a->NB = c->nb;
  a->MB = c->mb;
  a->nNBlk = (sqr + a->NB - 1) / a->NB;
  a->grid = a->Bkv * a->nNBlk * a->S;
  return true;
}

/* (sw128) The bytes from the buffer's start to its first 1024-byte
 * boundary: the swizzle pattern is one of addresses, so every tile starts
 * on one (the buffer is only 16-byte aligned; c->bytes has the slack). */
static int alignPad(RockGen *g, WgCtx *c) {
  int p = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.extract_aligned_pointer_as_index %%v%d : %s "
                "-> index",
                p, c->buf, c->mBuf);
  int c1k = rock__genIndex(g, 1024);
  return rock__genBin(
      g, "arith.remui",
      rock__genBin(g, "arith.subi", c1k,
                   rock__genBin(g, "arith.remui", p, c1k, "index"), "index"),
      c1k, "index");
}

/* The workgroups launched: one a tile, or (persist) at most one an SM. */
static int64_t launchGrid(const WgCtx *c) {
  const RockAttn *a = c->a;
  return c->persist && c->numCu < a->grid ? c->numCu : a->grid;
}

/* The ids of the tile `bid` (an index id): its rows (c->wg; the one
 * decomposition of a tile index, rock__attnWorkgroup), c->cR, c->lastRow. */
static void tileIds(RockGen *g, WgCtx *c, int bid) {
  c->wg = rock__attnWorkgroup(g, c->a, bid);
  c->cR = rock__genIndex(g, c->a->R);
  c->lastRow =
      rock__genBin(g, "arith.subi", c->wg.nRows, rock__genIndex(g, 1), "index");
}

/* The gpu.launch line and the ids every stage uses (persist: but the
 * tile's, tileIds in the tile loop). */
static void launch(RockGen *g, WgCtx *c, int *bx) {
  int c1 = rock__genIndex(g, 1), v[12];
  char lit[24];
  snprintf(lit, sizeof lit, "%lld", (long long)c->bytes);
  int bytes = rock__genConst(g, lit, "i32");
  for (int i = 0; i < 12; ++i)
    v[i] = rock__genFresh(g);
  rock__genLine(
      g,
      "gpu.launch blocks(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, %%v%d = "
      "%%v%d, %%v%d = %%v%d) threads(%%v%d, %%v%d, %%v%d) in (%%v%d = %%v%d, "
      "%%v%d = %%v%d, %%v%d = %%v%d) dynamic_shared_memory_size %%v%d {",
      v[0], v[1], v[2], v[3], rock__genIndex(g, launchGrid(c)), v[4], c1, v[5],
      c1, v[6], v[7], v[8], v[9], rock__genIndex(g, c->nThreads), v[10], c1,
      v[11], c1, bytes);
  g->depth++;
  rock__attnPdlTrigger(g, c->a);
  *bx = v[0];
  c->tx = v[6];
  snprintf(c->mBuf, sizeof c->mBuf,
           "memref<?xi8, #gpu.address_space<workgroup>>");
  c->buf = rock__genFresh(g);
  rock__genLine(g, "%%v%d = gpu.dynamic_shared_memory : %s", c->buf, c->mBuf);
  c->pad = c->sw128 ? alignPad(g, c) : -1;
  if (c->sw128) {
    int v = rock__wgTileView(g, c, &c->q, -1), p = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = memref.extract_aligned_pointer_as_index %%v%d : %s "
                  "-> index",
                  p, v, c->q.mt);
    int a = rock__genFresh(g);
    rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", a, p);
    c->addr16 =
        rock__genBin(g, "arith.shrui",
                     rock__genBin(g, "arith.andi", a,
                                  rock__genConst(g, "262143", "i64"), "i64"),
                     rock__genConst(g, "4", "i64"), "i64");
  }
  int cl = rock__genIndex(g, WG_LANES);
  c->wgi = rock__genBin(g, "arith.divui", c->tx, cl, "index");
  c->lane = rock__genBin(g, "arith.remui", c->tx, cl, "index");
  c->cpTx = c->ws ? rock__genBin(g, "arith.subi", c->tx,
                                 rock__genIndex(g, WG_LANES * c->nwg), "index")
                  : c->tx;
  c->cpN = c->ws ? WG_LANES : c->nThreads;
  if (!c->persist)
    tileIds(g, c, *bx);
  /* Q's descriptor for this warpgroup's rows. */
  int qd = rock__wgTileDesc(g, c, &c->q, -1);
  int wgi = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", wgi,
                c->wgi);
  snprintf(lit, sizeof lit, "%lld",
           (long long)(rock__wgLines(&c->q, WG_ROWS) >> 4));
  c->qDesc = rock__genBin(
      g, "arith.addi", qd,
      rock__genBin(g, "arith.muli", wgi, rock__genConst(g, lit, "i64"), "i64"),
      "i64");
}

/* The block's key range and this split's tiles (c->start, c->end); with
 * dynamic limits also the keys every row sees (c->minLast, c->maxLow). */
static void blockRange(RockGen *g, WgCtx *c) {
  RockAttn *a = c->a;
  int eff = -1, lowKey = -1;
  if (a->dynamic) {
    eff = rock__genIndex(g, -1);
    lowKey = rock__genIndex(g, a->Sk);
    c->minLast = rock__genIndex(g, a->Sk);
    c->maxLow = rock__genIndex(g, 0);
    for (int r = 0; r < c->nb; ++r) {
      int rc = rock__genBin(g, "arith.minui", rock__genIndex(g, r), c->lastRow,
                            "index");
      RockRowIdx x = rock__attnRowIdx(g, c->wg.n0, rc, c->wg.bq0, c->cR);
      int last = rock__attnRowLast(g, a, x);
      eff = rock__attnBlockLast(g, eff, last);
      c->minLast = rock__genBin(g, "arith.minsi", c->minLast, last, "index");
      if (a->hasLow) {
        int low = rock__attnRowLow(g, a, x);
        lowKey = rock__attnBlockLow(g, lowKey, low);
        c->maxLow = rock__genBin(g, "arith.maxsi", c->maxLow, low, "index");
      }
    }
  }
  rock__attnTileRange(g, a, c->wg.split, eff, lowKey, &c->start, &c->end);
}

/* Waits for this thread's copies, makes everyone's visible to the tensor
 * cores (generic-proxy stores before async-proxy reads), then a barrier. */
static void landed(RockGen *g) {
  rock__genLine(g, "nvvm.cp.async.wait.group 0");
  rock__accelWgmmaProxyFence(g);
  rock__genLine(g, "gpu.barrier");
}

/* The stage (0 / 1, index id) of tile `kt` (two stages without the producer
 * form, planStages). */
static int stageOf(RockGen *g, const WgCtx *c, int kt) {
  return rock__genBin(g, "arith.remui",
                      rock__genBin(g, "arith.subi", kt, c->start, "index"),
                      rock__genIndex(g, 2), "index");
}

/* K of tile `kt` + 1 into stage `st`, when there is such a tile. */
static void nextK(RockGen *g, WgCtx *c, int kt, int st) {
  int kn = rock__genBin(g, "arith.addi", kt, rock__genIndex(g, 1), "index");
  rock__genLine(g, "scf.if %%v%d {",
                rock__genBin(g, "arith.cmpi ult,", kn, c->end, "index"));
  g->depth++;
  int jn;
  (void)rock__attnTileCols(g, c->a, kn, &jn);
  rock__wgStageK(g, c, jn, st);
  g->depth--;
  rock__genLine(g, "}");
}

/* One loop iteration for tile kt: state m[2], l[2], O (vector), P of tile
 * kt - 1 (pa); sets the next state in mN, lN, oN, paN. */
static void tileStep(RockGen *g, WgCtx *c, int kt, const int *m, const int *l,
                     int o, const int *pa, int *mN, int *lN, int *oN,
                     int *paN) {
  int st = stageOf(g, c, kt);
  int sp = rock__genBin(g, "arith.subi", rock__genIndex(g, 1), st, "index");
  int j0;
  (void)rock__attnTileCols(g, c->a, kt, &j0);
  landed(g);
  nextK(g, c, kt, sp);
  rock__wgStageV(g, c, j0, st);
  rock__genLine(g, "nvvm.cp.async.commit.group");
  WgDescs ds, dv;
  rock__wgScoresDescs(g, c, st, &ds);
  rock__wgPVDescs(g, c, sp, &dv);
  int os0 = rock__accelWgmmaStruct(g, &c->acO, o), pin[MAX_PA];
  rock__accelWgmmaPin(g, pa, c->mb / 4, pin);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int s = rock__wgScores(g, c, &ds);
  int os = rock__wgPV(g, c, &dv, pin, os0);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned %d", c->overlap ? 1 : 0);
  int cr[2];
  rock__wgSoftmax(g, c, rock__accelWgmmaVector(g, &c->acS, s), j0, m, l, mN, lN,
                  cr, paN);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned 0");
  rock__accelWgmmaHold(g, pin, c->mb / 4);
  *oN = rock__wgRescale(g, c, rock__accelWgmmaVector(g, &c->acO, os), cr);
}

/* The key tiles of a non-empty range: the first tile's scores and
 * softmax, the loop (tileStep), the last tile's P·V; yields O, m, l. */
static void pipeline(RockGen *g, WgCtx *c) {
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int j0, st0 = rock__genIndex(g, 0);
  (void)rock__attnTileCols(g, c->a, c->start, &j0);
  rock__wgStageQ(g, c);
  rock__wgStageK(g, c, j0, st0);
  rock__genLine(g, "nvvm.cp.async.commit.group");
  landed(g);
  nextK(g, c, c->start, rock__genIndex(g, 1));
  rock__wgStageV(g, c, j0, st0);
  rock__genLine(g, "nvvm.cp.async.commit.group");
  WgDescs ds;
  rock__wgScoresDescs(g, c, st0, &ds);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int s = rock__wgScores(g, c, &ds);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned 0");
  int m0[2] = {ninf, ninf}, l0[2] = {zf, zf}, m1[2], l1[2], cr[2];
  int pa[MAX_PA];
  rock__wgSoftmax(g, c, rock__accelWgmmaVector(g, &c->acS, s), j0, m0, l0, m1,
                  l1, cr, pa);
  /* state: m (2), l (2), O, P (npa i32) */
  int npa = c->mb / 4, nSt = 5 + npa;
  int init[5 + MAX_PA], args[5 + MAX_PA], res[5 + MAX_PA], next[5 + MAX_PA];
  const char *tys[5 + MAX_PA];
  char vt[32];
  rock__typeStrS(vt, sizeof vt, "f32", c->acO.cElems);
  int o0 = rock__genZero(g, "f32", c->acO.cElems);
  for (int i = 0; i < nSt; ++i) {
    init[i] = i < 2 ? m1[i] : i < 4 ? l1[i - 2] : i == 4 ? o0 : pa[i - 5];
    tys[i] = i < 4 ? "f32" : i == 4 ? vt : "i32";
  }
  int kt;
  rock__genForTyped(
      g, rock__genBin(g, "arith.addi", c->start, rock__genIndex(g, 1), "index"),
      c->end, rock__genIndex(g, 1), nSt, init, tys, &kt, args, res);
  tileStep(g, c, kt, args, args + 2, args[4], args + 5, next, next + 2,
           &next[4], next + 5);
  rock__genYieldTypedEnd(g, nSt, next, tys);
  /* The last tile's P·V. */
  landed(g);
  int lastSt = stageOf(
      g, c,
      rock__genBin(g, "arith.subi", c->end, rock__genIndex(g, 1), "index"));
  WgDescs dv;
  rock__wgPVDescs(g, c, lastSt, &dv);
  int os0 = rock__accelWgmmaStruct(g, &c->acO, res[4]);
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
  int os = rock__wgPV(g, c, &dv, res + 5, os0);
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned 0");
  int o = rock__accelWgmmaVector(g, &c->acO, os);
  rock__genLine(g,
                "scf.yield %%v%d, %%v%d, %%v%d, %%v%d, %%v%d : %s, f32, f32, "
                "f32, f32",
                o, res[0], res[1], res[2], res[3], vt);
}

/* The consumers' part of one tile: the pipeline (or the consumer role)
 * over a non-empty key range, then the finalisation (empty: O 0, LSE
 * -inf). */
static void tileBody(RockGen *g, WgCtx *c) {
  char vt[32];
  rock__typeStrS(vt, sizeof vt, "f32", c->acO.cElems);
  int ninf = rock__genConst(g, ROCK_NINF, "f32");
  int zf = rock__genConst(g, "0.0", "f32");
  int any = rock__genBin(g, "arith.cmpi ult,", c->start, c->end, "index");
  int r0 = g->next;
  for (int i = 0; i < 5; ++i)
    (void)rock__genFresh(g);
  rock__genLine(g,
                "%%v%d, %%v%d, %%v%d, %%v%d, %%v%d = scf.if %%v%d -> (%s, f32, "
                "f32, f32, f32) {",
                r0, r0 + 1, r0 + 2, r0 + 3, r0 + 4, any, vt);
  g->depth++;
  if (c->ws)
    rock__wgConsumer(g, c);
  else
    pipeline(g, c);
  g->depth--;
  rock__genLine(g, "} else {");
  rock__genLine(g,
                "  scf.yield %%v%d, %%v%d, %%v%d, %%v%d, %%v%d : %s, f32, "
                "f32, f32, f32",
                rock__genZero(g, "f32", c->acO.cElems), ninf, ninf, zf, zf, vt);
  rock__genLine(g, "}");
  int m[2] = {r0 + 1, r0 + 2}, l[2] = {r0 + 3, r0 + 4};
  rock__wgFinish(g, c, r0, m, l);
}

/* (persist) One role's loop over the tiles: t = blockIdx.x, + gridDim.x,
 * while t < a->grid, each tile decomposed as the one-tile kernel's
 * workgroup t (tileIds: the same order, longest first when causal). Both
 * roles walk the same tiles, so the running counters they carry agree
 * without any exchange: uBase, the key tiles of the earlier tiles (a key
 * tile's stage and mbarrier round are those of the workgroup's uBase + u-th
 * key tile, u from the tile's start), and qRound, the earlier non-empty
 * tiles (Q's round).
 * Why nothing deadlocks (the arrival counts of attention_wgmma_ws.c):
 *  - FULL_K / FULL_V (1 arrival, expect_tx) and EMPTY_K / EMPTY_V (every
 *    consumer thread) see one phase per key tile of their stage, in the
 *    order of the running index: across a tile boundary the sequence is
 *    that of one long key loop, so each waiter is at most one phase behind
 *    (the producer waits for round n - 1 of a stage before filling round n,
 *    the consumers for round n), as in the one-tile kernel. Every key
 *    tile's K and V are released, a tile's last V too (after its P·V; the
 *    one-tile kernel skips that arrival), else the stage's next round
 *    would wait forever. The first key tile of tile t + 1 goes to the
 *    stage its running index gives, freed by the consumers' release of
 *    running index - c->stages, within tile t or before; the copying
 *    thread issues it after tile t + 1's Q (below), while the consumers run
 *    tile t's last P·V and store O.
 *  - FULL_Q (the producer's 128 cp.async arrivals) and EMPTY_Q (every
 *    consumer thread) see one phase per non-empty tile: the producer loads
 *    Q of round q only after phase q - 1 of EMPTY_Q (the consumers' arrival
 *    once all Q·Kᵀ of round q - 1 are done), the consumers arrive on
 *    EMPTY_Q round q only after waiting FULL_Q round q, so neither side
 *    runs two phases ahead of the other.
 *  - Two Q buffers (c->qBufs): round q takes buffer b = q % 2 and its own
 *    FULL_Q[b] / EMPTY_Q[b], at phase q / 2: each pair sees the rounds of
 *    one parity, as the single pair sees all of them, so the argument
 *    above holds per buffer with q - 2 for q - 1. The producer waits for
 *    phase q / 2 - 1 of EMPTY_Q[b] (round q - 2's consumers done with
 *    their Q·Kᵀ) before Q of round q; round q + 2 cannot complete
 *    EMPTY_Q[b] before that Q is loaded, nor round q - 4 be pending (the
 *    producer waited for it before Q of round q - 2), so the parity it
 *    waits for is unambiguous; likewise the consumers' wait for FULL_Q[b]
 *    phase q / 2 (round q + 2's copies wait for their arrival on round q).
 *    No cycle: what the producer waits for before Q of round q (the
 *    consumers through tile q - 2's key loop) needs only copies it issued
 *    earlier (Q of q - 2, its K and V), and its first thread reaches Q of
 *    round q right after the last K / V of round q - 1, while the
 *    consumers run tile q - 1: the copy overlaps that tile. The producer's
 *    other threads, which only copy Q, run at most one round ahead of its
 *    first thread: they too wait for EMPTY_Q[b] before each Q, and an
 *    arrival on FULL_Q[b] for round q + 2 follows that phase.
 *  - An empty tile (no key tiles: a dynamic limit, a split past the keys)
 *    touches no barrier on either side and counts nothing.
 *  - Workgroups share nothing; within one, both roles iterate the same
 *    tiles, so the last workgroup, which may have one tile fewer than the
 *    first, ends both roles together; the producer can leave first (its
 *    copies complete on the barriers the consumers wait on).
 * Dynamic tiles (c->dyn, rock.gpu_wgmma_dynamic; dynLoop): workgroup b
 * takes tile b first, then gridDim.x + atomicAdd(counter, 1) until that is
 * >= a->grid (attention_wgmma_dyn.c, which argues the counters' reset). The
 * roles no longer compute the tiles: the producer's copying thread fetches
 * the next one (once a tile, as it issues the tile's last K / V, or at
 * once for a tile without key tiles) and hands it over in tile rounds
 * (rock__wgRoundOpen): round q is the workgroup's q-th tile, empty ones
 * included, plus a last round carrying the end. So every round is a phase
 * of FULL_Q (and, but the last, of EMPTY_Q) of buffer q % qBufs, and qRound
 * counts rounds, not non-empty tiles; an empty tile's round passes no Q
 * (the producer's arrivals without copies, the consumers' EMPTY_Q arrival
 * right away).
 *  - The slot: round q's tile in workgroup-memory slot q % 2. The copying
 *    thread stores it after the producer's wait for EMPTY_Q of round q -
 *    qBufs and arrives on FULL_Q (129 arrivals with dyn: its own, a
 *    release of the store, and the 128 cp.async ones); the consumers wait
 *    for FULL_Q of round q (an acquire) and load it, the producer's other
 *    threads after a named barrier of the producer warpgroup (1, 128
 *    threads). Nobody reads a slot being rewritten: slot q % 2 is next
 *    written for round q + 2, after the producer's wait for EMPTY_Q of
 *    round q + 2 - qBufs >= q, which every consumer thread arrives on only
 *    after its load of round q (in round q, before the tile), and, for the
 *    producer's threads, after the named barrier of round q + 1, which
 *    each passes only after its load of round q.
 *  - No cycle: the copying thread reaches round q + 1 once it has issued
 *    the last K / V of round q, which needs only the consumers' releases
 *    within round q's key loop; its wait for EMPTY_Q of round q + 1 -
 *    qBufs needs the consumers through round q's Q·Kᵀ at most, which need
 *    only copies already issued; the producer's other threads wait at the
 *    named barrier for it, and the consumers for FULL_Q of round q + 1
 *    only after tile q. The FULL_Q / EMPTY_Q phase arguments above hold
 *    with rounds for non-empty tiles, both roles counting the same rounds.
 *  - The end: the round whose slot reads >= a->grid completes FULL_Q too
 *    (the copying thread's arrival in rock__wgRoundOpen, the others' after
 *    the loop), so the consumers wake, read it and leave; nothing waits on
 *    that round's EMPTY_Q. */
/* `arith.index_castui` of v from type `from` to `to`. */
static int castTo(RockGen *g, int v, const char *from, const char *to) {
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_castui %%v%d : %s to %s", r, v, from,
                to);
  return r;
}

/* (persist) This round's counters from the loop's a0 (key tiles) and a1
 * (Q rounds), of type i32 with n32, else index (c->uBase, qRound, qBuf). */
static void roundIds(RockGen *g, WgCtx *c, int a0, int a1, bool n32) {
  c->uBase = n32 ? castTo(g, a0, "i32", "index") : a0;
  c->qRound = n32 ? castTo(g, a1, "i32", "index") : a1;
  if (c->qBufs > 1)
    c->qBuf = rock__genBin(g, "arith.remui", c->qRound, rock__genIndex(g, 2),
                           "index");
}

/* (persist) One role's part of tile `t` (index id); (dyn) the producer's
 * returns the next tile its copying thread fetched (i32 id), the consumers
 * release Q's round of an empty tile. */
static int tileRole(RockGen *g, WgCtx *c, int t, bool producer) {
  tileIds(g, c, t);
  blockRange(g, c);
  if (producer && c->dyn)
    return rock__wgProducerDyn(g, c);
  if (producer)
    rock__wgProducer(g, c);
  else {
    rock__wgRows(g, c);
    tileBody(g, c);
  }
  if (!producer && c->dyn) {
    rock__genLine(
        g, "scf.if %%v%d {",
        rock__genBin(g, "arith.cmpi uge,", c->start, c->end, "index"));
    g->depth++;
    rock__wgRoundEmpty(g, c);
    g->depth--;
    rock__genLine(g, "}");
  }
  return -1;
}

/* (persist) The counters after this tile (next[0], next[1], type ct): a0
 * plus its key tiles, a1 plus one where it had any (dyn: every tile is a
 * round). */
static void advance(RockGen *g, WgCtx *c, int a0, int a1, bool n32, int *next) {
  const char *ct = n32 ? "i32" : "index";
  int i0 = rock__genIndex(g, 0);
  int any = rock__genBin(g, "arith.cmpi ult,", c->start, c->end, "index");
  int n = rock__genSelect(
      g, any, rock__genBin(g, "arith.subi", c->end, c->start, "index"), i0,
      "index");
  next[0] = rock__genBin(g, "arith.addi", a0,
                         n32 ? castTo(g, n, "index", "i32") : n, ct);
  int one = c->dyn ? rock__genIndex(g, 1)
                   : rock__genSelect(g, any, rock__genIndex(g, 1), i0, "index");
  next[1] = rock__genBin(g, "arith.addi", a1,
                         n32 ? castTo(g, one, "index", "i32") : one, ct);
}

/* (dyn) One role's loop over the tiles it takes: scf.while over the tile
 * rounds, carrying the counters (and the producer the fetched tile, first
 * blockIdx.x); the round opens before the condition (every role learns
 * the tile there), a tile index >= a->grid ends it. After it the producer
 * closes the last round (its arrivals on FULL_Q) and counts its workgroup
 * done. */
static void dynLoop(RockGen *g, WgCtx *c, int bx, bool producer) {
  bool n32 = c->nwg > 2;
  const char *ct = n32 ? "i32" : "index";
  char lit[24];
  snprintf(lit, sizeof lit, "%lld", (long long)c->a->grid);
  int hi = rock__genConst(g, lit, "i32"), c0 = rock__genConst(g, "0", ct);
  int f0 = producer ? castTo(g, bx, "index", "i32") : -1;
  int r[3], a[3], b[3];
  for (int i = 0; i < 3; ++i)
    r[i] = rock__genFresh(g);
  for (int i = 0; i < 3; ++i)
    a[i] = rock__genFresh(g);
  char fArg[48] = "";
  if (producer)
    snprintf(fArg, sizeof fArg, ", %%v%d = %%v%d", a[2], f0);
  rock__genLine(g,
                "%%v%d, %%v%d, %%v%d = scf.while (%%v%d = %%v%d, %%v%d = "
                "%%v%d%s) : (%s, %s%s) -> (%s, %s, i32) {",
                r[0], r[1], r[2], a[0], c0, a[1], c0, fArg, ct, ct,
                producer ? ", i32" : "", ct, ct);
  g->depth++;
  roundIds(g, c, a[0], a[1], n32);
  int t = rock__wgRoundOpen(g, c, producer, producer ? a[2] : -1);
  rock__genLine(g, "scf.condition(%%v%d) %%v%d, %%v%d, %%v%d : %s, %s, i32",
                rock__genBin(g, "arith.cmpi ult,", t, hi, "i32"), a[0], a[1], t,
                ct, ct);
  g->depth--;
  for (int i = 0; i < 3; ++i)
    b[i] = rock__genFresh(g);
  rock__genLine(g, "} do {");
  rock__genLine(g, "^bb0(%%v%d: %s, %%v%d: %s, %%v%d: i32):", b[0], ct, b[1],
                ct, b[2]);
  g->depth++;
  roundIds(g, c, b[0], b[1], n32);
  int next[3];
  next[2] = tileRole(g, c, castTo(g, b[2], "i32", "index"), producer);
  advance(g, c, b[0], b[1], n32, next);
  const char *tys[3] = {ct, ct, "i32"};
  rock__genYieldTypedEnd(g, producer ? 3 : 2, next, tys);
  if (!producer)
    return;
  roundIds(g, c, r[0], r[1], n32);
  rock__wgRoundEnd(g, c);
  rock__genLine(g, "scf.if %%v%d {",
                rock__genBin(g, "arith.cmpi eq,", c->cpTx, rock__genIndex(g, 0),
                             "index"));
  g->depth++;
  rock__wgDynDone(g, c, c->gridWg);
  g->depth--;
  rock__genLine(g, "}");
}

static void tileLoop(RockGen *g, WgCtx *c, int bx, bool producer) {
  if (c->dyn) {
    dynLoop(g, c, bx, producer);
    return;
  }
  /* (three consumer warpgroups: the tile index and both counters as i32;
   * as index (64-bit) they left the roles' 160 / 32 registers 8 and 4
   * bytes short, ptxas -v, bf16 d 64 B 2 H 16 S 4k) */
  bool n32 = c->nwg > 2;
  const char *ct = n32 ? "i32" : "index";
  char lit[24];
  snprintf(lit, sizeof lit, "%lld", (long long)c->a->grid);
  int hi = rock__genConst(g, lit, ct);
  snprintf(lit, sizeof lit, "%lld", (long long)launchGrid(c));
  int st = rock__genConst(g, lit, ct), c0 = rock__genConst(g, "0", ct);
  int lo = n32 ? castTo(g, bx, "index", "i32") : bx;
  int r0 = rock__genFresh(g), r1 = rock__genFresh(g), t = rock__genFresh(g);
  int a0 = rock__genFresh(g), a1 = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d, %%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
                "iter_args(%%v%d = %%v%d, %%v%d = %%v%d) -> (%s, %s)%s {",
                r0, r1, t, lo, hi, st, a0, c0, a1, c0, ct, ct,
                n32 ? " : i32" : "");
  g->depth++;
  roundIds(g, c, a0, a1, n32);
  (void)tileRole(g, c, n32 ? castTo(g, t, "i32", "index") : t, producer);
  int next[2];
  advance(g, c, a0, a1, n32, next);
  const char *tys[2] = {ct, ct};
  rock__genYieldTypedEnd(g, 2, next, tys);
}

static bool generate(RockGen *g, RockAttn *a, const void *ctx) {
  WgCtx c = *(const WgCtx *)ctx;
  c.a = a;
  c.uBase = c.qRound = c.qBuf = -1;
  if (c.tma && !rock__wgTmaMaps(g, &c))
    return false;
  c.gridWg = launchGrid(&c);
  if (c.dyn)
    rock__wgDynAlloc(g, &c);
  c.kView = a->k;
  snprintf(c.kViewTy, sizeof c.kViewTy, "%s", a->mk);
  if (c.k.mn)
    c.kView = rock__attnKeyMajorK(g, a, c.kViewTy, sizeof c.kViewTy);
  int bx;
  launch(g, &c, &bx);
  if (c.ws)
    rock__wgInitBarriers(g, &c);
  if (!c.persist) {
    blockRange(g, &c);
    rock__wgRows(g, &c);
  }
  if (c.ws) {
    /* The producer warpgroup (the last), then the consumers. */
    rock__genLine(g, "scf.if %%v%d {",
                  rock__genBin(g, "arith.cmpi eq,", c.wgi,
                               rock__genIndex(g, c.nwg), "index"));
    g->depth++;
    rock__wgRegisters(g, &c, true);
    if (c.persist)
      tileLoop(g, &c, bx, true);
    else
      rock__wgProducer(g, &c);
    g->depth--;
    rock__genLine(g, "} else {");
    g->depth++;
    rock__wgRegisters(g, &c, false);
  }
  if (c.persist)
    tileLoop(g, &c, bx, false);
  else
    tileBody(g, &c);
  if (c.ws) {
    g->depth--;
    rock__genLine(g, "}");
  }
  rock__genLine(g, "gpu.terminator");
  g->depth--;
  rock__genLine(g, "}");
  if (c.tma)
    rock__wgTmaFree(g, &c);
  if (c.dyn)
    rock__wgDynFree(g, &c);
  return true;
}

/* The switches of `op`; false after a bad value was reported. */
static bool readSwitches(MlirOperation op, MlirExternalPass pass,
                         WgSwitches *sw) {
  /* (rock.gpu_accel = false keeps every tensor-core schedule off) */
  int acc = rock__gpuSwitch(op, pass, "rock.gpu_accel", 1, 0, 1);
  int on = rock__gpuSwitch(op, pass, "rock.gpu_wgmma", 1, 0, 1);
  int ov = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_overlap", 1, 0, 1);
  int pr = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_producer", 1, 0, 1);
  int pp =
      rock__gpuSwitch(op, pass, "rock.gpu_wgmma_pingpong", WG_BY_RULE, 0, 1);
  int sz = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_swizzle128", 1, 0, 1);
  int tm = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_tma", 1, 0, 1);
  int tp = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_tma_paged", 1, 0, 1);
  int tl = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_tma_paged_lanes", 0, 0, 2);
  int wd = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_wide", 1, 0, 1);
  static const int keys[] = {0, 64, 128, 192, 256};
  int ks = rock__gpuSwitchIn(op, pass, "rock.gpu_wgmma_keys", 0, keys, 5);
  int cw = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_consumers", 0, 0,
                           WG_MAX_CONSUMERS);
  int ps =
      rock__gpuSwitch(op, pass, "rock.gpu_wgmma_persistent", WG_BY_RULE, 0, 1);
  int qb = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_q_buffers", 1, 1, 2);
  int dy =
      rock__gpuSwitch(op, pass, "rock.gpu_wgmma_dynamic", WG_BY_RULE, 0, 1);
  int ns = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_stages", WG_STAGES,
                           WG_STAGES, WG_MAX_STAGES);
  int lz = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_lazy_rescale", 0, 0, 1);
  int ef = rock__gpuSwitch(op, pass, "rock.gpu_wgmma_exp2_fma", 0, 0, 16);
  if (acc < 0 || on < 0 || ov < 0 || pr < 0 || pp < 0 || sz < 0 || tm < 0 ||
      tp < 0 || tl < 0 || wd < 0 || ks < 0 || cw < 0 || ps < 0 || qb < 0 ||
      dy < 0 || ns < 0 || lz < 0 || ef < 0)
    return false;
  *sw = (WgSwitches){acc == 1 && on == 1,
                     ov == 1,
                     pr == 1,
                     pp,
                     sz == 1,
                     tm == 1,
                     tp == 1,
                     tl,
                     wd == 1,
                     ks,
                     cw,
                     ps,
                     qb,
                     dy,
                     ns,
                     lz == 1,
                     ef};
  return true;
}

int rock__gpuAttnWgmma(MlirOperation op, MlirExternalPass pass, RockAttn *a) {
  WgSwitches sw;
  if (!readSwitches(op, pass, &sw))
    return 0;
  WgCtx c;
  if (!applies(op, a, &sw, &c))
    return -1;
  /* One workgroup per SM at most: split the keys when the grid is small. */
  int64_t P = rock__attnInternalSplit(a, c.numCu, 2);
  return rock__attnLower(op, pass, a, P, true, generate, &c) ? 1 : 0;
}

/* Appends to the NUL-terminated plan line in buf[len] (cut at len). */
__attribute__((format(printf, 3, 4))) static void
planAppend(char *buf, size_t len, const char *fmt, ...) {
  size_t n = strlen(buf);
  if (n + 1 >= len)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, len - n, fmt, ap);
  va_end(ap);
}

bool rock__gpuAttnWgmmaPlan(MlirOperation op, const RockAttn *a, char *buf,
                            size_t len) {
  MlirExternalPass quiet = {NULL};
  WgSwitches sw;
  WgCtx c;
  RockAttn b = *a;
  if (!readSwitches(op, quiet, &sw) || !applies(op, &b, &sw, &c))
    return false;
  snprintf(buf, len,
           "wgmma warpgroups %d rows %d keys %d producer %d overlap %d "
           "pingpong %d swizzle128 %d tma %d paged_tma %d split %lld",
           c.nwg, c.nb, c.mb, c.ws, sw.overlap, c.pingpong, sw.swizzle, c.tma,
           c.paged, (long long)rock__attnInternalSplit(&b, c.numCu, 2));
  /* (where it is on, or asked by the switch: the plans of the one-tile
   * kernel by rule stay as they were) */
  if (sw.persist == 1 || c.persist)
    planAppend(buf, len, " persistent %d%s%s%s", c.persist,
               c.persist ? "" : " (", c.persist ? "" : c.persistWhy,
               c.persist ? "" : ")");
  if (sw.qBufs > 1)
    planAppend(buf, len, " q_buffers %d", c.qBufs);
  if (c.dyn || sw.dyn == 1)
    planAppend(buf, len, " dynamic %d%s%s%s", c.dyn, c.dyn ? "" : " (",
               c.dyn ? "" : c.dynWhy, c.dyn ? "" : ")");
  /* (where taken: two stages, by default or where more do not fit, leave
   * the plan as it was, so that the tuning space's candidate drops out) */
  if (c.stages != WG_STAGES)
    planAppend(buf, len, " stages %d", c.stages);
  if (c.lazy)
    planAppend(buf, len, " lazy_rescale 1");
  if (c.exp2Fma)
    planAppend(buf, len, " exp2_fma %d", c.exp2Fma);
  return true;
}
