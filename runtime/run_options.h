//===- run_options.h - the command line the runners share ---------*- C -*-===//
//
// rock-run and rock-run-gpu take the same run flags (-v, --time, thresholds,
// comparator, prints, dumps); each adds its own options through
// RockToolFlag. Exit statuses are session.h's.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_RUNTIME_RUN_OPTIONS_H
#define ROCK_RUNTIME_RUN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Command-line settings shared by the runners
//===----------------------------------------------------------------------===//

/// Settings a runner's command line gives; they win over the harness.
typedef struct RockRunOptions {
  const char *input; ///< file name, or NULL / "-" for stdin (borrowed)
  bool verbose, time, printResults, printInputs, printValidation;
  int64_t kernelRepeats; ///< 0 = from the harness
  const char *dumpDir;   ///< borrowed; NULL = no dumps
  bool hasRms, hasAbsDiff, hasRelDiff, hasAtol, hasRtol;
  double rms, absDiff, relDiff, atol, rtol;
  int comparator; ///< -1 harness, 0 legacy, 1 allclose
  /// `--testing-mutate=KIND` (tests only, runtime/mutate.h): a planted wrong
  /// result; NULL = none. Borrowed.
  const char *mutate;
  /// rock-run --time-probe: with --time, a plain read of K and V on this
  /// many threads after each kernel run (runtime/read_probe.h); 0 = none.
  int probeThreads;
} RockRunOptions;

/// An option of one runner only: a boolean flag (e.g. rock-run's
/// --no-auto-split) when `value` is set, or an option with a text value
/// (e.g. rock-run's --cpu NAME) when `text` is set.
typedef struct RockToolFlag {
  const char *name;  ///< without dashes, e.g. "no-auto-split"
  bool *value;       ///< borrowed; set from `-name`, `--name` or `--name=B`
  const char **text; ///< borrowed; set from `-name V` or `-name=V` (into argv)
} RockToolFlag;

/// Parses `argv[1..argc)` into `o` (zeroed first) and the tool's own
/// `flags` (`numFlags` of them). `-h`/`--help` prints `usage` to stdout.
/// Returns -1 to continue, or an exit status (0 after --help; ROCK_EXIT_USAGE
/// after a one-line "<tool>: ..." message on stderr). Everything is borrowed;
/// `o` points into `argv`.
int rockRunOptionsParse(const char *tool, int argc, char **argv,
                        RockRunOptions *o, const RockToolFlag *flags,
                        int numFlags, void (*usage)(FILE *));

#ifdef __cplusplus
}
#endif

#endif
