/*===- attention_to_gridwise.c - rock-attention-to-gridwise (placeholder: does nothing yet) ===*/
#include "internal.h"
#include "rock-c/Passes.h"

static void run(MlirOperation op, MlirExternalPass pass) {
  (void)op;
  (void)pass;
}

static const RockPassDef def = {"RockAttentionToGridwise", "rock-attention-to-gridwise", "placeholder", "", run};

MlirPass rockAttentionToGridwisePassCreate(void) { return rock__passCreate(&def); }
void rockAttentionToGridwisePassRegister(void) { rock__passRegister(&def); }
