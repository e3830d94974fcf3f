/*===- combine_to_gpu.c - rock-combine-to-gpu -----------------------------===*
 *
 * Lowers rock.attention_combine to a gpu.launch: the merge rule of
 * lower_combine.c (f32, empty splits skipped, the all-empty guard), one
 * workgroup per output row, threads over the head dim.
 *
 *===----------------------------------------------------------------------===*/
#include "internal.h"
#include "rock-c/Passes.h"

static bool lowerOne(MlirOperation op, MlirExternalPass pass) {
  return rock__lowerCombineOp(op, pass, true);
}

static void run(MlirOperation root, MlirExternalPass pass) {
  rock__lowerEach(root, "rock.attention_combine", lowerOne, pass);
}

static const RockPassDef def = {
    "RockCombineToGpu", "rock-combine-to-gpu",
    "lower rock.attention_combine to a gpu.launch over the output rows", "",
    run};

MlirPass rockCombineToGpuPassCreate(void) { return rock__passCreate(&def); }
void rockCombineToGpuPassRegister(void) { rock__passRegister(&def); }
