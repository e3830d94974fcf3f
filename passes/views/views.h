/*===- views.h - internals of rock-lower-views ---------------------*- C -*-===*
 *
 * The pieces of rock-lower-views (passes/lower_views.c, which describes the
 * lowering) shared by its files: symbolic index values and the MLIR text
 * emitter with the transform maps (index_emit.c), view chains and index
 * analysis (chain.c), and the code for one access (access.c). Internal
 * (rock__lv names); everything is borrowed unless a comment says otherwise.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_VIEWS_VIEWS_H
#define ROCK_PASSES_VIEWS_VIEWS_H

#include "internal.h"
#include "mlir-c/AffineMap.h"
#include "rock-c/Dialect.h"

#include <stdbool.h>
#include <stdint.h>

enum { MAX_CHAIN = 64, MAX_RANK = 32, MAX_CONDS = 256, NAME_LEN = 32 };

/* An index value of the generated code. For vector accesses the value of
 * lane t is `base + k*t`, where `base` is the SSA value `name` or the
 * constant `cst`. `align` is a known divisor of base (0 when base is 0). */
typedef struct Val {
  bool isCst;
  int64_t cst;
  char name[NAME_LEN];
  int64_t k;
  int64_t align;
} Val;

/* The text of one generated function and what the emitter knows. */
typedef struct Emit {
  RockStr pro;   /* constants, at the top of the generated function */
  RockStr body;  /* everything else, in order */
  int next;      /* SSA name counter */
  int64_t width; /* lanes tracked symbolically: N when wide, else 1 */
  int64_t *csts; /* index constants already in `pro` */
  int nCsts, capCsts;
  bool haveFalse;
  bool needPad, needPadV;          /* the pad value (scalar / vector) is used */
  char conds[MAX_CONDS][NAME_LEN]; /* validity conditions (i1) */
  int nConds;
  bool failed; /* a wide lowering could not be proven */
} Emit;

/* The resolved view of one access. Maps are listed upper to lower. */
typedef struct Chain {
  MlirAttribute maps[MAX_CHAIN];
  int nMaps;
  MlirValue base; /* ranked memref at the bottom (the page table if paged) */
  bool paged;
  MlirType pageType; /* the rock.deref result type */
  MlirAttribute ptrMaps[MAX_CHAIN];
  int nPtrMaps;
} Chain;

/* One rock.view_load / rock.view_store / rock.view_prefetch to lower. */
typedef struct Access {
  MlirOperation op;
  bool isStore;
  bool isPrefetch; /* rock.view_prefetch: no value, no result */
  int locality;    /* of a prefetch */
  int64_t step;    /* of a prefetch: lanes per 64-byte line (n / step lines) */
  Chain ch;
  intptr_t nIdx;
  Val idx[MAX_RANK]; /* the incoming coordinates, analysed */
  MlirType elt;      /* view element type */
  MlirType valType;  /* loaded / stored type: elt or vector<N x elt> */
  int64_t n;         /* lanes: N for a vector, else 1 */
  int64_t align;     /* rock.align: byte alignment the producer asserts, 0 */
  double pad;
} Access;

/* gcd(|a|, |b|). */
int64_t rock__lvGcd(int64_t a, int64_t b);

/* The constant index `c`. */
Val rock__lvCst(int64_t c);

/* Frees the buffers of `e` (not `e` itself). */
void rock__lvEmitFree(Emit *e);

/* Writes a fresh SSA name %<prefix><n> into `out` (NAME_LEN bytes). */
void rock__lvFreshName(Emit *e, char *out, const char *prefix);

/* Writes the SSA name of `v` into its `name`, emitting an index constant in
 * the prologue the first time a constant is used. Returns the name. */
const char *rock__lvUse(Emit *e, Val *v);

/* a + c, emitting index arithmetic when `a` is not constant. */
Val rock__lvAddC(Emit *e, Val a, int64_t c);

/* True when the lanes base + k*t, t < width, of `u` provably stay inside one
 * block [m*blk, (m+1)*blk): with base a multiple of g = gcd(align, blk), it
 * suffices that (width-1)*k < g. */
bool rock__lvStaysInBlock(const Emit *e, const Val *u, int64_t blk);

/* Length of a DenseI64ArrayAttr. */
intptr_t rock__lvArrLen(MlirAttribute a);

/* Pushes upper coordinates `up` through `map` into `low` (size = the map's
 * lower rank), adding Pad conditions to `e`. Returns false, with e->failed
 * set, when a wide lowering cannot be proven for this map. */
bool rock__lvApplyMap(Emit *e, MlirAttribute map, const Val *up, Val *low);

/* Resolves the view chain of `src` (the view an access of `user` reads)
 * into `ch`: its maps, the memref or page table at the bottom and, when
 * paged, the page-table chain. Emits an error and signals `pass` failure
 * otherwise. */
bool rock__lvResolveChain(MlirExternalPass pass, MlirOperation user,
                          MlirValue src, Chain *ch);

/* Returns what is known about index value `v`: a constant, or a divisor of
 * it (from constants, addi/subi/muli, and scf.for / scf.parallel induction
 * variables with aligned bounds and steps). */
Val rock__lvAnalyzeIndex(MlirValue v, int depth);

/* Builds the function text for `a`: wide when `wide`, else lane by lane.
 * Returns false when a wide lowering cannot be proven. */
bool rock__lvBuildText(const Access *a, bool wide, RockStr *out);

#endif
