/*===- perf_db.c - the perf DB: tuning keys to perf_configs ---------------===*
 *
 * rockPerfDbLookup, rockPerfDbDefaultPath and rockAttentionResolvePerfConfig
 * (rock-c/Tuning.h). The format (docs/tuning.md) is rocMLIR's tuning TSV
 * made rock's: `#` lines are comments, one of them the header
 *   # arch<TAB>numCUs<TAB>testVector<TAB>perfConfig<TAB>...
 * and each other non-empty line a row with the header's columns; the key of
 * a row is its first three fields, exactly the line of --emit-tuning-key.
 * The last row of a key wins, so a re-tune appended to a DB replaces the
 * entry. Any malformed line makes the whole file an error: a DB that is
 * half read would choose kernels silently.
 *
 *===----------------------------------------------------------------------===*/
#define _DEFAULT_SOURCE /* readlink */
#include "rock-c/Tuning.h"
#include "support/err.h"
#include "support/perf_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_COLUMNS = 32, REQUIRED_COLUMNS = 4 };

static const char *const required[REQUIRED_COLUMNS] = {
    "arch", "numCUs", "testVector", "perfConfig"};

/* Splits `line` (modified) at tabs into at most MAX_COLUMNS fields; returns
 * the count, or -1 for more. */
static int splitTabs(char *line, char **fields) {
  int n = 0;
  for (char *p = line;;) {
    if (n == MAX_COLUMNS)
      return -1;
    fields[n++] = p;
    char *tab = strchr(p, '\t');
    if (!tab)
      return n;
    *tab = 0;
    p = tab + 1;
  }
}

/* Reads the header line (after "# "); returns its column count, or 0 when
 * it is not one. */
static int headerColumns(char *text) {
  char *fields[MAX_COLUMNS];
  int n = splitTabs(text, fields);
  if (n < REQUIRED_COLUMNS)
    return 0;
  for (int i = 0; i < REQUIRED_COLUMNS; ++i)
    if (strcmp(fields[i], required[i]))
      return 0;
  return n;
}

static bool isInteger(const char *s) {
  if (!*s)
    return false;
  for (; *s; ++s)
    if (*s < '0' || *s > '9')
      return false;
  return true;
}

/* Checks one row (fields, n of them, `cols` expected); false with a reason
 * in `why`. */
static bool checkRow(char **f, int n, int cols, char *why, size_t whyLen) {
  if (n != cols) {
    snprintf(why, whyLen, "%d tab-separated fields, the header has %d", n,
             cols);
    return false;
  }
  if (!f[0][0] || !isInteger(f[1]) || !f[2][0]) {
    snprintf(why, whyLen,
             "arch, numCUs (an integer) and testVector must be "
             "set");
    return false;
  }
  RockPerfConfig pc;
  char err[512];
  if (!rockPerfConfigParse(f[3], strlen(f[3]), &pc, err, sizeof err)) {
    snprintf(why, whyLen, "%s", err);
    return false;
  }
  return true;
}

/* Whether the row's key (fields 0..2) is `key` (arch \t numCU \t vector). */
static bool rowHasKey(char **f, const char *key) {
  size_t a = strlen(f[0]), c = strlen(f[1]), v = strlen(f[2]);
  return strlen(key) == a + c + v + 2 && !strncmp(key, f[0], a) &&
         key[a] == '\t' && !strncmp(key + a + 1, f[1], c) &&
         key[a + 1 + c] == '\t' && !strcmp(key + a + c + 2, f[2]);
}

RockPerfDbStatus rockPerfDbLookup(const char *path, const char *key,
                                  char *perfConfig, size_t len, char *err,
                                  size_t errLen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    rock__fail(err, errLen, "cannot open perf DB '%s': %s", path,
               strerror(errno));
    return ROCK_PERF_DB_ERROR;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  int cols = 0, lineNo = 0;
  RockPerfDbStatus status = ROCK_PERF_DB_NO_ENTRY;
  while ((got = getline(&line, &cap, f)) >= 0) {
    ++lineNo;
    while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
      line[--got] = 0;
    if (got == 0)
      continue;
    if (line[0] == '#') {
      if (!cols && !strncmp(line, "# ", 2))
        cols = headerColumns(line + 2);
      continue;
    }
    char why[448];
    char *fields[MAX_COLUMNS];
    int n = splitTabs(line, fields);
    if (!cols)
      snprintf(why, sizeof why,
               "a row before the header line '# arch<TAB>numCUs<TAB>"
               "testVector<TAB>perfConfig...'");
    if (!cols || !checkRow(fields, n, cols, why, sizeof why)) {
      rock__fail(err, errLen, "perf DB '%s' line %d: %s", path, lineNo, why);
      status = ROCK_PERF_DB_ERROR;
      break;
    }
    if (rowHasKey(fields, key)) {
      snprintf(perfConfig, len, "%s", fields[3]);
      status = ROCK_PERF_DB_FOUND;
    }
  }
  if (status != ROCK_PERF_DB_ERROR && ferror(f)) {
    rock__fail(err, errLen, "cannot read perf DB '%s'", path);
    status = ROCK_PERF_DB_ERROR;
  } else if (status != ROCK_PERF_DB_ERROR && !cols) {
    rock__fail(err, errLen,
               "perf DB '%s' has no header line '# arch<TAB>numCUs<TAB>"
               "testVector<TAB>perfConfig...'",
               path);
    status = ROCK_PERF_DB_ERROR;
  }
  free(line);
  fclose(f);
  return status;
}

const char *rockPerfDbDefaultPath(void) {
  static char path[4096];
  char exe[4000];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return NULL;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return NULL;
  *slash = 0;
  snprintf(path, sizeof path, "%s/../share/rock/perf-db.tsv", exe);
  return access(path, R_OK) == 0 ? path : NULL;
}

RockPerfSource rockAttentionResolvePerfConfig(const RockAttentionConfig *cfg,
                                              const char *arch, int64_t numCu,
                                              const char *dbPath,
                                              char *perfConfig, size_t len,
                                              char *err, size_t errLen) {
  if (errLen)
    err[0] = 0;
  if (len)
    perfConfig[0] = 0;
  if (cfg->perfConfig && cfg->perfConfig[0]) {
    snprintf(perfConfig, len, "%s", cfg->perfConfig);
    return ROCK_PERF_GIVEN;
  }
  if (!dbPath)
    return ROCK_PERF_HEURISTIC;
  size_t keyLen = rockAttentionTuningKey(cfg, arch, numCu, NULL, 0);
  char *key = malloc(keyLen + 1);
  if (!key) {
    rock__fail(err, errLen, "out of memory");
    return ROCK_PERF_HEURISTIC;
  }
  rockAttentionTuningKey(cfg, arch, numCu, key, keyLen + 1);
  RockPerfDbStatus st =
      rockPerfDbLookup(dbPath, key, perfConfig, len, err, errLen);
  free(key);
  if (st == ROCK_PERF_DB_FOUND)
    return ROCK_PERF_FROM_DB;
  if (len)
    perfConfig[0] = 0;
  return ROCK_PERF_HEURISTIC;
}
