//===- rock_gen_key.c - rock-gen's --emit-tuning-key ----------------------===//
//
// rock_gen_key.h. A module's problem comes from its rock.harness (runtime/
// harness.h) when it has one, else from its first rock.attention: the
// element type of the queries, the trans* unit attributes, G = queries batch
// / numHeadsQ, the sizes of the operands (docs/dialect.md), causal, lse and
// splitKV. The target is the module's mhal.arch / rock.arch.
//
//===----------------------------------------------------------------------===//
#include "rock_gen_key.h"
#include "rock_gen_flags.h"

#include "harness.h"
#include "jit.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/Tuning.h"
#include "support/ir.h"
#include "support/str.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rock__genPrintKey(const RockAttentionConfig *cfg, const char *arch,
                       int64_t numCu, int64_t lookBack) {
  RockAttentionConfig c = *cfg;
  if (lookBack >= 0)
    c.causalLookBack = lookBack;
  size_t n = rockAttentionTuningKey(&c, arch, numCu, NULL, 0);
  char *key = malloc(n + 1);
  if (!key)
    rock__genDie("out of memory");
  rockAttentionTuningKey(&c, arch, numCu, key, n + 1);
  printf("%s\n", key);
  free(key);
}

//===----------------------------------------------------------------------===//
// Reading a module
//===----------------------------------------------------------------------===//

static char *readAll(const char *path) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f)
    rock__genDie("cannot open '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  while (buf) {
    len += fread(buf + len, 1, cap - 1 - len, f);
    if (len < cap - 1)
      break;
    char *grown = realloc(buf, cap *= 2);
    if (!grown)
      free(buf);
    buf = grown;
  }
  bool bad = ferror(f);
  if (f != stdin)
    fclose(f);
  if (!buf || bad)
    rock__genDie("cannot read '%s'", path);
  buf[len] = 0;
  return buf;
}

static void printDiag(MlirStringRef s, void *ud) {
  fwrite(s.data, 1, s.length, (FILE *)ud);
}

static MlirLogicalResult onDiag(MlirDiagnostic d, void *ud) {
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) {
    fprintf(stderr, "rock-gen: error: %s: ", (const char *)ud);
    mlirDiagnosticPrint(d, printDiag, stderr);
    fputc('\n', stderr);
  }
  return mlirLogicalResultSuccess();
}

static bool dtypeFromName(const char *name, RockAttentionDtype *t) {
  static const RockAttentionDtype all[4] = {
      ROCK_ATTENTION_F32, ROCK_ATTENTION_F16, ROCK_ATTENTION_BF16,
      ROCK_ATTENTION_I8};
  for (int i = 0; i < 4; ++i)
    if (!strcmp(name, rockAttentionDtypeGetName(all[i]))) {
      *t = all[i];
      return true;
    }
  return false;
}

/// The problem of a rock.harness dictionary; its causal band in *lookBack.
static void fromHarness(MlirAttribute dict, RockAttentionConfig *cfg,
                        int64_t *lookBack, const char *path) {
  RockHarness h;
  char err[512];
  if (!rockHarnessRead(dict, &h, err, sizeof err))
    rock__genDie("%s: %s", path, err);
  const RockAttnProblem *p = &h.problem;
  if (!dtypeFromName(rockDTypeGetName(p->dtype), &cfg->dtype))
    rock__genDie("%s: rock.harness: unsupported t", path);
  cfg->g = p->g;
  cfg->numHeadsQ = p->numHeadsQ;
  cfg->numHeadsKV = p->numHeadsKV;
  cfg->seqLenQ = p->seqLenQ;
  cfg->seqLenK = p->seqLenK;
  cfg->headDimQK = p->headDimQK;
  cfg->headDimV = p->headDimV;
  cfg->splitKV = p->splitKV;
  cfg->causal = p->causal;
  cfg->returnLse = p->returnLse;
  cfg->transQ = p->transQ;
  cfg->transK = p->transK;
  cfg->transV = p->transV;
  cfg->transO = p->transO;
  *lookBack = p->causalLookBack;
}

typedef struct Found {
  MlirOperation op;
} Found;

static MlirWalkResult findAttention(MlirOperation op, void *ud) {
  if (!rock__isOp(op, "rock.attention"))
    return MlirWalkResultAdvance;
  ((Found *)ud)->op = op;
  return MlirWalkResultInterrupt;
}

/// The static dims of operand `i` of `op`, which must be a rank-3 shaped
/// value.
static void dims3(MlirOperation op, intptr_t i, int64_t d[3], const char *path,
                  const char *what) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
  if (!mlirTypeIsAShaped(t) || mlirShapedTypeGetRank(t) != 3)
    rock__genDie("%s: rock.attention %s is not rank 3", path, what);
  for (int k = 0; k < 3; ++k)
    d[k] = mlirShapedTypeGetDimSize(t, k);
}

/// The problem of a rock.attention (rocmlir-gen's modules carry no harness).
static void fromOp(MlirOperation op, RockAttentionConfig *cfg,
                   const char *path) {
  MlirAttribute seg = rock__attr(op, "operandSegmentSizes");
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 10)
    rock__genDie("%s: rock.attention has no operand segments", path);
  /* q, k, v, ins, csl, po, ka, va, out, lse */
  intptr_t start[10], at = 0;
  for (int i = 0; i < 10; ++i) {
    start[i] = at;
    at += mlirDenseI32ArrayGetElement(seg, i);
  }
  int64_t q[3], k[3], v[3];
  dims3(op, start[0], q, path, "queries");
  dims3(op, start[1], k, path, "keys");
  dims3(op, start[2], v, path, "values");
  cfg->transQ = rock__hasAttr(op, "qTransposed");
  cfg->transK = rock__hasAttr(op, "kTransposed");
  cfg->transV = rock__hasAttr(op, "vTransposed");
  cfg->transO = rock__hasAttr(op, "oTransposed");
  cfg->causal = rock__hasAttr(op, "causal");
  cfg->returnLse = mlirDenseI32ArrayGetElement(seg, 9) > 0;
  cfg->splitKV = rock__intAttr(op, "splitKV", 1);
  cfg->numHeadsQ = rock__intAttr(op, "numHeadsQ", 1);
  cfg->numHeadsKV = rock__intAttr(op, "numHeadsKV", 1);
  cfg->g = cfg->numHeadsQ > 0 ? q[0] / cfg->numHeadsQ : q[0];
  cfg->seqLenQ = q[cfg->transQ ? 2 : 1];
  cfg->headDimQK = q[cfg->transQ ? 1 : 2];
  cfg->seqLenK = k[cfg->transK ? 1 : 2];
  cfg->headDimV = v[cfg->transV ? 1 : 2];
  char elt[32];
  MlirType qt = mlirValueGetType(mlirOperationGetOperand(op, start[0]));
  rock__typeToBuf(mlirShapedTypeGetElementType(qt), elt, sizeof elt);
  if (!dtypeFromName(elt, &cfg->dtype))
    rock__genDie("%s: rock.attention queries are %s (f32, f16, bf16 or i8)",
                 path, elt);
}

/// The module's target into `arch` ("" = none) and its rock.num_cu (0 =
/// none).
static int64_t moduleTarget(MlirModule m, char *arch, size_t size) {
  MlirOperation op = mlirModuleGetOperation(m);
  MlirAttribute a = rock__archAttr(op, NULL);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
    MlirStringRef s = mlirStringAttrGetValue(a);
    snprintf(arch, size, "%.*s", (int)s.length, s.data);
  }
  return rock__intAttr(op, "rock.num_cu", 0);
}

void rock__genKeyFromModule(const char *path, const char *arch, int64_t numCu,
                            bool hasNumCu) {
  const char *name = strcmp(path, "-") ? path : "<stdin>";
  char *text = readAll(path);
  MlirContext ctx = rockJitContextCreate();
  char diagName[256];
  snprintf(diagName, sizeof diagName, "%s", name);
  mlirContextAttachDiagnosticHandler(ctx, onDiag, diagName, NULL);
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(m))
    rock__genDie("cannot parse %s", name);
  RockAttentionConfig cfg;
  rockAttentionConfigInit(&cfg);
  int64_t lookBack = -1;
  MlirAttribute harness = rockHarnessFind(m);
  if (!mlirAttributeIsNull(harness)) {
    fromHarness(harness, &cfg, &lookBack, name);
  } else {
    Found f = {{NULL}};
    mlirOperationWalk(mlirModuleGetOperation(m), findAttention, &f,
                      MlirWalkPreOrder);
    if (mlirOperationIsNull(f.op))
      rock__genDie("%s has neither rock.harness nor rock.attention", name);
    fromOp(f.op, &cfg, name);
  }
  char target[128] = "";
  int64_t moduleCu = moduleTarget(m, target, sizeof target);
  if (!target[0])
    snprintf(target, sizeof target, "%s", arch ? arch : "");
  RockGpuTarget t = {0};
  char err[256];
  if (!rockGpuTargetParse(target, &t, err, sizeof err))
    rock__genDie("%s: %s", name, err);
  int64_t cu = hasNumCu                    ? numCu
               : moduleCu > 0              ? moduleCu
               : t.vendor != ROCK_GPU_NONE ? t.numCu
                                           : numCu;
  rock__genPrintKey(&cfg, target, cu, lookBack);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
}
