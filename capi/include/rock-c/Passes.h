//===- Passes.h - rock pass creation and registration ------------*- C -*-===//
//
// Creates rock's passes and registers them, and rock's named pipelines,
// globally, so that pipeline strings (rock-opt, mlir-opt with the plugin,
// mlirParsePassPipeline) can name them.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_C_PASSES_H
#define ROCK_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest `rock.num_threads` (the i64 module or op attribute that tells
/// rock-lower-gridwise-attention how many threads will run the kernel) the
/// lowering accepts; a larger value is an error at the lowered op.
#define ROCK_MAX_NUM_THREADS 65536

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// Registers every rock pass and pipeline (rock-cpu-pipeline, ...) in MLIR's
/// global pass registry. Idempotent and thread-safe: registration runs once
/// (C11 call_once) whichever thread calls first, and every call returns after
/// it has completed. Call it before parsing a pipeline that names rock passes.
MLIR_CAPI_EXPORTED void rockRegisterAllPasses(void);

/// Registers an external (C) pass globally; the signature of upstream's
/// future mlirRegisterExternalPass. `name`, `argument`, `description` and
/// `opName` are copied. `dependentDialects` (size `nDependentDialects`) is
/// copied. Every pass instance the registry creates gets its own user data
/// from `callbacks.clone(userData)`, so `userData` is a template that must
/// live as long as the process. An empty `argument` is a fatal error.
MLIR_CAPI_EXPORTED void
rockRegisterExternalPass(MlirTypeID passID, MlirStringRef name,
                         MlirStringRef argument, MlirStringRef description,
                         MlirStringRef opName, intptr_t nDependentDialects,
                         MlirDialectHandle *dependentDialects,
                         MlirExternalPassCallbacks callbacks, void *userData);

/// Registers a named pipeline `argument` that expands to `elements` (a
/// pipeline string without anchor, e.g. "func.func(a,b),c"). All strings are
/// copied. An `elements` string that fails to parse makes every later use of
/// the pipeline fail with the parser's diagnostic.
MLIR_CAPI_EXPORTED void rockRegisterPassPipeline(MlirStringRef argument,
                                                 MlirStringRef description,
                                                 MlirStringRef elements);

//===----------------------------------------------------------------------===//
// Pass creation. Each returns a new pass owned by the caller until it is added
// with mlirPassManagerAddOwnedPass / mlirOpPassManagerAddOwnedPass.
//===----------------------------------------------------------------------===//

/// rock-fold-transforms: folds chains of rock.transform into one op with a
/// composed map and erases identity transforms.
MLIR_CAPI_EXPORTED MlirPass rockFoldTransformsPassCreate(void);
/// rock-lower-views: resolves rock.view_load / rock.view_store through
/// rock.transform chains and rock.deref into index math and memory accesses.
MLIR_CAPI_EXPORTED MlirPass rockLowerViewsPassCreate(void);
/// rock-attention-to-gridwise: normalizes rock.attention into
/// rock.gridwise_attention (+ rock.attention_combine when splitKV > 1).
MLIR_CAPI_EXPORTED MlirPass rockAttentionToGridwisePassCreate(void);
/// rock-lower-gridwise-attention: lowers rock.gridwise_attention to loops.
MLIR_CAPI_EXPORTED MlirPass rockLowerGridwiseAttentionPassCreate(void);
/// rock-lower-combine: lowers rock.attention_combine to loops.
MLIR_CAPI_EXPORTED MlirPass rockLowerCombinePassCreate(void);
/// rock-gridwise-attention-to-gpu: lowers rock.gridwise_attention to a
/// gpu.launch (plus scratch partials and a combine launch when it splits).
MLIR_CAPI_EXPORTED MlirPass rockGridwiseAttentionToGpuPassCreate(void);
/// rock-combine-to-gpu: lowers rock.attention_combine to a gpu.launch.
MLIR_CAPI_EXPORTED MlirPass rockCombineToGpuPassCreate(void);
/// rock-gpu-attach-target: sets each gpu.module's targets from the
/// builtin.module's mhal.arch (or rock.arch) (e.g. "sm_90" -> #nvvm.target<chip
/// = "sm_90">).
MLIR_CAPI_EXPORTED MlirPass rockGpuAttachTargetPassCreate(void);
/// rock-gpu-mark-dependents: sets the unit attribute rock.pdl on each
/// gpu.launch_func whose kernel executes `nvvm.griddepcontrol wait` (a
/// programmatic dependent launch; passes/gpu/mark_dependents.c).
MLIR_CAPI_EXPORTED MlirPass rockGpuMarkDependentsPassCreate(void);
/// rock-gpu-async-copy: turns the staging stores a GPU schedule marked
/// rock.async_copy (a 16-byte global vector.load stored to workgroup memory)
/// into nvgpu.device_async_copy on NVIDIA; other marked stores stay plain.
MLIR_CAPI_EXPORTED MlirPass rockGpuAsyncCopyPassCreate(void);
/// rock-gpu-to-binary: lowers the gpu.modules for the builtin.module's
/// mhal.arch (NVVM or ROCDL, bare-pointer kernel arguments) and serialises
/// them: PTX for NVIDIA, an hsaco for AMD (needs a ROCm-layout toolkit:
/// ROCK_ROCM_TOOLKIT or the one the build made; docs/gpu-amd.md).
MLIR_CAPI_EXPORTED MlirPass rockGpuToBinaryPassCreate(void);
/// rock-gpu-to-cubin: rock-gpu-to-binary with a cubin for NVIDIA.
MLIR_CAPI_EXPORTED MlirPass rockGpuToCubinPassCreate(void);
/// rock-gpu-to-llvm: rock-gpu-to-binary without the serialisation (the
/// gpu.modules in the LLVM dialect with NVVM / ROCDL ops).
MLIR_CAPI_EXPORTED MlirPass rockGpuToLlvmPassCreate(void);
/// rock-accel-gemm: a GEMM on the tile-product emitters for each func.func
/// marked rock.accel_gemm (validates fragment layouts;
/// passes/gpu/accel_gemm.c).
MLIR_CAPI_EXPORTED MlirPass rockAccelGemmPassCreate(void);

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

/// The text of rock-cpu-pipeline (rock IR to the LLVM dialect for the host
/// CPU, workgroups in parallel through OpenMP), as a static string.
MLIR_CAPI_EXPORTED const char *rockCpuPipelineGetText(void);

/// Adds rock-cpu-pipeline's passes to `pm` (borrowed). Calls
/// rockRegisterAllPasses first. Returns failure, with a diagnostic on the
/// context, if the pipeline text does not parse.
MLIR_CAPI_EXPORTED MlirLogicalResult rockAddCpuPipeline(MlirOpPassManager pm);

/// The text of rock-gpu-pipeline (rock IR to gpu.launch_func on the host and a
/// gpu.binary holding PTX, or an hsaco for AMD, for the module's mhal.arch),
/// as a static string.
MLIR_CAPI_EXPORTED const char *rockGpuPipelineGetText(void);
/// The same ending in a cubin (gpu-module-to-binary{format=bin}): ptxas must
/// be found (PATH, CUDA_HOME or the toolkit MLIR was built with).
MLIR_CAPI_EXPORTED const char *rockGpuCubinPipelineGetText(void);

/// Adds rock-gpu-pipeline's passes to `pm` (borrowed), anchored on
/// builtin.module. Calls rockRegisterAllPasses first. Returns failure, with a
/// diagnostic on the context, if the pipeline text does not parse.
MLIR_CAPI_EXPORTED MlirLogicalResult rockAddGpuPipeline(MlirOpPassManager pm);

#ifdef __cplusplus
}
#endif

#endif
