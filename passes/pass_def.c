/*===- pass_def.c - creating and registering stateless C passes -----------===*/
#include "internal.h"

#include "mlir-c/Dialect/AMDGPU.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/NVVM.h"
#include "mlir-c/Dialect/ROCDL.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Vector.h"
#include "rock-c/Dialect.h"
#include "rock-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>

static void construct(void *ud) { (void)ud; }
static void destruct(void *ud) { (void)ud; }
static MlirLogicalResult initialize(MlirContext ctx, void *ud) {
  (void)ctx;
  (void)ud;
  return mlirLogicalResultSuccess();
}
/* Stateless: every instance shares the constant definition. */
static void *clone(void *ud) { return ud; }
static void run(MlirOperation op, MlirExternalPass pass, void *ud) {
  const RockPassDef *def = ud;
  def->run(op, pass);
}

static const MlirExternalPassCallbacks callbacks = {construct, destruct,
                                                    initialize, clone, run};

enum { NUM_DEPS = 12 };
static void deps(MlirDialectHandle out[NUM_DEPS]) {
  out[0] = mlirGetDialectHandle__arith__();
  out[1] = mlirGetDialectHandle__func__();
  out[2] = mlirGetDialectHandle__llvm__();
  out[3] = mlirGetDialectHandle__math__();
  out[4] = mlirGetDialectHandle__memref__();
  out[5] = mlirGetDialectHandle__scf__();
  out[6] = mlirGetDialectHandle__vector__();
  out[7] = mlirGetDialectHandle__rock__();
  out[8] = mlirGetDialectHandle__gpu__();
  out[9] = mlirGetDialectHandle__nvvm__();
  out[10] = mlirGetDialectHandle__rocdl__();
  out[11] = mlirGetDialectHandle__amdgpu__();
}

MlirPass rock__passCreate(const RockPassDef *def) {
  MlirDialectHandle d[NUM_DEPS];
  deps(d);
  return mlirCreateExternalPass(
      mlirTypeIDCreate(def), mlirStringRefCreateFromCString(def->name),
      mlirStringRefCreateFromCString(def->argument),
      mlirStringRefCreateFromCString(def->description),
      mlirStringRefCreateFromCString(def->opName), NUM_DEPS, d, callbacks,
      (void *)(uintptr_t)def);
}

void rock__passRegister(const RockPassDef *def) {
  MlirDialectHandle d[NUM_DEPS];
  deps(d);
  rockRegisterExternalPass(mlirTypeIDCreate(def),
                           mlirStringRefCreateFromCString(def->name),
                           mlirStringRefCreateFromCString(def->argument),
                           mlirStringRefCreateFromCString(def->description),
                           mlirStringRefCreateFromCString(def->opName),
                           NUM_DEPS, d, callbacks, (void *)(uintptr_t)def);
}

void rock__passFail(MlirExternalPass pass, MlirOperation op, const char *fmt,
                    ...) {
  if (!pass.ptr) /* a quiet query (rock__gpuAttnPlan): nothing to report */
    return;
  RockStr s = {0};
  va_list ap;
  va_start(ap, fmt);
  rock__strAppendv(&s, fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), s.data ? s.data : "");
  rock__strFree(&s);
  mlirExternalPassSignalFailure(pass);
}
