/*===- page_runs.h - staging paged K / V by page runs -------------*- C -*-===*
 *
 * The tensor-core schedule's paged staging with rock.gpu_accel_page_ahead
 * (passes/gpu/page_runs.c, docs/gpu.md "Decode"): a 16-byte copy of a paged
 * view normally loads its own page pointer (rock-lower-views), so each
 * cp.async waits for a dependent global load. When the view's transform
 * chain is proven to lay every key row out linearly in the pages (below),
 * the copies a thread issues for one key tile fall into a few page runs
 * known at compile time; each run's page pointer is loaded once, a tile
 * ahead, and its copies address pointer + a per-thread offset.
 *
 * Everything is borrowed; nothing here owns IR.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_GPU_PAGE_RUNS_H
#define ROCK_PASSES_GPU_PAGE_RUNS_H

#include "attention/attention.h"

enum { ROCK_PAGE_MAX_RUNS = 8, ROCK_PAGE_MAX_MAPS = 64 };

/* A paged view [Bkv, Sk, D] whose element (b, j, d) lies at element
 * F = R(b) + rowStride·j + d of its page list, page F / pageElems, offset
 * F % pageElems, with every R(b) a multiple of pageElems. */
typedef struct RockPageView {
  MlirValue table;                        /* the rock.deref's pointers */
  MlirOperation maps[ROCK_PAGE_MAX_MAPS]; /* rock.transform ops, the
                                             deref's side first */
  int nMaps;
  int64_t pageElems, rowStride;
} RockPageView;

/* Whether `view` (a gridwise K / V operand) is such a view; fills *pv.
 * False for anything the proof does not cover (a Pad, a page digit not cut
 * by one Merge, a non-linear key or d, rows that straddle a page boundary
 * at a batch start): the caller keeps the per-copy staging. */
bool rock__gpuPageView(MlirValue view, RockPageView *pv);

/* The page runs of one thread's copies of an `mb`-key tile staged as
 * `nch` 16-byte chunks of `vec` elements a row by `nThreads` threads
 * (chunk i = tx + c·nThreads: row i / nch, column (i % nch)·vec): copies
 * first[q] .. first[q] + count[q] - 1 lie in page q of the tile (for every
 * tx), and tile row key[q] starts in it. */
typedef struct RockPagePlan {
  int nRuns, first[ROCK_PAGE_MAX_RUNS], count[ROCK_PAGE_MAX_RUNS];
  int64_t key[ROCK_PAGE_MAX_RUNS];
} RockPagePlan;

/* Whether the tile's copies form page runs for `pv`; fills *pl. Needs
 * tiles that start on a page boundary (rowStride·mb a multiple of
 * pageElems) and chunks that never straddle pages. */
bool rock__gpuPagePlan(const RockPageView *pv, int nThreads, int nch, int vec,
                       int mb, RockPagePlan *pl);

/* The view of the page pointers: the chain of `pv` re-rooted at its page
 * table (%v<table>), element (b, j, d) = the pointer of the page holding
 * that element; writes its type into mt (size n), returns its id. */
int rock__gpuPagePtrView(RockGen *g, const RockPageView *pv, int table,
                         char *mt, size_t n);

/* The i64 page pointers of the runs of the tile from key j0 of group gBlk
 * (ptrs[q], q < pl->nRuns), from the pointer view `pview` (`mt`). */
void rock__gpuPagePtrs(RockGen *g, const RockPagePlan *pl, int pview,
                       const char *mt, int gBlk, int j0, int *ptrs);

/* The tile's copies into `sm` (`smt`, [mb][nch·vec], 16-byte chunks
 * swizzled with `swz`) from the run pointers `ptrs`: llvm.load of
 * vector<vec x elt> at pointer + offset, stored with rock.async_copy
 * (cp.async after rock-gpu-async-copy). */
void rock__gpuPageStage(RockGen *g, const RockPageView *pv,
                        const RockPagePlan *pl, const int *ptrs, int tx,
                        int nThreads, int nch, int vec, MlirType elt, int sm,
                        const char *smt, bool swz);

#endif
