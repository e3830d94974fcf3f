/*===- RockVerify.h - C verifier bodies for rock ops --------------*- C -*-===//
 *
 * The verifiers of every rock op, written in C over MLIR's C API. The C++ op
 * classes' verify() methods forward here. Each function borrows `op`, emits
 * its diagnostics at the op's location and returns failure on the first
 * broken rule.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_ROCKVERIFY_H
#define ROCK_ROCKVERIFY_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MlirLogicalResult rockAttentionOpVerify(MlirOperation op);
MlirLogicalResult rockDerefOpVerify(MlirOperation op);
MlirLogicalResult rockTransformOpVerify(MlirOperation op);
MlirLogicalResult rockViewLoadOpVerify(MlirOperation op);
MlirLogicalResult rockViewStoreOpVerify(MlirOperation op);
/* The most 64-byte lines one rock.view_prefetch may cover (`lines`). */
#define ROCK_PREFETCH_MAX_LINES 64
MlirLogicalResult rockViewPrefetchOpVerify(MlirOperation op);
MlirLogicalResult rockGridwiseAttentionOpVerify(MlirOperation op);
MlirLogicalResult rockAttentionCombineOpVerify(MlirOperation op);
MlirLogicalResult rockGridwiseAttentionAccelOpVerify(MlirOperation op);

#ifdef __cplusplus
}
#endif

#endif
