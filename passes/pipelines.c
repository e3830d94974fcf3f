/*===- pipelines.c - the texts of rock's named pipelines ------------------===*
 *
 * Data only: registry.c registers these texts and adds them to pass
 * managers (rockAddCpuPipeline).
 *
 *===----------------------------------------------------------------------===*/
#include "rock-c/Passes.h"

static const char cpuPipeline[] =
    "rock-attention-to-gridwise,"
    "rock-lower-combine,"
    "rock-lower-gridwise-attention,"
    "rock-lower-views,"
    "rock-fold-transforms,"
    "canonicalize,cse,"
    "convert-scf-to-openmp,"
    /* scf-to-openmp wraps each parallel body in memref.alloca_scope, which
     * must stay single-block: canonicalize inlines the scopes that hold no
     * alloca before scf-to-cf splits the bodies into blocks. */
    "canonicalize,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "convert-vector-to-llvm,"
    "convert-openmp-to-llvm,"
    "expand-strided-metadata,"
    "convert-math-to-llvm,"
    "convert-arith-to-llvm,"
    "finalize-memref-to-llvm,"
    "convert-cf-to-llvm,"
    "convert-func-to-llvm,"
    "convert-ub-to-llvm,"
    "reconcile-unrealized-casts";

const char *rockCpuPipelineGetText(void) { return cpuPipeline; }
