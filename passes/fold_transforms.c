/*===- fold_transforms.c - rock-fold-transforms (placeholder: does nothing yet) ===*/
#include "internal.h"
#include "rock-c/Passes.h"

static void run(MlirOperation op, MlirExternalPass pass) {
  (void)op;
  (void)pass;
}

static const RockPassDef def = {"RockFoldTransforms", "rock-fold-transforms", "placeholder", "", run};

MlirPass rockFoldTransformsPassCreate(void) { return rock__passCreate(&def); }
void rockFoldTransformsPassRegister(void) { rock__passRegister(&def); }
