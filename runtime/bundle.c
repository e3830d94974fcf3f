//===- bundle.c - GPU kernel bundles: compiled here, run elsewhere -------===//
#include "bundle.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// The harness as `harness <key> <value>` lines
//===----------------------------------------------------------------------===//

/// The integer and boolean fields of the harness, by rock.harness key.
typedef struct IntField {
  const char *key;
  size_t offset;
  bool isBool;
} IntField;

#define PF(key, field, isBool)                                                 \
  {key, offsetof(RockHarness, problem) + offsetof(RockAttnProblem, field),     \
   isBool}
#define HF(key, field, isBool) {key, offsetof(RockHarness, field), isBool}

static const IntField intFields[] = {
    PF("g", g, false),
    PF("num_heads_q", numHeadsQ, false),
    PF("num_heads_kv", numHeadsKV, false),
    PF("seq_len_q", seqLenQ, false),
    PF("seq_len_k", seqLenK, false),
    PF("head_dim_qk", headDimQK, false),
    PF("head_dim_v", headDimV, false),
    PF("split_kv", splitKV, false),
    PF("causal", causal, true),
    PF("return_lse", returnLse, true),
    PF("with_attn_scale", withScale, true),
    PF("with_attn_bias", withBias, true),
    PF("transQ", transQ, true),
    PF("transK", transK, true),
    PF("transV", transV, true),
    PF("transO", transO, true),
    PF("transBias", transBias, true),
    PF("paged", paged, true),
    PF("num_pages", numPages, false),
    PF("page_size", pageSize, false),
    PF("sliding_window_size", slidingWindow, false),
    PF("causal_look_back", causalLookBack, false),
    PF("strict", strict, true),
    PF("round_narrow", roundNarrow, true),
    HF("rand_type_float", randFloat, true),
    HF("rand_min_int", randMinInt, false),
    HF("rand_max_int", randMaxInt, false),
    HF("has_RMS_threshold", hasRms, true),
    HF("has_absDiff_threshold", hasAbsDiff, true),
    HF("has_relDiff_threshold", hasRelDiff, true),
    HF("has_atol", hasAtol, true),
    HF("has_rtol", hasRtol, true),
    HF("allclose", allclose, true),
    HF("kernel_repeats", kernelRepeats, false),
    HF("print_results", printResults, true),
    HF("print_inputs", printInputs, true),
    HF("print_validation_results", printValidation, true),
};

typedef struct RealField {
  const char *key;
  size_t offset;
} RealField;

static const RealField realFields[] = {
    {"rand_min", offsetof(RockHarness, randMin)},
    {"rand_max", offsetof(RockHarness, randMax)},
    {"RMS_threshold", offsetof(RockHarness, rms)},
    {"absDiff_threshold", offsetof(RockHarness, absDiff)},
    {"relDiff_threshold", offsetof(RockHarness, relDiff)},
    {"atol", offsetof(RockHarness, atol)},
    {"rtol", offsetof(RockHarness, rtol)},
};

typedef struct StrField {
  const char *key;
  size_t offset, size;
} StrField;

static const StrField strFields[] = {
    {"rand", offsetof(RockHarness, rand), sizeof(((RockHarness *)0)->rand)},
    {"print_verify_results", offsetof(RockHarness, printVerify),
     sizeof(((RockHarness *)0)->printVerify)},
    {"verifier", offsetof(RockHarness, verifier),
     sizeof(((RockHarness *)0)->verifier)},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void writeHarness(FILE *f, const RockHarness *h) {
  const char *base = (const char *)h;
  const RockAttnProblem *p = &h->problem;
  fprintf(f, "harness t %s\n", rockDTypeGetName(p->dtype));
  fprintf(f, "harness softmax_dtype %s\n", rockDTypeGetName(p->softmaxType));
  if (p->hasRegionType)
    fprintf(f, "harness region_dtype %s\n", rockDTypeGetName(p->regionType));
  for (size_t i = 0; i < COUNT(intFields); ++i) {
    const IntField *fd = &intFields[i];
    long long v = fd->isBool ? *(const bool *)(base + fd->offset)
                             : *(const int64_t *)(base + fd->offset);
    fprintf(f, "harness %s %lld\n", fd->key, v);
  }
  for (size_t i = 0; i < COUNT(realFields); ++i)
    fprintf(f, "harness %s %.17g\n", realFields[i].key,
            *(const double *)(base + realFields[i].offset));
  for (size_t i = 0; i < COUNT(strFields); ++i)
    fprintf(f, "harness %s %s\n", strFields[i].key, base + strFields[i].offset);
  const int64_t *lists[2] = {p->currentSeqLen, p->prefixOffset};
  const int64_t counts[2] = {p->numCurrentSeqLen, p->numPrefixOffset};
  const char *names[2] = {"current_seq_len", "prefix_offset"};
  for (int l = 0; l < 2; ++l) {
    fprintf(f, "harness %s %lld", names[l], (long long)counts[l]);
    for (int64_t i = 0; i < counts[l]; ++i)
      fprintf(f, " %lld", (long long)lists[l][i]);
    fprintf(f, "\n");
  }
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

static const char *paramKindName(RockParamKind k) {
  switch (k) {
  case ROCK_PARAM_ARG:
    return "arg";
  case ROCK_PARAM_SCRATCH:
    return "scratch";
  case ROCK_PARAM_I64:
    return "i64";
  case ROCK_PARAM_I32:
    return "i32";
  case ROCK_PARAM_F32:
    return "f32";
  case ROCK_PARAM_TMAP:
    return "tmap";
  }
  return "?";
}

static void writeTensorMap(FILE *f, int i, const RockBundleTensorMap *m) {
  fprintf(f, "tensor_map %d %s %d %s offset %lld rank %d dims", i,
          m->pool ? "pool" : "arg", m->arg, rockDTypeGetName(m->dtype),
          (long long)m->offset, m->rank);
  for (int d = 0; d < m->rank; ++d)
    fprintf(f, " %lld", (long long)m->dims[d]);
  fprintf(f, " strides");
  for (int d = 0; d + 1 < m->rank; ++d)
    fprintf(f, " %lld", (long long)m->strides[d]);
  fprintf(f, " box");
  for (int d = 0; d < m->rank; ++d)
    fprintf(f, " %lld", (long long)m->box[d]);
  fprintf(f, " swizzle %d\n", m->swizzle);
}

bool rockBundleWrite(FILE *f, const RockBundle *b) {
  fprintf(f, "rock-gpu-bundle %d\narch %s\ncompile_ms %.3f\n",
          ROCK_BUNDLE_VERSION, b->arch, b->compileMs);
  writeHarness(f, &b->harness);
  for (int i = 0; i < b->numObjects; ++i) {
    const RockBundleObject *o = &b->objects[i];
    fprintf(f, "object %d %s %s %zu\n", i, o->name,
            o->format == ROCK_OBJECT_CUBIN ? "cubin" : "ptx", o->size);
    if (fwrite(o->data, 1, o->size, f) != o->size)
      return false;
    fputc('\n', f);
  }
  for (int i = 0; i < b->numFuncs; ++i) {
    const RockBundleFunc *fn = &b->funcs[i];
    fprintf(f, "function %s %d\n", fn->name, fn->numArgs);
    for (int a = 0; a < fn->numArgs; ++a)
      fprintf(f, "arg %d %s %lld\n", a, rockDTypeGetName(fn->args[a].dtype),
              (long long)fn->args[a].numElements);
    for (int s = 0; s < fn->numScratch; ++s)
      fprintf(f, "scratch %lld%s\n", (long long)fn->scratchBytes[s],
              fn->scratchZero[s] ? " zero" : "");
    for (int m = 0; m < fn->numTensorMaps; ++m)
      writeTensorMap(f, m, &fn->tensorMaps[m]);
    for (int l = 0; l < fn->numLaunches; ++l) {
      const RockBundleLaunch *la = &fn->launches[l];
      fprintf(f,
              "launch %d %s grid %lld %lld %lld block %lld %lld %lld smem "
              "%lld%s\n",
              la->object, la->kernel, (long long)la->grid[0],
              (long long)la->grid[1], (long long)la->grid[2],
              (long long)la->block[0], (long long)la->block[1],
              (long long)la->block[2], (long long)la->smem,
              la->pdl ? " pdl" : "");
      for (int p = 0; p < la->numParams; ++p)
        fprintf(f, "param %s %lld\n", paramKindName(la->params[p].kind),
                (long long)la->params[p].value);
    }
  }
  fprintf(f, "end\n");
  return !ferror(f);
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

typedef struct Reader {
  FILE *f;
  int line;
  char *err;
  size_t errSize;
  bool ok;
} Reader;

static bool fail(Reader *r, const char *what, const char *detail) {
  char where[32] = "bundle";
  if (r->line > 0)
    snprintf(where, sizeof where, "bundle line %d", r->line);
  if (r->ok)
    snprintf(r->err, r->errSize, "%s: %s%s%s", where, what, detail ? ": " : "",
             detail ? detail : "");
  r->ok = false;
  return false;
}

static bool parseI64(const char *s, int64_t *out) {
  if (!s || !*s)
    return false;
  char *end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (*end || errno)
    return false;
  *out = v;
  return true;
}

/// Splits `line` in place into at most `max` space-separated fields.
static int split(char *line, char **fields, int max) {
  int n = 0;
  for (char *tok = strtok(line, " "); tok && n < max; tok = strtok(NULL, " "))
    fields[n++] = tok;
  return n;
}

static bool readHarnessLine(Reader *r, RockHarness *h, char **fd, int n) {
  RockAttnProblem *p = &h->problem;
  char *base = (char *)h;
  if (n < 3)
    return fail(r, "harness line needs a key and a value", NULL);
  const char *key = fd[1];
  if (!strcmp(key, "t") || !strcmp(key, "softmax_dtype") ||
      !strcmp(key, "region_dtype")) {
    RockDType *t = !strcmp(key, "t")               ? &p->dtype
                   : !strcmp(key, "softmax_dtype") ? &p->softmaxType
                                                   : &p->regionType;
    if (!rockDTypeParse(fd[2], t))
      return fail(r, "bad element type", fd[2]);
    p->hasRegionType |= t == &p->regionType;
    return true;
  }
  for (size_t i = 0; i < COUNT(intFields); ++i) {
    if (strcmp(key, intFields[i].key))
      continue;
    int64_t v;
    if (!parseI64(fd[2], &v))
      return fail(r, "bad integer", fd[2]);
    if (intFields[i].isBool)
      *(bool *)(base + intFields[i].offset) = v != 0;
    else
      *(int64_t *)(base + intFields[i].offset) = v;
    return true;
  }
  for (size_t i = 0; i < COUNT(realFields); ++i) {
    if (strcmp(key, realFields[i].key))
      continue;
    char *end = NULL;
    double v = strtod(fd[2], &end);
    if (*end)
      return fail(r, "bad number", fd[2]);
    *(double *)(base + realFields[i].offset) = v;
    return true;
  }
  for (size_t i = 0; i < COUNT(strFields); ++i) {
    if (strcmp(key, strFields[i].key))
      continue;
    if (strlen(fd[2]) >= strFields[i].size)
      return fail(r, "value too long", key);
    strcpy(base + strFields[i].offset, fd[2]);
    return true;
  }
  int64_t *list = NULL, *num = NULL;
  if (!strcmp(key, "current_seq_len"))
    list = p->currentSeqLen, num = &p->numCurrentSeqLen;
  else if (!strcmp(key, "prefix_offset"))
    list = p->prefixOffset, num = &p->numPrefixOffset;
  else
    return fail(r, "unknown harness key", key);
  int64_t count;
  if (!parseI64(fd[2], &count) || count < 0 || count > ROCK_MAX_G_LIST ||
      count != n - 3)
    return fail(r, "bad list", key);
  for (int64_t i = 0; i < count; ++i)
    if (!parseI64(fd[3 + i], &list[i]))
      return fail(r, "bad list value", fd[3 + i]);
  *num = count;
  return true;
}

static bool readObject(Reader *r, RockBundle *b, char **fd, int n) {
  int64_t index, size;
  if (n != 5 || !parseI64(fd[1], &index) || index != b->numObjects ||
      index >= ROCK_BUNDLE_MAX_OBJECTS || !parseI64(fd[4], &size) || size < 0 ||
      size > ((int64_t)1 << 30) || strlen(fd[2]) >= ROCK_BUNDLE_NAME_SIZE)
    return fail(r, "bad object line", NULL);
  RockBundleObject *o = &b->objects[b->numObjects++];
  strcpy(o->name, fd[2]);
  if (!strcmp(fd[3], "ptx"))
    o->format = ROCK_OBJECT_PTX;
  else if (!strcmp(fd[3], "cubin"))
    o->format = ROCK_OBJECT_CUBIN;
  else
    return fail(r, "object format must be ptx or cubin", fd[3]);
  o->data = malloc((size_t)size + 1);
  if (!o->data)
    return fail(r, "out of memory", NULL);
  o->size = (size_t)size;
  if (fread(o->data, 1, o->size, r->f) != o->size || fgetc(r->f) != '\n')
    return fail(r, "object truncated", o->name);
  o->data[o->size] = 0;
  for (size_t i = 0; i < o->size; ++i)
    r->line += o->data[i] == '\n';
  ++r->line; // the newline after the blob
  return true;
}

static bool readParam(Reader *r, RockBundleLaunch *la, char **fd, int n) {
  static const char *const kinds[] = {"arg", "scratch", "i64",
                                      "i32", "f32",     "tmap"};
  int64_t v;
  if (n != 3 || !parseI64(fd[2], &v))
    return fail(r, "bad param line", NULL);
  if (la->numParams >= ROCK_BUNDLE_MAX_PARAMS)
    return fail(r, "too many params", NULL);
  for (int k = 0; k < 6; ++k) {
    if (strcmp(fd[1], kinds[k]))
      continue;
    la->params[la->numParams].kind = (RockParamKind)k;
    la->params[la->numParams++].value = v;
    return true;
  }
  return fail(r, "unknown param kind", fd[1]);
}

static bool readLaunch(Reader *r, RockBundle *b, RockBundleFunc *fn, char **fd,
                       int n) {
  int64_t obj;
  /* (a 14th field `pdl`: a programmatic dependent launch) */
  if ((n != 13 && (n != 14 || strcmp(fd[13], "pdl"))) ||
      strcmp(fd[3], "grid") || strcmp(fd[7], "block") ||
      strcmp(fd[11], "smem") || !parseI64(fd[1], &obj) || obj < 0 ||
      obj >= b->numObjects || strlen(fd[2]) >= ROCK_BUNDLE_NAME_SIZE)
    return fail(r, "bad launch line", NULL);
  if (fn->numLaunches >= ROCK_BUNDLE_MAX_LAUNCHES)
    return fail(r, "too many launches", NULL);
  RockBundleLaunch *la = &fn->launches[fn->numLaunches++];
  la->object = (int)obj;
  la->pdl = n == 14;
  strcpy(la->kernel, fd[2]);
  int64_t *dims[7] = {&la->grid[0],  &la->grid[1],  &la->grid[2], &la->block[0],
                      &la->block[1], &la->block[2], &la->smem};
  const int at[7] = {4, 5, 6, 8, 9, 10, 12};
  for (int i = 0; i < 7; ++i)
    if (!parseI64(fd[at[i]], dims[i]) || *dims[i] < (i == 6 ? 0 : 1) ||
        *dims[i] > (i == 6 ? 232448 : 2147483647))
      return fail(r, "bad launch geometry", fd[at[i]]);
  return true;
}

/// Reads `count` integers of fd[*at..] after the keyword fd[*at] == `kw`.
static bool readInts(char **fd, int n, int *at, const char *kw, int count,
                     int64_t *out) {
  if (*at >= n || strcmp(fd[*at], kw))
    return false;
  ++*at;
  for (int i = 0; i < count; ++i)
    if (*at >= n || !parseI64(fd[(*at)++], &out[i]))
      return false;
  return true;
}

static bool readTensorMap(Reader *r, RockBundleFunc *fn, char **fd, int n) {
  int64_t index, arg, rank, swz;
  if (n < 9 || !parseI64(fd[1], &index) || index != fn->numTensorMaps ||
      index >= ROCK_BUNDLE_MAX_TMAPS ||
      (strcmp(fd[2], "arg") && strcmp(fd[2], "pool")) || !parseI64(fd[3], &arg))
    return fail(r, "bad tensor_map line", NULL);
  RockBundleTensorMap *m = &fn->tensorMaps[fn->numTensorMaps];
  m->arg = (int)arg;
  m->pool = !strcmp(fd[2], "pool");
  int at = 5;
  if (!rockDTypeParse(fd[4], &m->dtype) ||
      !readInts(fd, n, &at, "offset", 1, &m->offset) ||
      !readInts(fd, n, &at, "rank", 1, &rank) || rank < 1 ||
      rank > ROCK_BUNDLE_TMAP_MAX_RANK)
    return fail(r, "bad tensor_map line", NULL);
  m->rank = (int)rank;
  if (!readInts(fd, n, &at, "dims", m->rank, m->dims) ||
      !readInts(fd, n, &at, "strides", m->rank - 1, m->strides) ||
      !readInts(fd, n, &at, "box", m->rank, m->box) ||
      !readInts(fd, n, &at, "swizzle", 1, &swz) || at != n)
    return fail(r, "bad tensor_map line", NULL);
  m->swizzle = (int)swz;
  fn->numTensorMaps++;
  return true;
}

/// Checks tensor map `m` of `fn` against TMA's rules and its argument: a
/// valid element type and swizzle, boxes of 1..256 elements (the inner one
/// a multiple of 16 bytes and at most the swizzle span), strides multiples
/// of 16 bytes, a 16-byte aligned base, every element inside the argument.
static bool checkTensorMap(Reader *r, const RockBundle *b,
                           const RockBundleFunc *fn,
                           const RockBundleTensorMap *m) {
  /* (a pool map: its argument is the page table; the pool holds a page of
   * the harness's page_size elements per entry) */
  const RockAttnProblem *pr = &b->harness.problem;
  if (m->arg < 0 || m->arg >= fn->numArgs ||
      (m->pool ? fn->args[m->arg].dtype != ROCK_DTYPE_I64 || !pr->paged ||
                     pr->pageSize <= 0
               : fn->args[m->arg].dtype != m->dtype))
    return fail(r, "a tensor map's argument or element type is wrong in",
                fn->name);
  int64_t span = fn->args[m->arg].numElements * (m->pool ? pr->pageSize : 1);
  int64_t e = (int64_t)rockDTypeGetSize(m->dtype), last = m->offset;
  bool ok = m->offset >= 0 && (m->offset * e) % 16 == 0 &&
            (m->swizzle == 0 || m->swizzle == 32 || m->swizzle == 64 ||
             m->swizzle == 128) &&
            (m->box[0] * e) % 16 == 0 &&
            (m->swizzle == 0 || m->box[0] * e <= m->swizzle);
  for (int d = 0; ok && d < m->rank; ++d) {
    int64_t stride = d ? m->strides[d - 1] : e;
    ok = m->dims[d] >= 1 && m->dims[d] < ((int64_t)1 << 32) && m->box[d] >= 1 &&
         m->box[d] <= 256 && stride > 0 && stride % e == 0 &&
         (d == 0 || (stride % 16 == 0 && stride < ((int64_t)1 << 40)));
    if (ok)
      last += (m->dims[d] - 1) * (stride / e);
  }
  if (!ok || last >= span)
    return fail(r, "a tensor map breaks a TMA rule or leaves its argument in",
                fn->name);
  return true;
}

/// Checks every param index of `fn` against its arguments and scratch.
static bool checkFunc(Reader *r, const RockBundle *b,
                      const RockBundleFunc *fn) {
  if (fn->numLaunches == 0)
    return fail(r, "function has no launches", fn->name);
  for (int m = 0; m < fn->numTensorMaps; ++m)
    if (!checkTensorMap(r, b, fn, &fn->tensorMaps[m]))
      return false;
  for (int l = 0; l < fn->numLaunches; ++l)
    for (int p = 0; p < fn->launches[l].numParams; ++p) {
      const RockBundleParam *pa = &fn->launches[l].params[p];
      if ((pa->kind == ROCK_PARAM_ARG &&
           (pa->value < 0 || pa->value >= fn->numArgs)) ||
          (pa->kind == ROCK_PARAM_SCRATCH &&
           (pa->value < 0 || pa->value >= fn->numScratch)) ||
          (pa->kind == ROCK_PARAM_TMAP &&
           (pa->value < 0 || pa->value >= fn->numTensorMaps)))
        return fail(r, "a param index is out of range in", fn->name);
    }
  return true;
}

static bool readFuncLine(Reader *r, RockBundle *b, RockBundleFunc **fn,
                         char **fd, int n) {
  const char *kw = fd[0];
  if (!strcmp(kw, "function")) {
    int64_t numArgs;
    if (n != 3 || !parseI64(fd[2], &numArgs) || numArgs < 0 ||
        numArgs > ROCK_BUNDLE_MAX_ARGS ||
        strlen(fd[1]) >= ROCK_BUNDLE_NAME_SIZE)
      return fail(r, "bad function line", NULL);
    if (b->numFuncs >= ROCK_BUNDLE_MAX_FUNCS)
      return fail(r, "too many functions", NULL);
    *fn = &b->funcs[b->numFuncs++];
    strcpy((*fn)->name, fd[1]);
    (*fn)->numArgs = (int)numArgs;
    return true;
  }
  if (!*fn)
    return fail(r, "line outside a function", kw);
  if (!strcmp(kw, "arg")) {
    int64_t index, count;
    if (n != 4 || !parseI64(fd[1], &index) || index < 0 ||
        index >= (*fn)->numArgs || !parseI64(fd[3], &count) || count < 0 ||
        !rockDTypeParse(fd[2], &(*fn)->args[index].dtype))
      return fail(r, "bad arg line", NULL);
    (*fn)->args[index].numElements = count;
    return true;
  }
  if (!strcmp(kw, "scratch")) {
    int64_t bytes;
    if ((n != 2 && (n != 3 || strcmp(fd[2], "zero"))) ||
        !parseI64(fd[1], &bytes) || bytes < 0)
      return fail(r, "bad scratch line", NULL);
    if ((*fn)->numScratch >= ROCK_BUNDLE_MAX_SCRATCH)
      return fail(r, "too many scratch buffers", NULL);
    (*fn)->scratchZero[(*fn)->numScratch] = n == 3;
    (*fn)->scratchBytes[(*fn)->numScratch++] = bytes;
    return true;
  }
  if (!strcmp(kw, "tensor_map"))
    return readTensorMap(r, *fn, fd, n);
  if (!strcmp(kw, "launch"))
    return readLaunch(r, b, *fn, fd, n);
  if (!strcmp(kw, "param")) {
    if ((*fn)->numLaunches == 0)
      return fail(r, "param before any launch", NULL);
    return readParam(r, &(*fn)->launches[(*fn)->numLaunches - 1], fd, n);
  }
  return fail(r, "unknown keyword", kw);
}

/// Reads one line (without the newline) into `buf`; false at end of file.
static bool readLine(Reader *r, char *buf, size_t size) {
  if (!fgets(buf, (int)size, r->f))
    return false;
  ++r->line;
  size_t len = strlen(buf);
  if (len && buf[len - 1] == '\n')
    buf[--len] = 0;
  else if (!feof(r->f))
    return fail(r, "line too long", NULL);
  return true;
}

static bool readBody(Reader *r, RockBundle *b) {
  enum { kMaxLine = 65536, kMaxFields = ROCK_MAX_G_LIST + 4 };
  char *line = malloc(kMaxLine);
  char **fd = malloc(kMaxFields * sizeof(char *));
  RockBundleFunc *fn = NULL;
  bool sawEnd = false, sawHeader = false;
  while (r->ok && line && fd && !sawEnd && readLine(r, line, kMaxLine)) {
    int n = split(line, fd, kMaxFields);
    if (n == 0)
      continue;
    const char *kw = fd[0];
    if (!sawHeader) {
      int64_t version;
      if (strcmp(kw, "rock-gpu-bundle") || n != 2 || !parseI64(fd[1], &version))
        fail(r, "not a rock GPU bundle", NULL);
      else if (version != ROCK_BUNDLE_VERSION)
        fail(r, "unsupported bundle version", fd[1]);
      sawHeader = true;
    } else if (!strcmp(kw, "arch") && n == 2 && strlen(fd[1]) < 32) {
      strcpy(b->arch, fd[1]);
    } else if (!strcmp(kw, "compile_ms") && n == 2) {
      b->compileMs = strtod(fd[1], NULL);
    } else if (!strcmp(kw, "harness")) {
      readHarnessLine(r, &b->harness, fd, n);
    } else if (!strcmp(kw, "object")) {
      readObject(r, b, fd, n);
    } else if (!strcmp(kw, "end")) {
      sawEnd = true;
    } else {
      readFuncLine(r, b, &fn, fd, n);
    }
  }
  if (!line || !fd)
    fail(r, "out of memory", NULL);
  free(line);
  free(fd);
  if (r->ok && !sawEnd)
    fail(r, "bundle truncated (no 'end' line)", NULL);
  r->line = 0; // whole-bundle checks name no line
  for (int i = 0; r->ok && i < b->numFuncs; ++i)
    checkFunc(r, b, &b->funcs[i]);
  return r->ok;
}

bool rockBundleRead(const char *path, RockBundle *b, char *err,
                    size_t errSize) {
  memset(b, 0, sizeof *b);
  rockHarnessInit(&b->harness);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errSize, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  Reader r = {f, 0, err, errSize, true};
  bool ok = readBody(&r, b);
  fclose(f);
  if (!ok)
    return false;
  const char *msg = rockAttnProblemCheck(&b->harness.problem);
  if (msg) {
    snprintf(err, errSize, "bundle harness: %s", msg);
    return false;
  }
  if (!rockBundleFindFunc(b, "rock_attention")) {
    snprintf(err, errSize, "bundle has no rock_attention function");
    return false;
  }
  return true;
}

const RockBundleFunc *rockBundleFindFunc(const RockBundle *b,
                                         const char *name) {
  for (int i = 0; i < b->numFuncs; ++i)
    if (!strcmp(b->funcs[i].name, name))
      return &b->funcs[i];
  return NULL;
}

void rockBundleDestroy(RockBundle *b) {
  for (int i = 0; i < b->numObjects; ++i) {
    free(b->objects[i].data);
    b->objects[i].data = NULL;
  }
  b->numObjects = 0;
}
