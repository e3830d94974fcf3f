/*===- attach_target.c - rock-gpu-attach-target ---------------------------===*
 *
 * Sets the `targets` of every gpu.module under a builtin.module from the
 * module's `rock.arch` (rock-gen --arch): sm_<N>[a] gives
 * [#nvvm.target<chip = "sm_<N>[a]", O = 3>]. C passes take no options, so
 * the target is read from the IR instead of nvvm-attach-target{chip=...}.
 * A module without rock.arch, or with a non-NVIDIA one, is an error.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run(MlirOperation root, MlirExternalPass pass) {
  MlirAttribute arch = rock__attr(root, "rock.arch");
  if (mlirAttributeIsNull(arch) || !mlirAttributeIsAString(arch)) {
    rock__passFail(pass, root,
                   "rock-gpu-pipeline needs the module attribute rock.arch "
                   "(e.g. rock-gen --arch sm_90)");
    return;
  }
  MlirStringRef s = mlirStringAttrGetValue(arch);
  char chip[64];
  snprintf(chip, sizeof chip, "%.*s", (int)s.length, s.data);
  if (strncmp(chip, "sm_", 3) != 0) {
    rock__passFail(pass, root,
                   "rock.arch \"%s\" is not an NVIDIA target (sm_<N>); only "
                   "NVIDIA GPUs are lowered so far",
                   chip);
    return;
  }
  char text[128];
  snprintf(text, sizeof text, "[#nvvm.target<chip = \"%s\", O = 3>]", chip);
  MlirContext ctx = mlirOperationGetContext(root);
  MlirAttribute targets =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (mlirAttributeIsNull(targets)) {
    rock__passFail(pass, root, "cannot build the target attribute %s", text);
    return;
  }
  intptr_t n = 0;
  MlirOperation *mods = rock__collectOps(root, "gpu.module", &n);
  for (intptr_t i = 0; i < n; ++i)
    mlirOperationSetAttributeByName(
        mods[i], mlirStringRefCreateFromCString("targets"), targets);
  free(mods);
}

static const RockPassDef def = {
    "RockGpuAttachTarget", "rock-gpu-attach-target",
    "set the gpu.module targets from the module's rock.arch", "builtin.module",
    run};

MlirPass rockGpuAttachTargetPassCreate(void) { return rock__passCreate(&def); }
void rockGpuAttachTargetPassRegister(void) { rock__passRegister(&def); }
