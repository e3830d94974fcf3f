//===- rock_run_gpu.c - run and verify a GPU kernel bundle ----------------===//
//
// rock-run-gpu BUNDLE [flags]: runs a bundle written by `rock-run
// --compile-only -o BUNDLE` on the machine's NVIDIA GPU (the CUDA driver is
// loaded at run time; no MLIR, no CUDA toolkit), with the inputs generated
// from the bundle's harness and the results verified against the f64
// reference exactly as rock-run does (runtime/session.h): same flags, same
// `[r a d]` line, same exit codes (0 pass, 1 a gate failed, 2 usage, 3
// input, bundle or device error, one line on stderr). --time measures on the
// device (runtime/gpu_run.h). --check needs no GPU: it generates the inputs,
// checks the bundle against the harness and prints the kernel-parameter
// mapping of every launch.
//
//===----------------------------------------------------------------------===//
#include "bundle.h"
#include "gpu_run.h"
#include "session.h"

#include <stdio.h>
#include <stdlib.h>

static bool checkOnly;

static void usage(FILE *f) {
  fprintf(f, "usage: rock-run-gpu BUNDLE [--check] [-v] [--time]\n"
             "                [--kernel-repeats N] [--dump-dir DIR]\n"
             "                [-RMS_threshold X] [-absDiff_threshold X]\n"
             "                [-relDiff_threshold X] [--comparator "
             "legacy|allclose]\n"
             "                [-atol X] [-rtol X] [-pr] [-pi] [-pvr]\n");
}

int main(int argc, char **argv) {
  RockRunOptions o;
  const RockToolFlag flags[] = {{"check", &checkOnly, NULL}};
  int status =
      rockRunOptionsParse("rock-run-gpu", argc, argv, &o, flags, 1, usage);
  if (status >= 0)
    return status;
  if (!o.input) {
    fprintf(stderr, "rock-run-gpu: no bundle given (see rock-run-gpu "
                    "--help)\n");
    return ROCK_EXIT_USAGE;
  }
  RockBundle *b = calloc(1, sizeof *b);
  if (!b)
    return rockReportError("rock-run-gpu", "out of memory");
  char err[512];
  if (!rockBundleRead(o.input, b, err, sizeof err))
    status = rockReportError("rock-run-gpu", "%s", err);
  else if (checkOnly)
    status = rockGpuCheckBundle("rock-run-gpu", b, &o);
  else
    status = rockGpuRunBundle("rock-run-gpu", b, &o, b->compileMs);
  rockBundleDestroy(b);
  free(b);
  return status;
}
