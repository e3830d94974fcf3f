/*===- lower_views.c - rock-lower-views (placeholder: does nothing yet) ===*/
#include "internal.h"
#include "rock-c/Passes.h"

static void run(MlirOperation op, MlirExternalPass pass) {
  (void)op;
  (void)pass;
}

static const RockPassDef def = {"RockLowerViews", "rock-lower-views", "placeholder", "", run};

MlirPass rockLowerViewsPassCreate(void) { return rock__passCreate(&def); }
void rockLowerViewsPassRegister(void) { rock__passRegister(&def); }
