/*===- lower_gridwise_attention.c - rock-lower-gridwise-attention (placeholder: does nothing yet) ===*/
#include "internal.h"
#include "rock-c/Passes.h"

static void run(MlirOperation op, MlirExternalPass pass) {
  (void)op;
  (void)pass;
}

static const RockPassDef def = {"RockLowerGridwiseAttention", "rock-lower-gridwise-attention", "placeholder", "", run};

MlirPass rockLowerGridwiseAttentionPassCreate(void) { return rock__passCreate(&def); }
void rockLowerGridwiseAttentionPassRegister(void) { rock__passRegister(&def); }
