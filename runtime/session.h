//===- session.h - one verified attention run of the runners ------*- C -*-===//
//
// The run session of rock-run (CPU JIT) and rock-run-gpu (CUDA driver): from
// the harness it allocates the kernel arguments in kernel order, fills them
// from the seed, builds the shuffled paged caches and checks their page
// tables, invokes the kernel (and the module's combine) through a backend
// callback, combines on the host when the module has no combine, applies the
// threshold precedence (command line over harness over per-dtype defaults),
// verifies against the f64 reference, prints the `[r a d]` verdict and writes
// the dumps. No MLIR: the CLI that compiled the kernel passes only the
// harness and a backend.
//
// Exit status of the runners: ROCK_EXIT_PASS all gates passed, ROCK_EXIT_GATE
// a gate failed, ROCK_EXIT_USAGE usage error, ROCK_EXIT_ERROR input, harness,
// compile, JIT or device error (one line on stderr).
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_SESSION_H
#define ROCK_RUNTIME_SESSION_H

#include "buffer.h"
#include "harness_types.h"
#include "paged.h"
#include "run_options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  ROCK_EXIT_PASS = 0,
  ROCK_EXIT_GATE = 1,
  ROCK_EXIT_USAGE = 2,
  ROCK_EXIT_ERROR = 3,
};

/// Prints "<tool>: error: <message>" as one line on stderr and returns
/// ROCK_EXIT_ERROR. `tool` and `fmt` are borrowed.
int rockReportError(const char *tool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

//===----------------------------------------------------------------------===//
// The session
//===----------------------------------------------------------------------===//

/// One kernel argument: its role name (static) and its host buffer.
typedef struct RockSessionArg {
  const char *role;
  RockBuffer *buf;
} RockSessionArg;

/// Most arguments a kernel has (Q, K, V, quant bias/scale, scale, bias,
/// currentSeqLen, prefixOffset, LSE, out).
#define ROCK_SESSION_MAX_ARGS 12

/// All host state of one run. Owned by the caller (usually on the stack);
/// zero-initialise, fill with rockSessionPrepare, free with
/// rockSessionDestroy. The buffers are owned by the session.
typedef struct RockSession {
  const char *tool;     ///< borrowed, for messages
  const RockHarness *h; ///< borrowed
  bool hasCombine;      ///< the module's combine runs (else the host's)
  uint64_t seed;        ///< the seed the inputs were drawn with
  RockSessionArg args[ROCK_SESSION_MAX_ARGS]; ///< kernel order
  int numArgs;
  RockSessionArg combineArgs[4]; ///< partial out, partial LSE, out, LSE
  RockBuffer *q, *k, *v, *quantBias, *quantScale, *scale, *bias;
  RockBuffer *currentSeqLen, *prefixOffset, *lsePartial, *outPartial;
  RockBuffer *out, *lse; ///< final (combined) results; alias partials if S=1
  RockPagedCache *kCache, *vCache; ///< paged problems only
  double *refOut, *refLse, *resOut, *resLse;
  double fillMs, referenceMs; ///< phase times, for -v
} RockSession;

/// Allocates the arguments in kernel order, fills the inputs from the
/// harness's seed (kernel argument order, one stream), builds the shuffled
/// paged caches (page-table entries are host addresses into the pools),
/// sets the outputs to NaN, allocates the combined outputs when split_kv > 1
/// and checks the page tables. `hasCombine`: the module has
/// @rock_attention_combine. A paged run keeps no logical K / V (each is cut
/// into its page pool and freed; the reference reads the pools) unless
/// `keepLogical` (needed to print or dump the inputs). Returns an exit
/// status after a one-line message.
int rockSessionPrepare(RockSession *s, const char *tool, const RockHarness *h,
                       bool hasCombine, bool keepLogical);

/// The `keepLogical` a run with options `o` and harness `h` needs: printing
/// or dumping the inputs reads the logical K / V.
bool rockSessionNeedsLogical(const RockRunOptions *o, const RockHarness *h);

/// What runs the kernels. Every callback gets `user`.
typedef struct RockSessionBackend {
  void *user;
  /// Runs function `name` ("rock_attention" or "rock_attention_combine") on
  /// the host buffers `args[0..n)` (borrowed, kernel order), leaving its
  /// results in them. On failure returns false, with a one-line reason in
  /// `err` (errSize bytes) or "" for "cannot invoke <name>".
  bool (*invoke)(void *user, const char *name, RockBuffer *const *args, int n,
                 char *err, size_t errSize);
  /// Optional (-v): prints the backend's phase lines after the metrics.
  void (*printPhases)(void *user, const RockSession *s);
  /// Optional (--time): measures the kernel itself, writing the median and
  /// best time of one launch in ms. Without it the session times `invoke`
  /// with the host clock. Returns false with a reason in `err`.
  bool (*time)(void *user, const RockSession *s, double *medianMs,
               double *minMs, char *err, size_t errSize);
} RockSessionBackend;

/// Prints the inputs if asked, runs the kernel `kernelRepeats` times (the
/// last run is verified), re-checks the page tables, combines the splits,
/// verifies, prints the details, dumps and the verdict (and with --time
/// compile_time_ms = `compileMs` and the kernel times). Returns the exit
/// status. Everything is borrowed.
int rockSessionRun(RockSession *s, const RockRunOptions *o,
                   const RockSessionBackend *be, double compileMs);

/// Sets every output buffer (out, LSE, their partials) to NaN again, as
/// rockSessionPrepare leaves them: before a verified run that follows other
/// runs (rock-run --tune-configs), so that an element the verified kernel
/// does not write still fails.
void rockSessionResetOutputs(RockSession *s);

/// Runs the kernel `repeats` times with the host clock (as rockSessionRun
/// does, and the module's combine of a user split once, its time added to
/// each run) into `times`; no verification, no output. Returns the exit
/// status (ROCK_EXIT_PASS, or an error after a one-line message).
int rockSessionTimeKernel(RockSession *s, const RockSessionBackend *be,
                          double *times, int64_t repeats);

/// Prints the input arguments (not the outputs) and, for paged problems, the
/// logical K and V, as -pi does.
void rockSessionPrintInputs(const RockSession *s);

/// Frees everything the session owns; the struct itself stays the caller's.
void rockSessionDestroy(RockSession *s);

#ifdef __cplusplus
}
#endif

#endif
