//===- gpu_run.h - run a kernel bundle on an NVIDIA GPU -----------*- C -*-===//
//
// The GPU backend of the run session (session.h): loads a bundle's objects
// through the CUDA driver (cuda.h, loaded at run time), copies the session's
// host arguments to the device (page tables rewritten to device addresses
// into device copies of the page pools), launches each function's kernels in
// order with the bundle's parameter mapping, and copies the results back.
// With --time it measures on the device: CUDA events around groups of
// back-to-back launches after a warm-up, the L2 kept cold by rotating among
// device copies of the inputs whose total is at least 4x the L2.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_GPU_RUN_H
#define ROCK_RUNTIME_GPU_RUN_H

#include "bundle.h"
#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Runs `b` (borrowed) on device 0 and verifies it as rock-run does; prints
/// the `[r a d]` verdict. `compileMs` is reported as compile_time_ms.
/// Returns the exit status (session.h); without a GPU driver, one line on
/// stderr and ROCK_EXIT_ERROR before any input is generated.
int rockGpuRunBundle(const char *tool, const RockBundle *b,
                     const RockRunOptions *o, double compileMs);

/// Without a GPU: generates the inputs, checks the bundle's functions
/// against the harness, and prints the kernel-parameter mapping of every
/// launch by argument role (and the inputs with -pi). Returns the exit
/// status.
int rockGpuCheckBundle(const char *tool, const RockBundle *b,
                       const RockRunOptions *o);

#ifdef __cplusplus
}
#endif

#endif
