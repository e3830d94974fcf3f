/*===- attention_accel.h - the tensor-core attention schedule -----*- C -*-===*
 *
 * rock.gridwise_attention on the tile-product emitters of accel.h
 * (docs/gpu-accel.md): attention_accel.c decides whether the schedule
 * applies and plans it (AccSched), attention_accel_kernel.c emits the
 * kernel as a short driver over its stages, attention_accel_stage.c holds
 * the cooperative copies of K and V (the two-buffer staging, the overlap,
 * K^T pairs, the ring, page runs, the L2 prefetch). The kernel's stages
 * share one AccGen: the plan, the attention, and the SSA ids and types of
 * the kernel (filled while emitting). Everything is borrowed; nothing here
 * owns IR.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_GPU_ATTENTION_ACCEL_H
#define ROCK_PASSES_GPU_ATTENTION_ACCEL_H

#include "gpu/accel.h"
#include "gpu/page_runs.h"

enum {
  VEC = 8,          /* 16-bit elements per 16-byte access */
  MAXKS = 16,       /* Dqk / k */
  MAXNT = 32,       /* Dv / n, MB / n */
  MAXR = 8,         /* distinct rows per lane */
  LINE = 128,       /* bytes of a cache line */
  UNROLL_ASYNC = 8, /* cp.async copies a thread issues unrolled at most */
  /* the key loop's state: m, l (per row), O tiles, page-run pointers of V
   * and K */
  NST = 2 * MAXR + MAXNT + 2 * ROCK_PAGE_MAX_RUNS
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
  /* rock.gpu_accel_key_warps (one warp's rows, not wgS / the ring / K^T
   * pairs / the L2 prefetch): kw warps on one partition, warp w taking its
   * tiles t = start + w (mod kw) into its own K / V slot (kStage / vStage
   * bytes apart) with its own (m, l, O), merged in workgroup memory after
   * the key loop (1: one warp; kwWhy: why a value asked for fell back) */
  int kw;
  const char *kwWhy;
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

/* Page-run staging (s->pgK / s->pgV): the views of the page pointers. */
typedef struct PageAhead {
  int pk, pv;            /* pointer views of K and V */
  char mk[512], mv[512]; /* their types */
} PageAhead;

/* The kernel being emitted: the plan and the SSA ids its stages share. */
typedef struct AccGen {
  RockGen *g;
  RockAttn *a;
  const AccSched *s;
  /* workgroup memory: Q, K (this tile's slot), V, P, the one buffer, and
   * their types; with K^T pairs sK0 / sK1 the two K slots */
  char mQ[128], mK[128], mV[128], mP[128], mB[96];
  int sQ, sK, sV, sP, sB, sK0, sK1;
  char vt[32], vtS[32]; /* the accumulator types of P·V and Q·Kᵀ */
  char mkt[128];        /* the key-major K view's type (s->kT) */
  int ktv;              /* that view (s->kT; else -1) */
  PageAhead ahead;
  int c1, ninf, zf, nThreads, bx, tx, lane, warp, row0, cR, lastRow;
  /* the K / V copies' thread and thread count (the key warp's lane and its
   * lanes with s->kw > 1, else tx and nThreads); the key warp (an index;
   * -1 with s->kw = 1) and the key loop's step (kw tiles) */
  int ktx, kThreads, kwarp, step;
  RockAttnWg wg;
  /* the block's key range and (dynamic) the keys every row sees */
  int eff, lowKey, minLast, maxLow, start, end;
  int qf[MAXKS]; /* Q's A fragments (not wgS) */
  /* this lane's rows: warp row, indices, key limits; the accumulator
   * columns */
  int wrow[MAXR], last[MAXR], low[MAXR], col[MAXR * 2];
  RockRowIdx x[MAXR];
  /* the key loop: its state (m, l, O tiles, page-run pointers of V at
   * pgV0 and of K at pgK0), the tile kt from key j0 */
  int init[NST], args[NST], res[NST], next[NST];
  const char *tys[NST];
  int nSt, pgV0, pgK0, kt, j0;
  int more; /* (with the overlap / the two-buffer staging) a next tile */
  /* one tile: scores (then probabilities) and keys of every element */
  int xs[MAXNT][8], jjs[MAXNT][8], sacc[MAXNT], mv;
  int cr[MAXR];                   /* the rows' rescale factors */
  int pr[MAXNT][8], pu[MAXNT][8]; /* P rounded to V's type / not */
} AccGen;

/* Row r and element column d of chunk i of a [rows][nch·vec] tile copied
 * by consecutive threads (row-major, or with `wgl` 8 rows at a time). */
void rock__tcRowChunk(RockGen *g, bool wgl, int i, int nch, int vec, int *r,
                      int *d);
/* Where chunk (r, d) of a [rows][pitch] tile goes (swizzled, or the wgmma
 * layout with `wgl`). */
void rock__tcChunkAt(RockGen *g, bool swz, bool wgl, int rows, int64_t pitch,
                     int r, int d, int *i0, int *i1);
/* The kernel of the planned schedule `ctx` (an AccSched) for
 * rock__attnLower: launch, stages, finalisation (attention_accel_kernel.c). */
bool rock__tcGenerate(RockGen *g, RockAttn *a, const void *ctx);

/* One 16-byte chunk (`ty`) of `view` at [ib]: its rock.view_load. */
int rock__tcLoadChunk(RockGen *g, int view, const char *ib, const char *mt,
                      const char *ty);
/* Chunk `v` (`ty`) stored at [i0, i1] of `sm` (rock.async_copy with
 * `async`). */
void rock__tcStoreChunk(RockGen *g, int v, int sm, const char *smt,
                        const char *ty, int i0, int i1, bool async);
/* Cooperative copy of the rows from key j0 of `view` into `sm`. */
void rock__tcStageKeys(AccGen *c, int view, const char *mt, MlirType elt,
                       int vec, int j0, int nch, int sm, const char *smt,
                       bool swz, bool wgl, bool async);
/* The K tile from key j0 into `sm`: rows of K, or K^T (s->kT). */
void rock__tcStageK(AccGen *c, int j0, int sm, const char *smt, bool async);
/* The K and V lines of key tile kp (when kp < c->end) into L2. */
void rock__tcPrefetchTile(AccGen *c, int kp);
/* The run pointers of V's (v) or K's tile kt into ptrs. */
void rock__tcPagePtrs(AccGen *c, bool v, int kt, int *ptrs);
/* V's (v) or K's tile into `sm` from the run pointers `ptrs`. */
void rock__tcPageStage(AccGen *c, bool v, const int *ptrs, int sm,
                       const char *smt);
/* V's tile kt into c->sV by cp.async (not committed). */
void rock__tcStageV(AccGen *c, int kt, const int *ptrs);
/* The first K tile (and with the overlap V's) in flight: the ring's first
 * st - 1 tiles, else K of tile c->start. */
void rock__tcKeyPrologue(AccGen *c);
/* K's next tile (kt + 1) staged when `more` into slot sK, committed. */
void rock__tcNextK(AccGen *c, int more, int sK);
/* K^T pairs: the view of K slot `slot` (an index value). */
int rock__tcKSlot(AccGen *c, int slot);
/* The slot of key tile kt in a ring of n: (kt - start) mod n. */
int rock__tcRingIndex(RockGen *g, int n, int kt, int start);
/* The ring at the top of tile c->kt: c->sK, c->sV become its slot. */
void rock__tcRingTop(AccGen *c);
/* Key tile kt + n·step (n tiles of this warp's sequence ahead). */
int rock__tcAhead(AccGen *c, int kt, int n);
/* The view (`ty`) of c->sB at off + slot·step bytes (slot an index). */
int rock__tcSlotView(AccGen *c, const char *ty, int64_t off, int64_t step,
                     int slot);
/* Key warps (s->kw > 1): the warps' (m, l, O) merged into warp 0's c->res;
 * opens the region of warp 0 (closed by the caller). */
void rock__tcMergeWarps(AccGen *c);

#endif
