//===- harness_types.c - run settings of the rock.harness dictionary -----===//
#include "harness_types.h"

#include <string.h>

void rockHarnessInit(RockHarness *h) {
  memset(h, 0, sizeof *h);
  rockAttnProblemInit(&h->problem);
  strcpy(h->rand, "distinct");
  h->randMin = 0.0;
  h->randMax = 1.0;
  h->randMinInt = -5;
  h->randMaxInt = 5;
  h->kernelRepeats = 1;
  strcpy(h->printVerify, "summary");
  strcpy(h->verifier, "mlir");
}
