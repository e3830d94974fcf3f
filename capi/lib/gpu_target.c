/*===- gpu_target.c - parsing GPU target names -----------------------------===*
 *
 * rockGpuTargetParse (rock-c/GpuTarget.h): sm_<N>[a] and rocMLIR's AMD
 * spellings, with the chip's wave size and tile-product family.
 *
 *===----------------------------------------------------------------------===*/
#include "rock-c/GpuTarget.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool fail(char *err, size_t n, const char *arch, const char *why) {
  if (n)
    snprintf(err, n, "invalid --arch '%s': %s", arch, why);
  return false;
}

/* SMs / CUs of the largest part of a chip (RockGpuTarget.numCu). */
static int defaultNumCu(const char *chip) {
  static const struct {
    const char *chip;
    int cu;
  } known[] = {{"sm_80", 108},  {"sm_90", 132},  {"sm_90a", 132},
               {"gfx908", 120}, {"gfx90a", 110}, {"gfx942", 304},
               {"gfx950", 256}, {"gfx1100", 96}, {"gfx1201", 64}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
    if (!strcmp(chip, known[i].chip))
      return known[i].cu;
  return 64;
}

static bool parseSm(const char *arch, RockGpuTarget *t, char *err, size_t n) {
  const char *p = arch + 3;
  int v = 0, digits = 0;
  while (isdigit((unsigned char)*p) && digits < 4) {
    v = v * 10 + (*p++ - '0');
    ++digits;
  }
  if (*p == 'a')
    ++p;
  if (digits == 0 || *p != '\0')
    return fail(err, n, arch, "expected cpu, sm_<digits>[a] or gfx<id>");
  t->vendor = ROCK_GPU_NVIDIA;
  snprintf(t->chip, sizeof t->chip, "%s", arch);
  t->smVersion = v;
  t->waveSize = 32;
  t->accel = v >= 80 ? ROCK_ACCEL_MMA_SYNC : ROCK_ACCEL_NONE;
  t->numCu = defaultNumCu(t->chip);
  return true;
}

/* gfx908 / gfx90a / gfx94x / gfx950 have MFMA; gfx12xx has gfx12 WMMA. */
static RockGpuAccel amdAccel(const char *id, int major) {
  if (major == 9)
    return (!strcmp(id, "908") || !strcmp(id, "90a") || !strncmp(id, "94", 2) ||
            !strcmp(id, "950"))
               ? ROCK_ACCEL_MFMA
               : ROCK_ACCEL_NONE;
  return major == 12 ? ROCK_ACCEL_WMMA12 : ROCK_ACCEL_NONE;
}

/* gfx<id>[:feature(+|-)]...: id is 3 or 4 hex digits starting with a digit
 * (gfx90a, gfx942, gfx1201); the features are sramecc and xnack, once each. */
static bool parseGfx(const char *arch, const char *s, RockGpuTarget *t,
                     char *err, size_t n) {
  const char *id = s + 3;
  size_t len = strcspn(id, ":");
  if (len < 3 || len > 4 || !isdigit((unsigned char)id[0]))
    return fail(err, n, arch, "expected cpu, sm_<digits>[a] or gfx<id>");
  for (size_t i = 0; i < len; ++i)
    if (!isdigit((unsigned char)id[i]) && !(id[i] >= 'a' && id[i] <= 'f'))
      return fail(err, n, arch, "expected cpu, sm_<digits>[a] or gfx<id>");
  char sid[5];
  memcpy(sid, id, len);
  sid[len] = '\0';
  int major = len == 3 ? sid[0] - '0' : (sid[0] - '0') * 10 + (sid[1] - '0');
  char state[2] = {0, 0}; /* sramecc, xnack: '+', '-' or 0 */
  static const char *const names[2] = {"sramecc", "xnack"};
  for (const char *p = id + len; *p == ':';) {
    ++p;
    size_t fl = strcspn(p, ":");
    if (fl < 2 || (p[fl - 1] != '+' && p[fl - 1] != '-'))
      return fail(err, n, arch, "a target feature is <name>+ or <name>-");
    int k = -1;
    for (int i = 0; i < 2; ++i)
      if (strlen(names[i]) == fl - 1 && !strncmp(p, names[i], fl - 1))
        k = i;
    if (k < 0)
      return fail(err, n, arch, "the target features are sramecc and xnack");
    if (state[k])
      return fail(err, n, arch, "a target feature is given twice");
    state[k] = p[fl - 1];
    p += fl;
  }
  t->vendor = ROCK_GPU_AMD;
  snprintf(t->chip, sizeof t->chip, "gfx%s", sid);
  t->gfxMajor = major;
  t->waveSize = major == 9 ? 64 : 32;
  t->accel = amdAccel(sid, major);
  t->numCu = defaultNumCu(t->chip);
  /* LLVM features ("+sramecc,-xnack") and the canonical target id, whose
   * features are in alphabetical order whatever order they were given in. */
  size_t fo = 0;
  int io = snprintf(t->targetId, sizeof t->targetId, "amdgcn-amd-amdhsa--%s",
                    t->chip);
  for (int i = 0; i < 2; ++i) {
    if (!state[i])
      continue;
    fo += (size_t)snprintf(t->features + fo, sizeof t->features - fo, "%s%c%s",
                           fo ? "," : "", state[i], names[i]);
    io += snprintf(t->targetId + io, sizeof t->targetId - (size_t)io, ":%s%c",
                   names[i], state[i]);
  }
  return true;
}

bool rockGpuTargetParse(const char *arch, RockGpuTarget *t, char *err,
                        size_t errSize) {
  memset(t, 0, sizeof *t);
  if (errSize)
    err[0] = '\0';
  if (!arch)
    return true;
  if (!strncmp(arch, "sm_", 3))
    return parseSm(arch, t, err, errSize);
  static const char *const triples[2] = {"amdgcn-amd-amdhsa:",
                                         "amdgcn-amd-amdhsa--"};
  for (int i = 0; i < 2; ++i) {
    size_t tl = strlen(triples[i]);
    if (!strncmp(arch, triples[i], tl)) {
      if (strncmp(arch + tl, "gfx", 3))
        return fail(err, errSize, arch,
                    "expected gfx<id> after amdgcn-amd-amdhsa");
      return parseGfx(arch, arch + tl, t, err, errSize);
    }
  }
  if (!strncmp(arch, "gfx", 3))
    return parseGfx(arch, arch, t, err, errSize);
  return true;
}
