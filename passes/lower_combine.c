/*===- lower_combine.c - rock-lower-combine (placeholder: does nothing yet) ===*/
#include "internal.h"
#include "rock-c/Passes.h"

static void run(MlirOperation op, MlirExternalPass pass) {
  (void)op;
  (void)pass;
}

static const RockPassDef def = {"RockLowerCombine", "rock-lower-combine", "placeholder", "", run};

MlirPass rockLowerCombinePassCreate(void) { return rock__passCreate(&def); }
void rockLowerCombinePassRegister(void) { rock__passRegister(&def); }
