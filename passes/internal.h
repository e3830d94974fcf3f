/*===- internal.h - shared internals of rock's C passes -----------*- C -*-===//
 *
 * Cross-file helpers of passes/ (libuv's rule: internal non-static names are
 * rock__*). Never included from C++.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ROCK_PASSES_INTERNAL_H
#define ROCK_PASSES_INTERNAL_H

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "rock-c/GpuTarget.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/AffineExpr.h"
#include "support/ir.h"
#include "support/str.h"

/* Evaluates `e` at dims `x[0..n)` into *out; false when undefined. Defined
 * with the verifiers (dialect/lib/verify_affine_eq.c), linked in the same
 * library. */
bool rock__affineExprEval(MlirAffineExpr e, const int64_t *x, intptr_t n,
                          int64_t *out);

/*===----------------------------------------------------------------------===
 * Pass definitions
 *===----------------------------------------------------------------------===*/

/* A stateless C pass: everything a pass needs is in this constant record,
 * which also serves as the pass's TypeID anchor (its address is unique and
 * 8-byte aligned). `run` may be called concurrently on different ops. */
typedef struct RockPassDef {
  const char *name;        /* RockFoldTransforms */
  const char *argument;    /* rock-fold-transforms */
  const char *description; /* one line */
  const char *opName;      /* anchor op name, "" for any op */
  void (*run)(MlirOperation op, MlirExternalPass pass);
} RockPassDef;

/* Returns a new pass for `def` (borrowed, static). The caller owns it. */
MlirPass rock__passCreate(const RockPassDef *def);
/* Registers `def` (borrowed, static) in the global registry. */
void rock__passRegister(const RockPassDef *def);

/* Emits `fmt` as an error at `op`'s location and signals `pass` failure. */
void rock__passFail(MlirExternalPass pass, MlirOperation op, const char *fmt,
                    ...) __attribute__((format(printf, 3, 4)));

/*===----------------------------------------------------------------------===
 * Building IR from text
 *===----------------------------------------------------------------------===*/

/* Debug dumps (docs/internals.md "Debug dumps"): writes `text` (borrowed)
 * and a newline to stderr when the nearest string attribute
 * rock.debug_text of `op` lists `kind` (comma-separated: gridwise, views,
 * unparsed; or all). Only stderr changes. */
void rock__debugDump(MlirOperation op, const char *kind, const char *text);

/* Parses `text` as a function `func.func @body(args) -> (results) {...}`
 * (the whole function, signature included) in `anchor`'s context, moves the
 * body's operations (all but the terminator) in front of `anchor`, replacing
 * uses of the block arguments by `args` (size nArgs) and writing the values
 * the terminator returned to `results` (size nResults, may be NULL when 0).
 * Returns false, after emitting a diagnostic at `anchor`, when the text does
 * not parse or the counts disagree. Ops are moved, not copied: the parsed
 * module is destroyed before return. Every inlined op (nested ones and block
 * arguments included) gets `anchor`'s location, so lowered IR keeps pointing
 * at the user's op (-mlir-print-debuginfo). */
bool rock__inlineFuncText(MlirOperation anchor, const char *text,
                          intptr_t nArgs, const MlirValue *args,
                          intptr_t nResults, MlirValue *results);

/*===----------------------------------------------------------------------===
 * Small IR queries (the attribute / op lookups are in support/ir.h)
 *===----------------------------------------------------------------------===*/

/* Collects every op named `name` nested under `root` (pre-order) into a
 * malloc'ed array (caller frees); sets *n. */
MlirOperation *rock__collectOps(MlirOperation root, const char *name,
                                intptr_t *n);
/* Calls `lowerOne` on every op named `name` under `root` (collected first,
 * so `lowerOne` may erase its op), stopping at the first that returns false
 * (it has then emitted a diagnostic and signalled `pass` failure). */
void rock__lowerEach(MlirOperation root, const char *name,
                     bool (*lowerOne)(MlirOperation, MlirExternalPass),
                     MlirExternalPass pass);

/*===----------------------------------------------------------------------===
 * Per-workgroup scratch (scratch.c)
 *===----------------------------------------------------------------------===*/

/* Most heap bytes one workgroup of a CPU kernel may allocate (256 MiB). */
#define ROCK_MAX_WORKGROUP_SCRATCH_BYTES (INT64_C(256) << 20)
/* Bytes of a static memref type written as text ("memref<4x8xf32>");
 * INT64_MAX when the count overflows. */
int64_t rock__memrefTextBytes(const char *mt);
/* `total` plus the bytes of memref type text `mt`, saturating. */
int64_t rock__scratchAdd(int64_t total, const char *mt);
/* Fails `pass` with a diagnostic at `op` when `bytes` of per-workgroup
 * scratch exceed ROCK_MAX_WORKGROUP_SCRATCH_BYTES; else records the largest
 * value seen as the i64 attribute rock.workgroup_scratch_bytes on the
 * enclosing builtin.module (when there is one) and returns true. */
bool rock__recordWorkgroupScratch(MlirExternalPass pass, MlirOperation op,
                                  int64_t bytes);

/*===----------------------------------------------------------------------===
 * The split combine (lower_combine.c)
 *===----------------------------------------------------------------------===*/

/* Emits, in front of `anchor`, the LSE-weighted merge of S partial outputs
 * (docs/semantics.md §5.8, see lower_combine.c): args are partialOut [B*S, Sq,
 * Dv] (or [B*S, Dv, Sq] with oT), partialLse [B*S, Sq] f32, out [B, Sq, Dv]
 * (same transposition), and when nArgs == 4 lse [B, Sq] f32; only rows < Sq are
 * read and written, so the values may be larger. Partial and final element
 * types are any floats (arithmetic in f32). Returns false after emitting a
 * diagnostic at `anchor`. */
bool rock__inlineCombine(MlirOperation anchor, int64_t B, int64_t Sq,
                         int64_t Dv, int64_t S, bool oT, intptr_t nArgs,
                         const MlirValue *args, bool gpu, bool pdl);
/* With `gpu`, the same merge as a gpu.launch: one workgroup per output row
 * (b, i), threads over the head dim, exp / log as the NVVM approximate
 * intrinsics; with `pdl` too, the launch is a programmatic dependent of the
 * kernel before it and first executes griddepcontrol.wait. */
/* Lowers the rock.attention_combine `op` (borrowed; erased on success) on
 * the CPU (scf.parallel) or, with `gpu`, as a gpu.launch; false after
 * reporting through `pass`. */
bool rock__lowerCombineOp(MlirOperation op, MlirExternalPass pass, bool gpu);

/*===----------------------------------------------------------------------===
 * The GPU attention schedule on tensor cores (gpu/attention_accel.c)
 *===----------------------------------------------------------------------===*/

/* Reads the GPU target from mhal.arch or rock.arch of `op` or of its
 * nearest ancestor that has one (rock__archAttr) (rockGpuTargetParse) into *t.
 * Returns false when there is none, it does not parse, or it is not a GPU;
 * then, when `pass.ptr` is set, after a one-line error at `op` and signalling
 * `pass` failure (gpu/target.c). */
bool rock__gpuArch(MlirOperation op, MlirExternalPass pass, RockGpuTarget *t);

/* The SMs / CUs the grid-filling heuristics of the GPU lowering aim at: the
 * integer module attribute rock.num_cu of `op` or of its nearest ancestor
 * that has one (rock-gen -num_cu), else t->numCu (gpu/target.c). */
int64_t rock__gpuNumCu(MlirOperation op, const RockGpuTarget *t);

/* Whether the `features` attribute of `op` (#rock<GemmFeatures>, rock-gen
 * -mfma / -wmma) turns off the matrix instructions of target `t`: present
 * and without mfma on an MFMA target, without wmma on a WMMA one
 * (gpu/target.c). */
bool rock__gpuAccelOff(MlirOperation op, const RockGpuTarget *t);

/* A schedule switch of the GPU lowering (docs/gpu.md, "Schedule switches"):
 * the attribute `name` on `op` or its nearest ancestor (normally the module;
 * rock-gen --module-attr), `dflt` when none carries one. [lo, hi] = [0, 1]
 * asks for a bool (`true` / `false`), any other range for an integer in it.
 * A value of another kind or out of range gives a one-line error at `op`,
 * signals `pass` failure and returns -1 (gpu/target.c). */
int rock__gpuSwitch(MlirOperation op, MlirExternalPass pass, const char *name,
                    int64_t dflt, int64_t lo, int64_t hi);
/* rock__gpuSwitch for an integer switch of `n` allowed values (`allowed`,
 * ascending; the caller owns it): `dflt` when not given, else one of
 * them; any other value or kind gives "NAME must be A, B or C" and -1. */
int rock__gpuSwitchIn(MlirOperation op, MlirExternalPass pass, const char *name,
                      int dflt, const int *allowed, int n);

/* Whether the internal split's two launches are a programmatic dependent
 * pair (docs/gpu.md "Programmatic dependent launch"): the switch
 * rock.gpu_pdl (rock__gpuSwitch; default true) on a target that has
 * griddepcontrol (NVIDIA sm_90 and later; elsewhere 0, switch or not).
 * -1 after a bad value (reported at `op`, `pass` failed) (gpu/target.c). */
int rock__gpuPdl(MlirOperation op, MlirExternalPass pass);

/* The chip `root`'s kernels are compiled for (into chip, n bytes): t->chip,
 * but sm_90a for an sm_90 module whose kernels hold warpgroup MMA (the
 * architecture-specific instructions of H100 / H200) (gpu/target.c). */
void rock__gpuChip(MlirOperation root, const RockGpuTarget *t, char *chip,
                   size_t n);

struct RockAttn;
/* Lowers the rock.gridwise_attention `op` (analysed into `a`, a->tgt set)
 * on the tile-product emitters when they apply (module rock.arch with a
 * matrix instruction, f16 / bf16, Sq·R >= 16, ...): 1 on success, 0 after
 * signalling `pass` failure, -1 when they do not apply (nothing done). */
int rock__gpuAttnAccel(MlirOperation op, MlirExternalPass pass,
                       struct RockAttn *a);
/* The same for the sm_90a prefill schedule on warpgroup MMA
 * (gpu/attention_wgmma.c), tried first. */
int rock__gpuAttnWgmma(MlirOperation op, MlirExternalPass pass,
                       struct RockAttn *a);

/* The sm_90 warpgroup-MMA schedule rock__gpuAttnWgmma would emit for `op`
 * (analysed into `a`), as one line into `buf`: true when it applies, false
 * (nothing written) otherwise. Reports nothing. */
bool rock__gpuAttnWgmmaPlan(MlirOperation op, const struct RockAttn *a,
                            char *buf, size_t len);

/* The tensor-core schedule rock__gpuAttnAccel would emit for `op` (analysed
 * into `a`), as one line into `buf` ("tc warps 4 rows 64 keys 64 ..."):
 * true when it applies, false (nothing written) when the SIMT schedule
 * would run. Reports nothing. */
bool rock__gpuAttnAccelPlan(MlirOperation op, const struct RockAttn *a,
                            char *buf, size_t len);

/* The schedule rock-gridwise-attention-to-gpu would emit for the
 * rock.gridwise_attention `op` under its knobs (tensor-core or SIMT, the
 * shape and the internal split) as one line into `buf`; two ops with the
 * same line lower to the same kernels. False when `op` would not lower.
 * Reports nothing (the tuning space, capi/lib/tuning_space.c, tells
 * perf_configs apart with it). */
bool rock__gpuAttnPlan(MlirOperation op, char *buf, size_t len);

/*===----------------------------------------------------------------------===
 * Pass registration (one per pass file)
 *===----------------------------------------------------------------------===*/

void rockFoldTransformsPassRegister(void);
void rockLowerViewsPassRegister(void);
void rockAttentionToGridwisePassRegister(void);
void rockLowerGridwiseAttentionPassRegister(void);
void rockLowerCombinePassRegister(void);
void rockGridwiseAttentionToGpuPassRegister(void);
void rockCombineToGpuPassRegister(void);
void rockGpuAttachTargetPassRegister(void);
void rockGpuMarkDependentsPassRegister(void);
void rockGpuAsyncCopyPassRegister(void);
void rockGpuToLlvmPassRegister(void);
void rockAccelGemmPassRegister(void);
void rockGpuToBinaryPassRegister(void);
void rockGpuToCubinPassRegister(void);

#endif
