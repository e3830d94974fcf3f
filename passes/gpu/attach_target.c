/*===- attach_target.c - rock-gpu-attach-target ---------------------------===*
 *
 * Sets the `targets` of every gpu.module under a builtin.module from the
 * module's `rock.arch` (rock-gen --arch, parsed by rockGpuTargetParse):
 * sm_<N>[a] gives [#nvvm.target<chip = "sm_<N>[a]", O = 3>] (sm_90a for an
 * sm_90 module whose kernels hold warpgroup MMA: rock__gpuChip); an AMD name
 * (gfx942, amdgcn-amd-amdhsa:gfx942:sramecc+:xnack-) gives
 * [#rocdl.target<chip = "gfx942", features = "+sramecc,-xnack", O = 3>],
 * wave32 (flags = {no_wave64}) from gfx10 on. C passes take no options, so
 * the target is read from the IR instead of {nvvm,rocdl}-attach-target{...}.
 * A module without rock.arch, or with a non-GPU one, is an error.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/GpuTarget.h"
#include "rock-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run(MlirOperation root, MlirExternalPass pass) {
  RockGpuTarget t;
  if (!rock__gpuArch(root, pass, &t))
    return;
  char text[256], chip[24];
  rock__gpuChip(root, &t, chip, sizeof chip);
  if (t.vendor == ROCK_GPU_NVIDIA)
    snprintf(text, sizeof text, "[#nvvm.target<chip = \"%s\", O = 3>]", chip);
  else
    snprintf(text, sizeof text, "[#rocdl.target<chip = \"%s\"%s%s%s, O = 3%s>]",
             t.chip, t.features[0] ? ", features = \"" : "", t.features,
             t.features[0] ? "\"" : "",
             t.waveSize == 32 ? ", flags = {no_wave64}" : "");
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
