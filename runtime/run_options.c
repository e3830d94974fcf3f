//===- run_options.c - the command line the runners share -----------------===//
#include "run_options.h"

#include "mutate.h"
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usageError(const char *tool, const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", tool);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see %s --help)\n", tool);
  return ROCK_EXIT_USAGE;
}

static bool parseDouble(const char *s, double *out) {
  char *end = NULL;
  errno = 0;
  *out = strtod(s, &end);
  return *s && !*end && errno == 0;
}

static bool parseBoolValue(const char *v, bool *out) {
  if (!v || !strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "1")) {
    *out = true;
    return true;
  }
  if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "0")) {
    *out = false;
    return true;
  }
  return false;
}

/// The boolean flag `name` of the common set or of `flags`, or NULL.
static bool *findFlag(RockRunOptions *o, const char *name,
                      const RockToolFlag *flags, int numFlags) {
  if (!strcmp(name, "v"))
    return &o->verbose;
  if (!strcmp(name, "time"))
    return &o->time;
  if (!strcmp(name, "pr") || !strcmp(name, "print-results"))
    return &o->printResults;
  if (!strcmp(name, "pi") || !strcmp(name, "print-inputs"))
    return &o->printInputs;
  if (!strcmp(name, "pvr") || !strcmp(name, "print-validation-results"))
    return &o->printValidation;
  for (int k = 0; k < numFlags; ++k)
    if (flags[k].value && !strcmp(name, flags[k].name))
      return flags[k].value;
  return NULL;
}

/// The text option `name` among the tool's `flags`, or NULL.
static const char **findText(const char *name, const RockToolFlag *flags,
                             int numFlags) {
  for (int k = 0; k < numFlags; ++k)
    if (flags[k].text && !strcmp(name, flags[k].name))
      return flags[k].text;
  return NULL;
}

/// Applies valued option `name` = `value`; returns -1 or an exit status.
static int setValued(const char *tool, RockRunOptions *o, const char *name,
                     const char *value, const char *arg) {
  if (!strcmp(name, "kernel-repeats") || !strcmp(name, "kernel_repeats")) {
    char *end = NULL;
    long long n = strtoll(value, &end, 10);
    if (!*value || *end || n < 1)
      return usageError(
          tool, "--kernel-repeats needs a positive integer, got '%s'", value);
    o->kernelRepeats = n;
    return -1;
  }
  if (!strcmp(name, "dump-dir")) {
    o->dumpDir = value;
    return -1;
  }
  if (!strcmp(name, "testing-mutate")) {
    RockMutation m;
    if (!rockMutationParse(value, &m))
      return usageError(tool,
                        "unknown mutation '%s' (element, row-shift, "
                        "scale-ignored, split-dropped, lse)",
                        value);
    o->mutate = value;
    return -1;
  }
  if (!strcmp(name, "comparator")) {
    if (!strcmp(value, "allclose"))
      o->comparator = 1;
    else if (!strcmp(value, "legacy"))
      o->comparator = 0;
    else
      return usageError(tool, "unknown comparator '%s'", value);
    return -1;
  }
  double *dst = NULL;
  bool *has = NULL;
  if (!strcmp(name, "RMS_threshold"))
    dst = &o->rms, has = &o->hasRms;
  else if (!strcmp(name, "absDiff_threshold"))
    dst = &o->absDiff, has = &o->hasAbsDiff;
  else if (!strcmp(name, "relDiff_threshold"))
    dst = &o->relDiff, has = &o->hasRelDiff;
  else if (!strcmp(name, "atol"))
    dst = &o->atol, has = &o->hasAtol;
  else if (!strcmp(name, "rtol"))
    dst = &o->rtol, has = &o->hasRtol;
  else
    return usageError(tool, "unknown option '%s'", arg);
  if (!parseDouble(value, dst))
    return usageError(tool, "bad number '%s'", value);
  *has = true;
  return -1;
}

int rockRunOptionsParse(const char *tool, int argc, char **argv,
                        RockRunOptions *o, const RockToolFlag *flags,
                        int numFlags, void (*usage)(FILE *)) {
  memset(o, 0, sizeof *o);
  o->comparator = -1;
  static const char *const valued[] = {
      "kernel-repeats", "kernel_repeats",    "dump-dir",          "comparator",
      "RMS_threshold",  "absDiff_threshold", "relDiff_threshold", "atol",
      "rtol",           "testing-mutate"};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (a[0] != '-' || !strcmp(a, "-")) {
      if (o->input)
        return usageError(tool, "more than one input file: '%s'", a);
      o->input = a;
      continue;
    }
    char name[64];
    const char *s = a + (a[1] == '-' ? 2 : 1);
    const char *eq = strchr(s, '=');
    size_t len = eq ? (size_t)(eq - s) : strlen(s);
    if (len >= sizeof name)
      return usageError(tool, "unknown option '%s'", a);
    memcpy(name, s, len);
    name[len] = 0;
    const char *inlineValue = eq ? eq + 1 : NULL;
    if (!strcmp(name, "h") || !strcmp(name, "help")) {
      usage(stdout);
      return ROCK_EXIT_PASS;
    }
    bool *flag = findFlag(o, name, flags, numFlags);
    if (flag) {
      if (!parseBoolValue(inlineValue, flag))
        return usageError(tool, "bad value for '%s'", a);
      continue;
    }
    // Options with a value: -f v or -f=v.
    const char **text = findText(name, flags, numFlags);
    bool known = text != NULL;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; ++k)
      known |= !strcmp(name, valued[k]);
    if (!known)
      return usageError(tool, "unknown option '%s'", a);
    const char *value = inlineValue;
    if (!value) {
      if (i + 1 >= argc)
        return usageError(tool, "option '%s' needs a value", a);
      value = argv[++i];
    }
    if (text) {
      if (!*value)
        return usageError(tool, "option '%s' needs a value", a);
      *text = value;
      continue;
    }
    int status = setValued(tool, o, name, value, a);
    if (status >= 0)
      return status;
  }
  return -1;
}
