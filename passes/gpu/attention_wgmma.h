/*===- attention_wgmma.h - the sm_90a prefill schedule's stages -*- C -*-===*
 *
 * rock.gridwise_attention on Hopper's warpgroup MMA (docs/gpu-accel.md,
 * "The sm_90a prefill schedule"): attention_wgmma.c decides whether it
 * applies and drives the kernel, attention_wgmma_stage.c copies Q, K and V
 * into the wgmma operand layouts, attention_wgmma_tile.c runs one key tile
 * (both products, the scores, masks and online softmax of passes/attention/)
 * and the finalisation. All three share one WgCtx: the plan (filled by
 * applies) and the SSA ids of the kernel (filled while emitting).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_GPU_ATTENTION_WGMMA_H
#define ROCK_PASSES_GPU_ATTENTION_WGMMA_H

#include "gpu/accel.h"
#include "gpu/page_runs.h"
#include "gpu/tma_view.h"

enum {
  WG_ROWS = 64,         /* merged query rows per consumer warpgroup */
  WG_LANES = 128,       /* threads per warpgroup */
  WG_MAX_WG = 2,        /* consumer warpgroups per workgroup (the rule) */
  WG_MAX_CONSUMERS = 3, /* ... with rock.gpu_wgmma_consumers, or by rule
                           at head dims up to 64 */
  WG_BY_RULE = 2,       /* a tri-state switch not given: the rule decides */
  WG_STAGES = 2,        /* K / V buffers by default (WgCtx.stages) */
  WG_MAX_STAGES = 4,    /* ... with rock.gpu_wgmma_stages (the producer form) */
  WG_MAX_ACC = 128,     /* f32 accumulator elements per lane (m64 n256) */
  WG_MAX_BOXES = 16,    /* (paged tma) copies a tile along the keys: mb / 8 */
};

/* The operand layout of a staged tile. K-major tiles have n lines (rows)
 * of contiguous k; MN-major ones k lines of contiguous n.
 * No swizzle: core matrices of 8 lines x 16 bytes, 128 contiguous bytes
 * each; per k16 slab of an Nn x K tile, 8-line groups along n 256 bytes
 * apart (SBO), the two k halves 128 bytes apart (LBO), slabs 32·Nn bytes
 * apart.
 * 128-byte swizzle (sw; rock.gpu_wgmma_swizzle128): the contiguous
 * dimension cut into blocks of 64 elements; a block holds every line as
 * 128 bytes, line after line, 16-byte chunk c of line L at chunk c ^ (L %
 * 8), blocks one after another (K-major: k blocks of Nn lines; MN-major: n
 * blocks of K lines), 1024-byte aligned. K-major: SBO 1024 (8 lines), a
 * k16 step 32 bytes further inside a block; MN-major: LBO the block size
 * (the next 64 n), SBO 1024 (the next 8 k), a k16 step 2048 bytes. */
typedef struct WgTile {
  int nn;       /* extent along the product's n (or m) */
  int kk;       /* extent along the product's k */
  bool mn;      /* MN-major: 16-byte chunks along n */
  int64_t off;  /* byte offset in the workgroup buffer (stage 0) */
  char mt[64];  /* the memref type of its stores: [chunks][8] */
  bool sw;      /* 128-byte swizzle */
  int64_t step; /* bytes from one stage (K, V) or Q buffer to the next */
} WgTile;

typedef struct WgCtx {
  /* the plan */
  RockAttn *a;
  RockAccel acS; /* Q·Kᵀ: m64 n mb k16 */
  RockAccel acO; /* P·V: m64 n Dv k16, A (P) from registers */
  char elt[8];
  int nwg, nb, mb, nThreads;
  int regsC, regsP; /* (ws) setmaxnreg of the consumers, the producer */
  bool overlap;     /* softmax of tile t overlaps P·V of tile t - 1 */
  bool lazy;     /* rock.gpu_wgmma_lazy_rescale: the maximum moves by more than
                    8 ln 2 only; O is rescaled where a warp's row moved */
  int exp2Fma;   /* rock.gpu_wgmma_exp2_fma: one score in exp2Fma takes its
                    exp2 on the FMA pipe (0: none; 16-bit P only) */
  bool ws;       /* warp-specialised: a producer warpgroup copies, mbarriers */
  bool pingpong; /* (ws) the consumers take turns issuing their products */
  bool sw128;    /* the tiles are 128-byte swizzled (WgTile.sw) */
  bool tma;      /* (ws, sw128) K and V by cp.async.bulk.tensor (TMA) */
  RockTmaView tk, tv;    /* (tma) the K and V operands as tensors (paged: their
                            page pools, RockTmaView.pool) */
  bool paged;            /* (tma) K and V through page tables: one copy per
                            page (box) and 64-element block */
  int pagedLanes;        /* (paged) rock.gpu_wgmma_tma_paged_lanes: 1, the
                            page addresses by the producer's first warp,
                            one a lane; 2, loaded a tile ahead too */
  RockPageView pgK, pgV; /* (paged) the page views of K and V */
  int64_t boxRows;       /* (paged) key rows a copy: min(tokens a page, mb) */
  int64_t pageRows;      /* (paged) tokens a page */
  int xK, xV;            /* (paged) the page tables' RockAttn.extra slots */
  int64_t barOff;        /* byte offset of the mbarriers (ws) */
  /* K / V buffers: WG_STAGES, or (ws) rock.gpu_wgmma_stages where it fits;
   * key tile u (the running index) in stage u % stages for the
   * (u / stages)-th time */
  int stages;
  WgTile q, k, v;
  int64_t stageBytes, bytes, numCu;
  /* rock.gpu_wgmma_persistent: a grid of at most numCu workgroups, each
   * looping over tiles (persist), or the reason it was refused */
  bool persist;
  const char *persistWhy;
  int qBufs; /* (persist) Q buffers: 2 with rock.gpu_wgmma_q_buffers = 2
                (Q of round q in buffer q % 2), else 1 */
  /* (persist) rock.gpu_wgmma_dynamic: the tiles after each workgroup's
   * first taken from a global counter (attention_wgmma_dyn.c), or why not */
  bool dyn;
  const char *dynWhy;
  int64_t slotOff; /* (dyn) byte offset of the two i32 tile slots */
  int64_t gridWg;  /* workgroups launched (emitting) */
  /* kernel ids */
  int tx, wgi, lane, buf, kView;
  int pad;    /* (sw128) bytes to the first 1024-byte boundary of buf, or -1 */
  int addr16; /* (sw128) that boundary's descriptor address field (i64) */
  int cpTx, cpN;    /* the copying threads: index (id) and count */
  int kMap, vMap;   /* (tma) the tensor maps' host allocations (memref ids) */
  int kPtrs, vPtrs; /* (paged) views of the page pointers (ids) */
  char kPtrTy[512], vPtrTy[512];
  int kBase, vBase; /* (paged) the pools' device addresses (i64 ids) */
  int qDesc;        /* descriptor of the warpgroup's 64 rows of Q, k 0..15 */
  char kViewTy[160];
  char mBuf[96];
  RockAttnWg wg;
  int cR, lastRow;
  int minLast, maxLow; /* keys every row of the block sees (dynamic) */
  int start, end;      /* this split's key tiles */
  int uBase, qRound;   /* (persist) key tiles and Q loads of the workgroup's
                          earlier tiles (index ids; -1 without persist) */
  int qBuf;            /* (qBufs 2) this tile's Q buffer, qRound % 2 (index
                          id; -1: buffer 0) */
  int dynCnt;          /* (dyn) the counters (memref<2xi32> id): [0] tiles
                          handed out after the first grid, [1] workgroups
                          done */
  int row[2];          /* this lane's two rows in the block */
  RockRowIdx x[2];
  int last[2], low[2];
  int col2t;    /* 2·(lane % 4): the lane's first column in each n8 block */
  int moved[2]; /* (lazy) whether each row's maximum moved this tile (i1) */
} WgCtx;

/* attention_wgmma_stage.c: the copies of one tile into workgroup memory, as
 * 16-byte stores marked rock.async_copy (cp.async, through paged views
 * too). Q [nb][Dqk] once; K or V of the tile at key j0 into stage `st`
 * (an index id: 0 .. c->stages - 1). The caller commits the group. */
void rock__wgStageQ(RockGen *g, WgCtx *c);
void rock__wgStageK(RockGen *g, WgCtx *c, int j0, int st);
void rock__wgStageV(RockGen *g, WgCtx *c, int j0, int st);
/* (tma) The same tiles by TMA: one thread's cp.async.bulk.tensor copies of
 * K or V at key j0 into stage `st`, completing on mbarrier `bar` (a
 * !llvm.ptr<3> id); the byte count they complete (for expect_tx). */
void rock__wgTmaK(RockGen *g, WgCtx *c, int j0, int st, int bar);
void rock__wgTmaV(RockGen *g, WgCtx *c, int j0, int st, int bar);
int64_t rock__wgTmaBytes(const WgCtx *c, bool v);
/* (tma) Whether paged K and V take TMA (the rule, attention_wgmma_tma.c):
 * fills c->paged, pgK / pgV, tk / tv (the pools), boxRows, pageRows. */
bool rock__wgTmaPagedPlan(MlirOperation op, WgCtx *c);
/* (paged) The copying thread's setup: the page pointer views and the pools'
 * addresses (read from the map buffers); once, before the key loop. */
void rock__wgTmaPagedSetup(RockGen *g, WgCtx *c);
/* (paged) The pool rows (i32 ids, mb / boxRows of them) of K's or V's (v)
 * tile at key j0: its page addresses loaded from the table, made rows, and
 * whether any is no page of the pool or-ed into *bad (an i1 id; -1: none
 * yet); Trap: a trap if `bad` (one branch after all the loads, so that they
 * issue back to back); Copy: the copies of that tile into stage `st`
 * completing on `bar`. */
void rock__wgTmaPagedRows(RockGen *g, WgCtx *c, bool v, int j0, int *rows,
                          int *bad);
void rock__wgTmaPagedTrap(RockGen *g, int bad);
/* (paged, c->pagedLanes) The address path spread over the producer's first
 * warp: lane L loads, checks and converts the page address of box L % n of
 * K (L / n even) or of V (odd), n = mb / boxRows boxes a tile. LaneAddr:
 * this lane's page address (i64) for the tile at j0; Lane: its row (i32),
 * from `ptr` (-1: loaded here), the check or-ed into *bad; Shuffle: lane
 * `src`'s row (gpu.shuffle idx; every lane of the warp). */
int rock__wgTmaPagedLaneAddr(RockGen *g, WgCtx *c, int j0);
int rock__wgTmaPagedLane(RockGen *g, WgCtx *c, int j0, int ptr, int *bad);
int rock__wgTmaPagedShuffle(RockGen *g, int row, int src);
void rock__wgTmaPagedCopy(RockGen *g, WgCtx *c, bool v, const int *rows, int st,
                          int bar);
/* (tma) prefetch.tensormap of both maps (the copying thread, once). */
void rock__wgTmaPrefetch(RockGen *g, const WgCtx *c);
/* (tma) The host allocations holding the two tensor maps (memref<128xi8>,
 * marked rock.tensor_map with their description; before the launch) and
 * their deallocation (after it). False when a map breaks a TMA rule. */
bool rock__wgTmaMaps(RockGen *g, WgCtx *c);
void rock__wgTmaFree(RockGen *g, const WgCtx *c);
/* The view of tile `t` (c->q / k / v) in stage `st` (an index id: K / V's
 * stage or Q's buffer; -1: the first) as the 2-D memref t->mt the stores
 * use ([chunks][8]). */
int rock__wgTileView(RockGen *g, WgCtx *c, const WgTile *t, int st);
/* The wgmma descriptor of tile `t` in stage `st` (as rock__wgTileView; its
 * layout's LBO, SBO and swizzle mode); Slab: the bytes from the tile's
 * start to its k16 step s; Lines: to its line n0 (a multiple of 8) along n
 * (K-major). */
int rock__wgTileDesc(RockGen *g, WgCtx *c, const WgTile *t, int st);
int64_t rock__wgSlab(const WgTile *t, int s);
int64_t rock__wgLines(const WgTile *t, int n0);

/* attention_wgmma_ws.c: the warp-specialised form. A producer warpgroup
 * (the last) copies Q, K and V with cp.async, each stage's completion
 * tracked by an mbarrier (cp.async.mbarrier.arrive.noinc), or (tma) Q so
 * and K and V by one thread's TMA copies (mbarrier expect_tx); the consumer
 * warpgroups wait on it and release the stage on a second mbarrier after
 * the products that read it. InitBarriers: their initialisation (before
 * the one workgroup barrier); Producer / Consumer: the two roles, with
 * setmaxnreg moving registers to the consumers; Consumer yields O, m, l
 * like the pipeline of attention_wgmma.c. */
void rock__wgInitBarriers(RockGen *g, WgCtx *c);
/* setmaxnreg of one role (the first op of its branch; c->regsC / regsP). */
void rock__wgRegisters(RockGen *g, const WgCtx *c, bool producer);
void rock__wgProducer(RockGen *g, WgCtx *c);
void rock__wgConsumer(RockGen *g, WgCtx *c);

/* (dyn) Tile rounds: round q of a workgroup (q from 0, every tile it
 * takes, empty ones too, and a last round for the end) passes its tile
 * index from the producer's copying thread to both roles through slot q % 2
 * of workgroup memory (c->slotOff). RoundOpen: the producer waits for the
 * Q buffer of round q to be free (EMPTY_Q), its copying thread stores `f`
 * (an i32 id: the fetched tile) into the slot and arrives on FULL_Q (the
 * release of that store), a named barrier of the producer warpgroup, then
 * every producer thread loads the slot; the consumers wait for FULL_Q of
 * round q (the acquire) and load it. Returns the tile (i32 id). c->qRound
 * and c->qBuf are round q's. RoundEnd: the producer's 128 arrivals on
 * FULL_Q of round q (after its Q copies; alone for an empty tile or the
 * last round). Empty: the consumers' EMPTY_Q arrival of an empty tile. */
int rock__wgRoundOpen(RockGen *g, WgCtx *c, bool producer, int f);
void rock__wgRoundEnd(RockGen *g, WgCtx *c);
void rock__wgRoundEmpty(RockGen *g, WgCtx *c);
/* (dyn) The producer's copying thread's key-tile loop of the tile
 * (attention_wgmma_ws.c), returning the next tile it fetched (i32 id;
 * rock__wgDynFetch at the tile's last key tile, or at once when it has
 * none); c0 for the producer's other threads. */
int rock__wgProducerDyn(RockGen *g, WgCtx *c);

/* attention_wgmma_dyn.c (dyn): the counters, a zero_init scratch of two
 * i32 (before the launch; Free after it); Fetch: the next tile, launch grid
 * + atomicAdd(counter, 1) (relaxed; i32 id); Done: the copying thread's
 * count of its workgroup done, after its last fetch, and in the last
 * workgroup the counters put back to zero. */
void rock__wgDynAlloc(RockGen *g, WgCtx *c);
void rock__wgDynFree(RockGen *g, const WgCtx *c);
int rock__wgDynFetch(RockGen *g, const WgCtx *c, int64_t grid);
void rock__wgDynDone(RockGen *g, const WgCtx *c, int64_t grid);

/* attention_wgmma_tile.c */
/* This lane's rows and key limits (c->row, x, last, low, col2t). */
void rock__wgRows(RockGen *g, WgCtx *c);
/* The descriptors of one batch of products (computed before the
 * wgmma.fence that opens the batch, so that no instruction between the
 * products defines their inputs). */
typedef struct WgDescs {
  int n;            /* products */
  int a[16], b[16]; /* A (Q·Kᵀ only) and B descriptors */
} WgDescs;
/* S = Q·Kᵀ of the warpgroup for the K tile in stage `st`: Descs computes
 * the descriptors, Scores issues the products (one committed group, not
 * waited for) and returns the accumulator struct. */
void rock__wgScoresDescs(RockGen *g, WgCtx *c, int st, WgDescs *d);
int rock__wgScores(RockGen *g, WgCtx *c, const WgDescs *d);
/* From the waited scores `sv` (vector) of the tile at key j0: the region,
 * masks, scaling and online softmax; mOld / lOld: 2 per lane; sets mNew /
 * lNew, the rescale factors cr (2) and the P fragments pa (4 i32 per k16
 * step, mb / 16 steps). */
void rock__wgSoftmax(RockGen *g, WgCtx *c, int sv, int j0, const int *mOld,
                     const int *lOld, int *mNew, int *lNew, int *cr, int *pa);
/* O (vector) scaled per row by cr. */
int rock__wgRescale(RockGen *g, WgCtx *c, int o, const int *cr);
/* O += P·V for the V tile in stage `st`, likewise: o is the accumulator
 * struct, pa the P registers; returns the new one. */
void rock__wgPVDescs(RockGen *g, WgCtx *c, int st, WgDescs *d);
int rock__wgPV(RockGen *g, WgCtx *c, const WgDescs *d, const int *pa, int o);
/* The row sums, O / l, the LSE and the stores of this lane's rows. */
void rock__wgFinish(RockGen *g, WgCtx *c, int o, const int *m, const int *l);

#endif
