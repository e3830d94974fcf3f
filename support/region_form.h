/*===- region_form.h - the two forms of the pre-softmax region ----*- C -*-===*
 *
 * rock.attention / rock.gridwise_attention take their elementwise region in
 * either of two forms (docs/dialect.md):
 * - rock's scalar form: `^bb0(%qk: T, %in0: T0, ...)`, scalar ops, then
 *   `rock.yield %score : F`;
 * - rocMLIR's linalg form: `^bb0(%qk: memref<..>, %in0: memref<..>, ...,
 *   %out: memref<..>)`, one `linalg.generic` (identity maps, parallel
 *   iterators) reading block arguments and writing `%out` (directly, or a
 *   memref.alloc copied into `%out` by memref.copy), then `rock.yield`.
 * rock__regionForm reads either into one description, which the verifiers
 * check and the lowerings clone from (passes/attention/op.c): the block whose
 * ops compute the score, and which slot operand (0 = the Q·K score, 1 + e =
 * elementwise input e) each of its arguments stands for. One reader, one
 * rule. Every handle is borrowed.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_SUPPORT_REGION_FORM_H
#define ROCK_SUPPORT_REGION_FORM_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ROCK_REGION_MAX_ARGS 65

typedef struct RockRegionForm {
  bool linalg;           /* rocMLIR's linalg form */
  MlirOperation generic; /* its linalg.generic (null in the scalar form) */
  MlirBlock body;        /* the block cloned per score: the region's block, or
                            the linalg.generic's */
  MlirOperation yield;   /* the body's rock.yield / linalg.yield */
  intptr_t nArgs;        /* body arguments that carry values (the linalg
                            form's last, the output element, is excluded) */
  /* slot[i]: the slot operand body argument i stands for. */
  intptr_t slot[ROCK_REGION_MAX_ARGS];
  /* argType[j]: the scalar type slot operand j has in this region (for the
   * linalg form, the element type of block argument j). */
  MlirType argType[ROCK_REGION_MAX_ARGS];
  MlirType yieldType; /* the score type the body yields */
} RockRegionForm;

/* Reads the non-empty region block `blk` of an op with `nInputs`
 * elementwise inputs into *f. On a malformed region returns false with a
 * one-line reason in `err` (starting "preSoftmaxBody"). */
bool rock__regionForm(MlirBlock blk, intptr_t nInputs, RockRegionForm *f,
                      char *err, size_t errSize);

#ifdef __cplusplus
}
#endif

#endif
