/*===- mark_dependents.c - rock-gpu-mark-dependents -----------------------===*
 *
 * After gpu-kernel-outlining: every gpu.launch_func whose kernel executes
 * `nvvm.griddepcontrol wait` gets the unit attribute rock.pdl, the mark of
 * a programmatic dependent launch (docs/gpu.md "Programmatic dependent
 * launch"). rock-run writes it into the bundle (`launch ... pdl`), and the
 * runners launch such a kernel with cuLaunchKernelEx and programmatic
 * stream serialization, so that it may start while the kernel before it
 * runs; its wait holds it until that grid has completed and its memory is
 * visible. The mark is read from the kernel because the outliner keeps no
 * attribute of the gpu.launch it replaces; a kernel without the wait keeps
 * an ordinary launch.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/Passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct Probe {
  MlirAttribute wait; /* #nvvm<grid_dep_action wait> */
  bool found;
} Probe;

static MlirWalkResult findWait(MlirOperation op, void *ud) {
  Probe *p = ud;
  if (rock__isOp(op, "nvvm.griddepcontrol") &&
      mlirAttributeEqual(rock__attr(op, "kind"), p->wait)) {
    p->found = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool symbolIs(MlirOperation op, MlirStringRef name) {
  MlirAttribute s = rock__attr(op, "sym_name");
  if (mlirAttributeIsNull(s) || !mlirAttributeIsAString(s))
    return false;
  MlirStringRef v = mlirStringAttrGetValue(s);
  return v.length == name.length && !memcmp(v.data, name.data, v.length);
}

/* The gpu.func `kernel` (@module::@func) among the gpu.modules `mods`. */
static MlirOperation kernelOf(MlirOperation *mods, intptr_t n,
                              MlirAttribute kernel) {
  MlirOperation none = {NULL};
  if (mlirAttributeIsNull(kernel) || !mlirAttributeIsASymbolRef(kernel) ||
      mlirSymbolRefAttrGetNumNestedReferences(kernel) != 1)
    return none;
  MlirStringRef mod = mlirSymbolRefAttrGetRootReference(kernel);
  MlirStringRef fn = mlirSymbolRefAttrGetLeafReference(kernel);
  for (intptr_t i = 0; i < n; ++i) {
    if (!symbolIs(mods[i], mod))
      continue;
    MlirBlock body =
        mlirRegionGetFirstBlock(mlirOperationGetRegion(mods[i], 0));
    for (MlirOperation f = mlirBlockGetFirstOperation(body);
         !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
      if (rock__isOp(f, "gpu.func") && symbolIs(f, fn))
        return f;
  }
  return none;
}

static void run(MlirOperation root, MlirExternalPass pass) {
  MlirContext ctx = mlirOperationGetContext(root);
  Probe p = {mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(
                                            "#nvvm<grid_dep_action wait>")),
             false};
  if (mlirAttributeIsNull(p.wait)) {
    rock__passFail(pass, root, "cannot build #nvvm<grid_dep_action wait>");
    return;
  }
  intptr_t nMods = 0, nLaunches = 0;
  MlirOperation *mods = rock__collectOps(root, "gpu.module", &nMods);
  MlirOperation *launches =
      rock__collectOps(root, "gpu.launch_func", &nLaunches);
  for (intptr_t i = 0; i < nLaunches; ++i) {
    MlirOperation k = kernelOf(mods, nMods, rock__attr(launches[i], "kernel"));
    if (mlirOperationIsNull(k))
      continue;
    p.found = false;
    mlirOperationWalk(k, findWait, &p, MlirWalkPreOrder);
    if (p.found)
      mlirOperationSetAttributeByName(
          launches[i], mlirStringRefCreateFromCString("rock.pdl"),
          mlirUnitAttrGet(ctx));
  }
  free(mods);
  free(launches);
}

static const RockPassDef def = {
    "RockGpuMarkDependents", "rock-gpu-mark-dependents",
    "mark rock.pdl on each gpu.launch_func whose kernel waits on "
    "griddepcontrol (a programmatic dependent launch)",
    "builtin.module", run};

MlirPass rockGpuMarkDependentsPassCreate(void) {
  return rock__passCreate(&def);
}
void rockGpuMarkDependentsPassRegister(void) { rock__passRegister(&def); }
