/*===- lower_views.c - rock-lower-views -----------------------------------===*
 *
 * Resolves every rock.view_load / rock.view_store / rock.view_prefetch
 * through the rock.transform chain of its view down to a ranked memref
 * (memref.load / memref.store, vector.load / vector.store, memref.prefetch)
 * or to a rock.deref (a load of the i64 page pointer, llvm.inttoptr,
 * llvm.getelementptr, llvm.load / llvm.store / llvm.intr.prefetch), then
 * erases the rock.transform and rock.deref ops left without uses.
 *
 * The code for one access is printed as a func.func and inlined in front of
 * the view op with rock__inlineFuncText. Index math is arith on index; the
 * validity of a coordinate (the AND of every Pad condition along the chain)
 * guards the memory access with scf.if.
 *
 * A vector access (vector<N x elt>) covers upper coordinates (..., in + t),
 * t < N. It is first lowered "wide": every coordinate is tracked as
 * base + k*t together with a known divisor of its base, so that the index
 * math runs once per vector. Wide lowering succeeds when the lanes provably
 * stay inside one Merge / Broadcast digit, share one Pad validity and end up
 * contiguous in the innermost memref dimension (or inside one page of a
 * rock.deref). Otherwise the access is split into N scalar accesses, each
 * with its own index math and validity, joined by vector.from_elements.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "internal.h"
#include "mlir-c/AffineMap.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CHAIN = 64, MAX_RANK = 32, MAX_CONDS = 256, NAME_LEN = 32 };

/*===----------------------------------------------------------------------===
 * Symbolic index values
 *===----------------------------------------------------------------------===*/

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

static int64_t gcd64(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static Val cstVal(int64_t c) {
  Val v;
  memset(&v, 0, sizeof(v));
  v.isCst = true;
  v.cst = c;
  v.align = c < 0 ? -c : c;
  return v;
}

/*===----------------------------------------------------------------------===
 * The text emitter
 *===----------------------------------------------------------------------===*/

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

static void emitFree(Emit *e) {
  rock__strFree(&e->pro);
  rock__strFree(&e->body);
  free(e->csts);
}

static void freshName(Emit *e, char *out, const char *prefix) {
  snprintf(out, NAME_LEN, "%%%s%d", prefix, e->next++);
}

/* Writes the SSA name of `v` into its `name`, emitting an index constant in
 * the prologue the first time a constant is used. Returns the name. */
static const char *use(Emit *e, Val *v) {
  if (!v->isCst)
    return v->name;
  if (v->cst >= 0)
    snprintf(v->name, NAME_LEN, "%%c%lld", (long long)v->cst);
  else
    snprintf(v->name, NAME_LEN, "%%c_m%lld", -(long long)v->cst);
  for (int i = 0; i < e->nCsts; ++i)
    if (e->csts[i] == v->cst)
      return v->name;
  if (e->nCsts == e->capCsts) {
    e->capCsts = e->capCsts ? 2 * e->capCsts : 16;
    e->csts = realloc(e->csts, (size_t)e->capCsts * sizeof(int64_t));
    if (!e->csts)
      abort();
  }
  e->csts[e->nCsts++] = v->cst;
  rock__strAppendf(&e->pro, "  %s = arith.constant %lld : index\n", v->name,
                   (long long)v->cst);
  return v->name;
}

static Val binop(Emit *e, const char *opName, Val a, Val b) {
  Val r;
  memset(&r, 0, sizeof(r));
  freshName(e, r.name, "v");
  const char *an = use(e, &a);
  const char *bn = use(e, &b);
  rock__strAppendf(&e->body, "  %s = arith.%s %s, %s : index\n", r.name, opName,
                   an, bn);
  return r;
}

/* a + b, folding constants and zeros. */
static Val add(Emit *e, Val a, Val b) {
  if (a.isCst && b.isCst) {
    Val r = cstVal(a.cst + b.cst);
    r.k = a.k + b.k;
    return r;
  }
  if (a.isCst && a.cst == 0) {
    b.k += a.k;
    return b;
  }
  if (b.isCst && b.cst == 0) {
    a.k += b.k;
    return a;
  }
  Val r = binop(e, "addi", a, b);
  r.k = a.k + b.k;
  r.align = gcd64(a.align, b.align);
  return r;
}

static Val addC(Emit *e, Val a, int64_t c) { return add(e, a, cstVal(c)); }

/* a * c for a constant c. */
static Val mulC(Emit *e, Val a, int64_t c) {
  if (c == 0)
    return cstVal(0);
  if (c == 1)
    return a;
  if (a.isCst) {
    Val r = cstVal(a.cst * c);
    r.k = a.k * c;
    return r;
  }
  Val r = binop(e, "muli", a, cstVal(c));
  r.k = a.k * c;
  r.align = a.align * (c < 0 ? -c : c);
  return r;
}

/* base(a) / c (unsigned) for c > 0; the lane offset is dropped. */
static Val divC(Emit *e, Val a, int64_t c) {
  a.k = 0;
  if (c == 1)
    return a;
  if (a.isCst && a.cst >= 0)
    return cstVal(a.cst / c);
  Val r = binop(e, "divui", a, cstVal(c));
  r.align = (a.align % c == 0) ? a.align / c : 1;
  return r;
}

/* base(a) mod c (unsigned) for c > 0; the lane offset is dropped. */
static Val remC(Emit *e, Val a, int64_t c) {
  a.k = 0;
  if (c == 1)
    return cstVal(0);
  if (a.isCst && a.cst >= 0)
    return cstVal(a.cst % c);
  Val r = binop(e, "remui", a, cstVal(c));
  r.align = gcd64(a.align, c);
  return r;
}

/* True when the lanes base + k*t, t < width, of `u` provably stay inside one
 * block [m*blk, (m+1)*blk): with base a multiple of g = gcd(align, blk), it
 * suffices that (width-1)*k < g. */
static bool staysInBlock(const Emit *e, const Val *u, int64_t blk) {
  if (u->k == 0 || e->width == 1)
    return true;
  if (u->k < 0 || blk <= 0)
    return false;
  int64_t g = gcd64(u->align, blk);
  return (e->width - 1) * u->k < g;
}

static void pushCond(Emit *e, const char *name) {
  if (e->nConds < MAX_CONDS) {
    snprintf(e->conds[e->nConds++], NAME_LEN, "%s", name);
    return;
  }
  /* Full: fold the new condition into the last one. */
  char n[NAME_LEN];
  freshName(e, n, "ok");
  rock__strAppendf(&e->body, "  %s = arith.andi %s, %s : i1\n", n,
                   e->conds[MAX_CONDS - 1], name);
  snprintf(e->conds[MAX_CONDS - 1], NAME_LEN, "%s", n);
}

/* Adds the condition `u <pred> c` (pred "sge" or "slt") to the validity. */
static void addCmp(Emit *e, Val u, const char *pred, int64_t c) {
  if (u.isCst) {
    bool holds = strcmp(pred, "sge") == 0 ? u.cst >= c : u.cst < c;
    if (holds)
      return;
    if (!e->haveFalse) {
      rock__strAppend(&e->pro, "  %false = arith.constant false\n");
      e->haveFalse = true;
    }
    pushCond(e, "%false");
    return;
  }
  char name[NAME_LEN];
  freshName(e, name, "ok");
  Val cv = cstVal(c);
  const char *cn = use(e, &cv);
  rock__strAppendf(&e->body, "  %s = arith.cmpi %s, %s, %s : index\n", name,
                   pred, u.name, cn);
  pushCond(e, name);
}

/*===----------------------------------------------------------------------===
 * Transform maps
 *===----------------------------------------------------------------------===*/

static int64_t arrGet(MlirAttribute a, intptr_t i) {
  return mlirDenseI64ArrayGetElement(a, i);
}
static intptr_t arrLen(MlirAttribute a) {
  return mlirDenseArrayGetNumElements(a);
}

/* Pushes upper coordinates `up` through `map` into `low` (size = the map's
 * lower rank), adding Pad conditions to `e`. Returns false, with e->failed
 * set, when a wide lowering cannot be proven for this map. */
static bool applyMap(Emit *e, MlirAttribute map, const Val *up, Val *low) {
  MlirAttribute ops = rockTransformMapAttrGetOps(map);
  MlirAttribute upB = rockTransformMapAttrGetUpperBounds(map);
  MlirAttribute lowB = rockTransformMapAttrGetLowerBounds(map);
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(ops); ++i) {
    MlirAttribute t = mlirArrayAttrGetElement(ops, i);
    MlirAttribute p = rockTransformAttrGetParams(t);
    MlirAttribute udA = rockTransformAttrGetUpperDims(t);
    MlirAttribute ldA = rockTransformAttrGetLowerDims(t);
    intptr_t nu = arrLen(udA), nl = arrLen(ldA);
#define UD(j) arrGet(udA, (j))
#define LD(j) arrGet(ldA, (j))
    switch (rockTransformAttrGetKind(t)) {
    case ROCK_TRANSFORM_PASS_THROUGH:
      for (intptr_t j = 0; j < nu; ++j)
        low[LD(j)] = up[UD(j)];
      break;
    case ROCK_TRANSFORM_PAD:
      for (intptr_t j = 0; j < nu; ++j) {
        Val u = up[UD(j)];
        int64_t left = arrGet(p, 2 * j), right = arrGet(p, 2 * j + 1);
        int64_t len = arrGet(lowB, LD(j));
        /* Lanes share one validity when they stay inside one block whose
         * boundaries include every boundary that is checked. */
        int64_t blk = 0;
        if (left > 0)
          blk = gcd64(blk, left);
        if (right > 0)
          blk = gcd64(blk, left + len);
        if (blk > 0 && !staysInBlock(e, &u, blk)) {
          e->failed = true;
          return false;
        }
        if (left > 0)
          addCmp(e, u, "sge", left);
        if (right > 0)
          addCmp(e, u, "slt", left + len);
        low[LD(j)] = addC(e, u, -left);
      }
      break;
    case ROCK_TRANSFORM_SLICE:
      for (intptr_t j = 0; j < nu; ++j)
        low[LD(j)] = addC(e, up[UD(j)], arrGet(p, 2 * j));
      break;
    case ROCK_TRANSFORM_EMBED: {
      Val acc = cstVal(0);
      for (intptr_t j = 0; j < nu; ++j)
        acc = add(e, acc, mulC(e, up[UD(j)], arrGet(p, j)));
      low[LD(0)] = acc;
      break;
    }
    case ROCK_TRANSFORM_UNMERGE: {
      /* Row-major, Horner form: ((u0*s1 + u1)*s2 + u2)... */
      Val acc = up[UD(0)];
      for (intptr_t j = 1; j < nu; ++j)
        acc = add(e, mulC(e, acc, arrGet(p, j)), up[UD(j)]);
      low[LD(0)] = acc;
      break;
    }
    case ROCK_TRANSFORM_MERGE: {
      Val u = up[UD(0)];
      intptr_t last = -1;
      for (intptr_t j = 0; j < nl; ++j)
        if (arrGet(p, j) > 1)
          last = j;
      /* Lanes move only the innermost non-trivial digit: prove they do not
       * carry into the digit above it. */
      if (last > 0 && !staysInBlock(e, &u, arrGet(p, last))) {
        e->failed = true;
        return false;
      }
      int64_t stride = 1;
      for (intptr_t j = nl - 1; j >= 0; --j) {
        int64_t s = arrGet(p, j);
        Val d;
        if (s == 1) {
          d = cstVal(0);
        } else {
          Val q = divC(e, u, stride);
          d = j == 0 ? q : remC(e, q, s);
          if (j == last)
            d.k = u.k;
        }
        low[LD(j)] = d;
        stride *= s;
      }
      break;
    }
    case ROCK_TRANSFORM_ADD_DIM:
      break;
    case ROCK_TRANSFORM_BROADCAST:
      for (intptr_t j = 0; j < nu; ++j) {
        Val u = up[UD(j)];
        int64_t c = arrGet(p, j);
        if (arrGet(upB, UD(j)) <= c) {
          low[LD(j)] = u; /* u < c: the modulo is the identity */
        } else if (c == 1) {
          low[LD(j)] = cstVal(0);
        } else {
          if (!staysInBlock(e, &u, c)) {
            e->failed = true;
            return false;
          }
          Val r = remC(e, u, c);
          r.k = u.k;
          low[LD(j)] = r;
        }
      }
      break;
    case ROCK_TRANSFORM_CONST_DIM:
      for (intptr_t j = 0; j < nl; ++j)
        low[LD(j)] = cstVal(arrGet(p, 2 * j));
      break;
    }
#undef UD
#undef LD
  }
  return true;
}

/*===----------------------------------------------------------------------===
 * View chains
 *===----------------------------------------------------------------------===*/

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

/* Follows rock.transform ops from `v` down; stores their maps (upper to
 * lower) and the first value not defined by a rock.transform in `end`. */
static bool walkTransforms(MlirExternalPass pass, MlirOperation user,
                           MlirValue v, MlirAttribute *maps, int *n,
                           MlirValue *end) {
  *n = 0;
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!rock__isOp(def, "rock.transform"))
      break;
    if (*n == MAX_CHAIN) {
      rock__passFail(pass, user, "view chain is longer than %d transforms",
                     MAX_CHAIN);
      return false;
    }
    /* run() has verified every rock.transform (verifyTransforms). */
    maps[(*n)++] = rock__attr(def, "transform");
    v = mlirOperationGetOperand(def, 0);
  }
  *end = v;
  return true;
}

/* True when `v` may end a chain: a ranked memref not produced by a rock op
 * (a block argument, an allocation, a subview...). */
static bool isPlainMemref(MlirValue v) {
  if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
    return false;
  if (!mlirValueIsAOpResult(v))
    return true;
  MlirStringRef name =
      mlirIdentifierStr(mlirOperationGetName(mlirOpResultGetOwner(v)));
  return !(name.length > 5 && memcmp(name.data, "rock.", 5) == 0);
}

static bool resolveChain(MlirExternalPass pass, MlirOperation user,
                         MlirValue src, Chain *ch) {
  memset(ch, 0, sizeof(*ch));
  MlirValue end;
  if (!walkTransforms(pass, user, src, ch->maps, &ch->nMaps, &end))
    return false;
  if (mlirValueIsAOpResult(end) &&
      rock__isOp(mlirOpResultGetOwner(end), "rock.deref")) {
    MlirOperation deref = mlirOpResultGetOwner(end);
    MlirValue ptrs = mlirOperationGetOperand(deref, 0);
    MlirType pt = mlirValueGetType(ptrs), rt = mlirValueGetType(end);
    if (!mlirTypeIsAMemRef(pt) || !mlirTypeIsAMemRef(rt)) {
      rock__passFail(pass, deref, "rock.deref needs ranked memrefs");
      return false;
    }
    MlirType pe = mlirShapedTypeGetElementType(pt);
    if (!mlirTypeIsAInteger(pe) || mlirIntegerTypeGetWidth(pe) != 64) {
      RockStr s = {0};
      rock__strAppendType(&s, pe);
      rock__passFail(pass, deref, "rock.deref pointers must be i64, got %s",
                     s.data);
      rock__strFree(&s);
      return false;
    }
    intptr_t pr = mlirShapedTypeGetRank(pt), rr = mlirShapedTypeGetRank(rt);
    bool shapeOk = rr >= 1 && mlirShapedTypeHasStaticShape(rt) &&
                   (pr == rr || pr == rr - 1);
    for (intptr_t i = 0; shapeOk && i < rr - 1; ++i)
      shapeOk =
          mlirShapedTypeGetDimSize(pt, i) == mlirShapedTypeGetDimSize(rt, i);
    if (shapeOk && pr == rr)
      shapeOk = mlirShapedTypeGetDimSize(pt, pr - 1) == 1;
    if (!shapeOk) {
      rock__passFail(pass, deref,
                     "rock.deref pointer shape must be the result shape with "
                     "the page dim replaced by 1 or dropped");
      return false;
    }
    ch->paged = true;
    ch->pageType = rt;
    if (!walkTransforms(pass, user, ptrs, ch->ptrMaps, &ch->nPtrMaps, &end))
      return false;
    if (!isPlainMemref(end)) {
      rock__passFail(pass, deref,
                     "page table chain of rock.deref must end in a ranked "
                     "memref");
      return false;
    }
  } else if (!isPlainMemref(end)) {
    rock__passFail(pass, user,
                   "view chain must end in a ranked memref or rock.deref");
    return false;
  }
  ch->base = end;
  return true;
}

/*===----------------------------------------------------------------------===
 * Index alignment of the incoming coordinates
 *===----------------------------------------------------------------------===*/

/* Returns what is known about index value `v`: a constant, or a divisor of
 * it (from constants, addi/subi/muli, and scf.for / scf.parallel induction
 * variables with aligned bounds and steps). */
static Val analyzeIndex(MlirValue v, int depth) {
  Val r;
  memset(&r, 0, sizeof(r));
  r.align = 1;
  if (depth > 8)
    return r;
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (rock__isOp(def, "arith.constant")) {
      MlirAttribute a = rock__attr(def, "value");
      if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
        return cstVal(mlirIntegerAttrGetValueInt(a));
      return r;
    }
    bool isAdd = rock__isOp(def, "arith.addi") || rock__isOp(def, "arith.subi");
    bool isMul = rock__isOp(def, "arith.muli");
    if (isAdd || isMul) {
      Val a = analyzeIndex(mlirOperationGetOperand(def, 0), depth + 1);
      Val b = analyzeIndex(mlirOperationGetOperand(def, 1), depth + 1);
      if (isMul) {
        if (a.isCst && b.isCst)
          return cstVal(a.cst * b.cst);
        int64_t m;
        if (!__builtin_mul_overflow(a.align, b.align, &m))
          r.align = m;
        return r;
      }
      r.align = gcd64(a.align, b.align);
      return r;
    }
    return r;
  }
  MlirBlock blk = mlirBlockArgumentGetOwner(v);
  MlirOperation parent = mlirBlockGetParentOperation(blk);
  if (mlirOperationIsNull(parent))
    return r;
  intptr_t arg = mlirBlockArgumentGetArgNumber(v);
  intptr_t lb = -1, step = -1;
  if (rock__isOp(parent, "scf.for") && arg == 0) {
    lb = 0;
    step = 2;
  } else if (rock__isOp(parent, "scf.parallel")) {
    intptr_t n = mlirBlockGetNumArguments(blk);
    if (arg < n && mlirOperationGetNumOperands(parent) >= 3 * n) {
      lb = arg;
      step = 2 * n + arg;
    }
  }
  if (lb >= 0) {
    Val a = analyzeIndex(mlirOperationGetOperand(parent, lb), depth + 1);
    Val b = analyzeIndex(mlirOperationGetOperand(parent, step), depth + 1);
    r.align = gcd64(a.align, b.align);
    if (r.align == 0)
      r.align = 1;
  }
  return r;
}

/*===----------------------------------------------------------------------===
 * Accesses
 *===----------------------------------------------------------------------===*/

typedef struct Access {
  MlirOperation op;
  bool isStore;
  bool isPrefetch; /* rock.view_prefetch: no value, no result */
  int locality;    /* of a prefetch */
  Chain ch;
  intptr_t nIdx;
  Val idx[MAX_RANK]; /* the incoming coordinates, analysed */
  MlirType elt;      /* view element type */
  MlirType valType;  /* loaded / stored type: elt or vector<N x elt> */
  int64_t n;         /* lanes: N for a vector, else 1 */
  double pad;
} Access;

static void appendPadConst(RockStr *s, const Emit *e, const Access *a) {
  RockStr ty = {0};
  rock__strAppendType(&ty, a->elt);
  if (mlirTypeIsAInteger(a->elt)) {
    long long v = isfinite(a->pad) ? (long long)a->pad : 0;
    rock__strAppendf(s, "  %%pad = arith.constant %lld : %s\n", v, ty.data);
  } else if (isfinite(a->pad)) {
    rock__strAppendf(s, "  %%pad = arith.constant %.17e : %s\n", a->pad,
                     ty.data);
  } else if (mlirTypeIsAF16(a->elt) || mlirTypeIsABF16(a->elt) ||
             mlirTypeIsAF32(a->elt)) {
    /* Infinities and NaN as the element type's bit pattern. */
    bool neg = signbit(a->pad);
    unsigned long long bits;
    if (mlirTypeIsAF16(a->elt))
      bits = isnan(a->pad) ? 0x7E00 : neg ? 0xFC00 : 0x7C00;
    else if (mlirTypeIsABF16(a->elt))
      bits = isnan(a->pad) ? 0x7FC0 : neg ? 0xFF80 : 0x7F80;
    else
      bits = isnan(a->pad) ? 0x7FC00000 : neg ? 0xFF800000 : 0x7F800000;
    rock__strAppendf(s, "  %%pad = arith.constant 0x%llX : %s\n", bits,
                     ty.data);
  } else {
    uint64_t bits;
    memcpy(&bits, &a->pad, sizeof(bits));
    if (mlirTypeIsAF64(a->elt)) {
      rock__strAppendf(s, "  %%pad = arith.constant 0x%016llX : f64\n",
                       (unsigned long long)bits);
    } else {
      rock__strAppendf(s, "  %%pad64 = arith.constant 0x%016llX : f64\n",
                       (unsigned long long)bits);
      rock__strAppendf(s, "  %%pad = arith.truncf %%pad64 : f64 to %s\n",
                       ty.data);
    }
  }
  if (e->needPadV) {
    RockStr vt = {0};
    rock__strAppendType(&vt, a->valType);
    rock__strAppendf(s, "  %%padv = vector.broadcast %%pad : %s to %s\n",
                     ty.data, vt.data);
    rock__strFree(&vt);
  }
  rock__strFree(&ty);
}

static void appendIdxList(Emit *e, RockStr *s, Val *v, intptr_t n) {
  rock__strAppend(s, "[");
  for (intptr_t i = 0; i < n; ++i)
    rock__strAppendf(s, "%s%s", i ? ", " : "", use(e, &v[i]));
  rock__strAppend(s, "]");
}

/* How one (possibly wide) access touches memory. */
typedef enum Shape {
  SHAPE_SCALAR, /* one element */
  SHAPE_VECTOR, /* `width` contiguous elements */
  SHAPE_SPLAT,  /* every lane at the same address */
} Shape;

/* True when the innermost dim of memref type `t` has unit stride. */
static bool unitInnerStride(MlirType t) {
  MlirAttribute l = mlirMemRefTypeGetLayout(t);
  if (mlirAttributeIsNull(l))
    return true;
  if (mlirAttributeIsAAffineMap(l))
    return mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(l));
  if (mlirAttributeIsAStridedLayout(l)) {
    intptr_t r = mlirShapedTypeGetRank(t);
    return r > 0 && mlirStridedLayoutAttrGetStride(l, r - 1) == 1;
  }
  return false;
}

/* Emits the memory access of coordinates `bot` (the bottom of the chain),
 * guarded by the conditions collected in `e` and those of the page table
 * chain. `ty` is the accessed type text (element or vector), `value` the
 * stored value's name (stores), `res` receives the loaded value's name. */
static void emitMemory(Emit *e, const Access *a, Val *bot, Shape shape,
                       const char *ty, const char *eltTy, const char *value,
                       char *res) {
  RockStr *b = &e->body;
  const Chain *ch = &a->ch;
  bool noRes = a->isStore || a->isPrefetch;
  RockStr baseTy = {0};
  rock__strAppendType(&baseTy, mlirValueGetType(ch->base));

  /* Index math first, at the top level: the page-table coordinates, then
   * the validity, then the in-page offset. */
  Val ptrIdx[MAX_RANK];
  intptr_t nPtr = 0;
  char off[NAME_LEN] = "";
  intptr_t pageRank = ch->paged ? mlirShapedTypeGetRank(ch->pageType) : 0;
  if (ch->paged) {
    Val cur[MAX_RANK];
    intptr_t nCur = pageRank;
    for (intptr_t i = 0; i < pageRank; ++i)
      cur[i] = bot[i];
    /* Page-table coordinates: the page dim becomes 0 (or is dropped). */
    intptr_t tableRank =
        ch->nPtrMaps
            ? arrLen(rockTransformMapAttrGetUpperBounds(ch->ptrMaps[0]))
            : mlirShapedTypeGetRank(mlirValueGetType(ch->base));
    if (tableRank == pageRank)
      cur[pageRank - 1] = cstVal(0);
    nCur = tableRank;
    for (int m = 0; m < ch->nPtrMaps; ++m) {
      Val next[MAX_RANK];
      applyMap(e, ch->ptrMaps[m], cur, next);
      nCur = arrLen(rockTransformMapAttrGetLowerBounds(ch->ptrMaps[m]));
      for (intptr_t i = 0; i < nCur; ++i)
        cur[i] = next[i];
    }
    nPtr = nCur;
    for (intptr_t i = 0; i < nPtr; ++i) {
      ptrIdx[i] = cur[i];
      use(e, &ptrIdx[i]);
    }
    Val o = bot[pageRank - 1];
    freshName(e, off, "off");
    rock__strAppendf(b, "  %s = arith.index_cast %s : index to i64\n", off,
                     use(e, &o));
  }
  char valid[NAME_LEN] = "";
  if (e->nConds > 0) {
    snprintf(valid, NAME_LEN, "%s", e->conds[0]);
    for (int i = 1; i < e->nConds; ++i) {
      char n[NAME_LEN];
      freshName(e, n, "ok");
      rock__strAppendf(b, "  %s = arith.andi %s, %s : i1\n", n, valid,
                       e->conds[i]);
      snprintf(valid, NAME_LEN, "%s", n);
    }
  }
  intptr_t nBot =
      ch->paged ? pageRank : mlirShapedTypeGetRank(mlirValueGetType(ch->base));
  RockStr idxText = {0};
  if (ch->paged)
    appendIdxList(e, &idxText, ptrIdx, nPtr);
  else
    appendIdxList(e, &idxText, bot, nBot);

  /* The access itself, under scf.if when some lane may be invalid. */
  const char *ind = "  ";
  char r[NAME_LEN] = "";
  if (!noRes)
    freshName(e, res, "r");
  if (valid[0]) {
    if (noRes)
      rock__strAppendf(b, "  scf.if %s {\n", valid);
    else
      rock__strAppendf(b, "  %s = scf.if %s -> (%s) {\n", res, valid, ty);
    ind = "    ";
  }
  const char *accTy = shape == SHAPE_VECTOR ? ty : eltTy;
  if (!noRes)
    freshName(e, r, "x");
  if (ch->paged) {
    char pv[NAME_LEN], pp[NAME_LEN], ep[NAME_LEN];
    freshName(e, pv, "pv");
    freshName(e, pp, "ptr");
    freshName(e, ep, "ep");
    int64_t bytes = 1;
    if (mlirTypeIsAInteger(a->elt))
      bytes = (mlirIntegerTypeGetWidth(a->elt) + 7) / 8;
    else if (mlirTypeIsAFloat(a->elt))
      bytes = (mlirFloatTypeGetWidth(a->elt) + 7) / 8;
    rock__strAppendf(b, "%s%s = memref.load %%base%s : %s\n", ind, pv,
                     idxText.data, baseTy.data);
    rock__strAppendf(b, "%s%s = llvm.inttoptr %s : i64 to !llvm.ptr\n", ind, pp,
                     pv);
    rock__strAppendf(b,
                     "%s%s = llvm.getelementptr %s[%s] : (!llvm.ptr, i64) -> "
                     "!llvm.ptr, %s\n",
                     ind, ep, pp, off, eltTy);
    if (a->isPrefetch)
      rock__strAppendf(b,
                       "%s\"llvm.intr.prefetch\"(%s) <{cache = 1 : i32, "
                       "hint = %d : i32, rw = 0 : i32}> : (!llvm.ptr) -> ()\n",
                       ind, ep, a->locality);
    else if (a->isStore)
      rock__strAppendf(b,
                       "%sllvm.store %s, %s {alignment = %lld : i64} : %s, "
                       "!llvm.ptr\n",
                       ind, value, ep, (long long)bytes, accTy);
    else
      rock__strAppendf(b,
                       "%s%s = llvm.load %s {alignment = %lld : i64} : "
                       "!llvm.ptr -> %s\n",
                       ind, r, ep, (long long)bytes, accTy);
  } else if (shape == SHAPE_VECTOR) {
    if (a->isStore)
      rock__strAppendf(b, "%svector.store %s, %%base%s : %s, %s\n", ind, value,
                       idxText.data, baseTy.data, ty);
    else
      rock__strAppendf(b, "%s%s = vector.load %%base%s : %s, %s\n", ind, r,
                       idxText.data, baseTy.data, ty);
  } else if (a->isPrefetch) {
    rock__strAppendf(b, "%smemref.prefetch %%base%s, read, locality<%d>, data : %s\n",
                     ind, idxText.data, a->locality, baseTy.data);
  } else {
    if (a->isStore)
      rock__strAppendf(b, "%smemref.store %s, %%base%s : %s\n", ind, value,
                       idxText.data, baseTy.data);
    else
      rock__strAppendf(b, "%s%s = memref.load %%base%s : %s\n", ind, r,
                       idxText.data, baseTy.data);
  }
  if (!a->isStore && shape == SHAPE_SPLAT) {
    char s[NAME_LEN];
    freshName(e, s, "splat");
    rock__strAppendf(b, "%s%s = vector.broadcast %s : %s to %s\n", ind, s, r,
                     eltTy, ty);
    snprintf(r, NAME_LEN, "%s", s);
  }
  if (valid[0]) {
    if (noRes) {
      rock__strAppend(b, "  }\n");
    } else {
      rock__strAppendf(b, "    scf.yield %s : %s\n  } else {\n", r, ty);
      bool scalar = strcmp(ty, eltTy) == 0;
      rock__strAppendf(b, "    scf.yield %s : %s\n  }\n",
                       scalar ? "%pad" : "%padv", ty);
      e->needPad = true;
      e->needPadV = e->needPadV || !scalar;
    }
  } else if (!noRes) {
    snprintf(res, NAME_LEN, "%s", r);
  }
  rock__strFree(&idxText);
  rock__strFree(&baseTy);
}

/* Pushes `up` through the access's main chain into `bot`. */
static bool pushThrough(Emit *e, const Access *a, Val *up, Val *bot) {
  Val cur[MAX_RANK];
  intptr_t n = a->nIdx;
  for (intptr_t i = 0; i < n; ++i)
    cur[i] = up[i];
  for (int m = 0; m < a->ch.nMaps; ++m) {
    Val next[MAX_RANK];
    if (!applyMap(e, a->ch.maps[m], cur, next))
      return false;
    n = arrLen(rockTransformMapAttrGetLowerBounds(a->ch.maps[m]));
    for (intptr_t i = 0; i < n; ++i)
      cur[i] = next[i];
  }
  for (intptr_t i = 0; i < n; ++i)
    bot[i] = cur[i];
  return true;
}

/* Decides how a wide access touches memory, or returns false when the lanes
 * are not provably contiguous (or all at one address). */
static bool wideShape(const Emit *e, const Access *a, const Val *bot,
                      Shape *shape) {
  if (a->n == 1) {
    *shape = SHAPE_SCALAR;
    return true;
  }
  const Chain *ch = &a->ch;
  MlirType t = ch->paged ? ch->pageType : mlirValueGetType(ch->base);
  intptr_t r = mlirShapedTypeGetRank(t);
  bool allZero = true;
  for (intptr_t i = 0; i < r; ++i)
    allZero = allZero && bot[i].k == 0;
  if (allZero) {
    *shape = SHAPE_SPLAT;
    return true;
  }
  for (intptr_t i = 0; i + 1 < r; ++i)
    if (bot[i].k != 0)
      return false;
  if (r == 0 || bot[r - 1].k != 1)
    return false;
  if (ch->paged) {
    /* Never straddle a page. */
    if (!staysInBlock(e, &bot[r - 1], mlirShapedTypeGetDimSize(t, r - 1)))
      return false;
  } else if (!unitInnerStride(t)) {
    return false;
  }
  *shape = SHAPE_VECTOR;
  return true;
}

/* Builds the function text for `a`: wide when `wide`, else lane by lane.
 * Returns false when a wide lowering cannot be proven. */
static bool buildText(const Access *a, bool wide, RockStr *out) {
  Emit e;
  memset(&e, 0, sizeof(e));
  e.width = wide ? a->n : 1;
  RockStr ty = {0}, eltTy = {0}, baseTy = {0};
  rock__strAppendType(&ty, a->valType);
  rock__strAppendType(&eltTy, a->elt);
  rock__strAppendType(&baseTy, mlirValueGetType(a->ch.base));
  Val up[MAX_RANK], bot[MAX_RANK];
  char res[NAME_LEN] = "";
  bool ok = true;
  bool noRes = a->isStore || a->isPrefetch;

  if (wide) {
    for (intptr_t i = 0; i < a->nIdx; ++i)
      up[i] = a->idx[i];
    if (a->nIdx > 0 && a->n > 1)
      up[a->nIdx - 1].k = 1;
    Shape shape;
    ok = pushThrough(&e, a, up, bot) && wideShape(&e, a, bot, &shape);
    if (ok) {
      const char *value = "%val";
      if (a->isStore && shape == SHAPE_SPLAT) {
        /* Every lane writes one address: the last lane wins. */
        rock__strAppendf(&e.body,
                         "  %%last = vector.extract %%val[%lld] : %s from %s\n",
                         (long long)(a->n - 1), eltTy.data, ty.data);
        value = "%last";
      }
      emitMemory(&e, a, bot, shape, ty.data, eltTy.data, value, res);
    }
  } else {
    RockStr joined = {0};
    for (int64_t t = 0; t < a->n; ++t) {
      for (intptr_t i = 0; i < a->nIdx; ++i)
        up[i] = a->idx[i];
      if (a->nIdx > 0 && t > 0)
        up[a->nIdx - 1] = addC(&e, up[a->nIdx - 1], t);
      e.nConds = 0;
      pushThrough(&e, a, up, bot);
      char value[NAME_LEN] = "%val";
      if (a->isStore && a->n > 1) {
        snprintf(value, NAME_LEN, "%%lane%d", (int)t);
        rock__strAppendf(&e.body,
                         "  %s = vector.extract %%val[%lld] : %s from %s\n",
                         value, (long long)t, eltTy.data, ty.data);
      }
      char r[NAME_LEN] = "";
      emitMemory(&e, a, bot, SHAPE_SCALAR, eltTy.data, eltTy.data, value, r);
      if (!noRes)
        rock__strAppendf(&joined, "%s%s", t ? ", " : "", r);
    }
    if (!noRes) {
      if (a->n > 1) {
        snprintf(res, NAME_LEN, "%%vec");
        rock__strAppendf(&e.body, "  %%vec = vector.from_elements %s : %s\n",
                         joined.data, ty.data);
      } else {
        snprintf(res, NAME_LEN, "%s", joined.data);
      }
    }
    rock__strFree(&joined);
  }

  if (ok) {
    rock__strAppendf(out, "func.func @body(%%base: %s", baseTy.data);
    for (intptr_t i = 0; i < a->nIdx; ++i)
      rock__strAppendf(out, ", %%i%d: index", (int)i);
    if (a->isStore)
      rock__strAppendf(out, ", %%val: %s", ty.data);
    rock__strAppendf(out, ")%s%s {\n", noRes ? "" : " -> ",
                     noRes ? "" : ty.data);
    if (e.needPad)
      appendPadConst(out, &e, a);
    if (e.pro.data)
      rock__strAppend(out, e.pro.data);
    if (e.body.data)
      rock__strAppend(out, e.body.data);
    if (noRes)
      rock__strAppend(out, "  return\n}\n");
    else
      rock__strAppendf(out, "  return %s : %s\n}\n", res, ty.data);
  }
  rock__strFree(&ty);
  rock__strFree(&eltTy);
  rock__strFree(&baseTy);
  emitFree(&e);
  return ok;
}

typedef enum ViewKind { VIEW_LOAD, VIEW_STORE, VIEW_PREFETCH } ViewKind;
static const char *const viewOpNames[] = {"rock.view_load", "rock.view_store",
                                          "rock.view_prefetch"};

static bool lowerViewOp(MlirExternalPass pass, MlirOperation op,
                        ViewKind kind) {
  Access a;
  memset(&a, 0, sizeof(a));
  a.op = op;
  bool isStore = kind == VIEW_STORE;
  a.isStore = isStore;
  a.isPrefetch = kind == VIEW_PREFETCH;
  const char *opName = viewOpNames[kind];
  intptr_t first = isStore ? 2 : 1;
  MlirValue src = mlirOperationGetOperand(op, isStore ? 1 : 0);
  a.nIdx = mlirOperationGetNumOperands(op) - first;
  if (!resolveChain(pass, op, src, &a.ch))
    return false;
  MlirType srcTy = mlirValueGetType(src);
  if (!mlirTypeIsAMemRef(srcTy)) {
    rock__passFail(pass, op, "%s needs a ranked view", opName);
    return false;
  }
  intptr_t rank = mlirShapedTypeGetRank(srcTy);
  if (a.nIdx != rank) {
    rock__passFail(pass, op, "%s expects %d indices for a rank-%d view, got %d",
                   opName, (int)rank, (int)rank, (int)a.nIdx);
    return false;
  }
  if (rank > MAX_RANK) {
    rock__passFail(pass, op, "%s view rank exceeds %d", opName, MAX_RANK);
    return false;
  }
  a.elt = mlirShapedTypeGetElementType(srcTy);
  a.valType = isStore       ? mlirValueGetType(mlirOperationGetOperand(op, 0))
               : a.isPrefetch ? a.elt
                              : mlirValueGetType(mlirOperationGetResult(op, 0));
  if (a.isPrefetch) {
    MlirAttribute loc = rock__attr(op, "locality");
    a.locality = mlirAttributeIsNull(loc)
                     ? 2
                     : (int)mlirIntegerAttrGetValueInt(loc);
  }
  a.n = 1;
  bool typeOk = mlirTypeEqual(a.valType, a.elt);
  if (mlirTypeIsAVector(a.valType) && mlirShapedTypeGetRank(a.valType) == 1 &&
      mlirShapedTypeHasStaticShape(a.valType) &&
      mlirTypeEqual(mlirShapedTypeGetElementType(a.valType), a.elt)) {
    typeOk = rank >= 1;
    a.n = mlirShapedTypeGetDimSize(a.valType, 0);
  }
  if (!typeOk) {
    rock__passFail(pass, op,
                   "%s value must be the view's element type or a 1-D vector "
                   "of it",
                   opName);
    return false;
  }
  if (a.ch.paged) {
    MlirType pe = mlirShapedTypeGetElementType(a.ch.pageType);
    if (!mlirTypeEqual(pe, a.elt)) {
      rock__passFail(pass, op, "%s element type differs from its rock.deref",
                     opName);
      return false;
    }
  }
  MlirAttribute pad = rock__attr(op, "padValue");
  if (!mlirAttributeIsNull(pad) && mlirAttributeIsAFloat(pad))
    a.pad = mlirFloatAttrGetValueDouble(pad);
  MlirValue args[2 + MAX_RANK];
  intptr_t nArgs = 0;
  args[nArgs++] = a.ch.base;
  for (intptr_t i = 0; i < a.nIdx; ++i) {
    MlirValue v = mlirOperationGetOperand(op, first + i);
    args[nArgs++] = v;
    a.idx[i] = analyzeIndex(v, 0);
    if (!a.idx[i].isCst)
      snprintf(a.idx[i].name, NAME_LEN, "%%i%d", (int)i);
  }
  if (isStore)
    args[nArgs++] = mlirOperationGetOperand(op, 0);

  RockStr text = {0};
  if (!buildText(&a, true, &text)) {
    rock__strFree(&text);
    buildText(&a, false, &text);
  }
  if (getenv("ROCK_DEBUG_VIEWS"))
    fprintf(stderr, "%s\n", text.data);
  MlirValue result;
  bool hasRes = kind == VIEW_LOAD;
  bool ok = rock__inlineFuncText(op, text.data, nArgs, args, hasRes ? 1 : 0,
                                 &result);
  rock__strFree(&text);
  if (!ok) {
    mlirExternalPassSignalFailure(pass);
    return false;
  }
  if (hasRes)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), result);
  mlirOperationDestroy(op);
  return true;
}

/*===----------------------------------------------------------------------===
 * The pass
 *===----------------------------------------------------------------------===*/

/* Erases rock.transform / rock.deref ops without uses until none is left. */
static void eraseDeadViews(MlirOperation root) {
  static const char *const names[] = {"rock.transform", "rock.deref"};
  bool changed = true;
  while (changed) {
    changed = false;
    for (int k = 0; k < 2; ++k) {
      intptr_t n;
      MlirOperation *ops = rock__collectOps(root, names[k], &n);
      for (intptr_t i = n - 1; i >= 0; --i) {
        MlirValue r = mlirOperationGetResult(ops[i], 0);
        if (mlirOpOperandIsNull(mlirValueGetFirstUse(r))) {
          mlirOperationDestroy(ops[i]);
          changed = true;
        }
      }
      free(ops);
    }
  }
}

/* Runs the rock.transform verifier on every rock.transform under `root`:
 * the well-formedness rules of a transform map live there, once, and the
 * lowering relies on them (the IR may come from a parser that skipped
 * verification). */
static bool verifyTransforms(MlirOperation root, MlirExternalPass pass) {
  intptr_t n;
  MlirOperation *ops = rock__collectOps(root, "rock.transform", &n);
  bool ok = true;
  for (intptr_t i = 0; ok && i < n; ++i)
    ok = mlirLogicalResultIsSuccess(rockTransformOpVerify(ops[i]));
  free(ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
  return ok;
}

static void run(MlirOperation root, MlirExternalPass pass) {
  if (!verifyTransforms(root, pass))
    return;
  bool ok = true;
  for (int k = VIEW_LOAD; k <= VIEW_PREFETCH; ++k) {
    intptr_t n;
    MlirOperation *ops = rock__collectOps(root, viewOpNames[k], &n);
    for (intptr_t i = 0; i < n; ++i)
      ok = lowerViewOp(pass, ops[i], (ViewKind)k) && ok;
    free(ops);
  }
  if (ok)
    eraseDeadViews(root);
}

static const RockPassDef def = {
    "RockLowerViews", "rock-lower-views",
    "resolve rock.view_load/view_store/view_prefetch through rock.transform "
    "chains and "
    "rock.deref into index math and memory accesses",
    "", run};

MlirPass rockLowerViewsPassCreate(void) { return rock__passCreate(&def); }
void rockLowerViewsPassRegister(void) { rock__passRegister(&def); }
