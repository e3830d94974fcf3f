//===- harness.c - the rock.harness module attribute ---------------------===//
#include "harness.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <string.h>

typedef struct Reader {
  MlirAttribute dict;
  char *err;
  size_t errSize;
  bool ok;
} Reader;

static MlirAttribute lookup(Reader *r, const char *key) {
  return mlirDictionaryAttrGetElementByName(
      r->dict, mlirStringRefCreateFromCString(key));
}

static void fail(Reader *r, const char *key, const char *what) {
  if (r->ok)
    snprintf(r->err, r->errSize, "rock.harness: '%s' %s", key, what);
  r->ok = false;
}

static void getInt(Reader *r, const char *key, int64_t *out) {
  MlirAttribute a = lookup(r, key);
  if (mlirAttributeIsNull(a))
    return;
  if (mlirAttributeIsAInteger(a))
    *out = mlirIntegerAttrGetValueSInt(a);
  else
    fail(r, key, "must be an integer");
}

static void getBool(Reader *r, const char *key, bool *out) {
  MlirAttribute a = lookup(r, key);
  if (mlirAttributeIsNull(a))
    return;
  if (mlirAttributeIsABool(a))
    *out = mlirBoolAttrGetValue(a);
  else if (mlirAttributeIsAInteger(a))
    *out = mlirIntegerAttrGetValueSInt(a) != 0;
  else
    fail(r, key, "must be a bool");
}

static bool getFloat(Reader *r, const char *key, double *out) {
  MlirAttribute a = lookup(r, key);
  if (mlirAttributeIsNull(a))
    return false;
  if (mlirAttributeIsAFloat(a))
    *out = mlirFloatAttrGetValueDouble(a);
  else if (mlirAttributeIsAInteger(a))
    *out = (double)mlirIntegerAttrGetValueSInt(a);
  else
    fail(r, key, "must be a number");
  return true;
}

static bool getString(Reader *r, const char *key, char *out, size_t size) {
  MlirAttribute a = lookup(r, key);
  if (mlirAttributeIsNull(a))
    return false;
  if (mlirAttributeIsAInteger(a)) { // tolerate `rand = 7`
    snprintf(out, size, "%lld", (long long)mlirIntegerAttrGetValueSInt(a));
    return true;
  }
  if (!mlirAttributeIsAString(a)) {
    fail(r, key, "must be a string");
    return false;
  }
  MlirStringRef s = mlirStringAttrGetValue(a);
  if (s.length >= size) {
    fail(r, key, "is too long");
    return false;
  }
  if (s.length) // an empty StringAttr may have a null data pointer
    memcpy(out, s.data, s.length);
  out[s.length] = 0;
  return true;
}

static void getList(Reader *r, const char *key, int64_t *out, int64_t *num) {
  MlirAttribute a = lookup(r, key);
  if (mlirAttributeIsNull(a))
    return;
  intptr_t n;
  if (mlirAttributeIsADenseI64Array(a) || mlirAttributeIsADenseI32Array(a)) {
    n = mlirDenseArrayGetNumElements(a);
  } else if (mlirAttributeIsAArray(a)) {
    n = mlirArrayAttrGetNumElements(a);
  } else if (mlirAttributeIsAInteger(a)) {
    out[0] = mlirIntegerAttrGetValueSInt(a);
    *num = 1;
    return;
  } else {
    fail(r, key, "must be an array of integers");
    return;
  }
  if (n > ROCK_MAX_G_LIST) {
    fail(r, key, "has too many values");
    return;
  }
  for (intptr_t i = 0; i < n; ++i) {
    if (mlirAttributeIsADenseI64Array(a)) {
      out[i] = mlirDenseI64ArrayGetElement(a, i);
    } else if (mlirAttributeIsADenseI32Array(a)) {
      out[i] = mlirDenseI32ArrayGetElement(a, i);
    } else {
      MlirAttribute e = mlirArrayAttrGetElement(a, i);
      if (!mlirAttributeIsAInteger(e)) {
        fail(r, key, "must be an array of integers");
        return;
      }
      out[i] = mlirIntegerAttrGetValueSInt(e);
    }
  }
  *num = n;
}

bool rockHarnessRead(MlirAttribute dict, RockHarness *h, char *err,
                     size_t errSize) {
  rockHarnessInit(h);
  RockAttnProblem *p = &h->problem;
  if (mlirAttributeIsNull(dict) || !mlirAttributeIsADictionary(dict)) {
    snprintf(err, errSize, "rock.harness must be a dictionary attribute");
    return false;
  }
  Reader r = {dict, err, errSize, true};
  char buf[32];
  if (getString(&r, "t", buf, sizeof buf) && r.ok &&
      !rockDTypeParse(buf, &p->dtype))
    fail(&r, "t", "must be f32, f16, bf16 or i8");
  static const char *const required[] = {"seq_len_q", "seq_len_k",
                                         "head_dim_qk", "head_dim_v"};
  for (int i = 0; i < 4; ++i)
    if (mlirAttributeIsNull(lookup(&r, required[i])))
      fail(&r, required[i], "is missing");
  getInt(&r, "g", &p->g);
  getInt(&r, "num_heads_q", &p->numHeadsQ);
  getInt(&r, "num_heads_kv", &p->numHeadsKV);
  getInt(&r, "seq_len_q", &p->seqLenQ);
  getInt(&r, "seq_len_k", &p->seqLenK);
  getInt(&r, "head_dim_qk", &p->headDimQK);
  getInt(&r, "head_dim_v", &p->headDimV);
  getInt(&r, "split_kv", &p->splitKV);
  getBool(&r, "causal", &p->causal);
  getBool(&r, "return_lse", &p->returnLse);
  getBool(&r, "with_attn_scale", &p->withScale);
  getBool(&r, "with_attn_bias", &p->withBias);
  getBool(&r, "transQ", &p->transQ);
  getBool(&r, "transK", &p->transK);
  getBool(&r, "transV", &p->transV);
  getBool(&r, "transO", &p->transO);
  getBool(&r, "transBias", &p->transBias);
  getBool(&r, "paged", &p->paged);
  getInt(&r, "num_pages", &p->numPages);
  getInt(&r, "page_size", &p->pageSize);
  getList(&r, "current_seq_len", p->currentSeqLen, &p->numCurrentSeqLen);
  getList(&r, "prefix_offset", p->prefixOffset, &p->numPrefixOffset);
  // A single value is broadcast to all G batches.
  if (p->numCurrentSeqLen == 1 && p->g > 1 && p->g <= ROCK_MAX_G_LIST) {
    for (int64_t i = 1; i < p->g; ++i)
      p->currentSeqLen[i] = p->currentSeqLen[0];
    p->numCurrentSeqLen = p->g;
  }
  if (p->numPrefixOffset == 1 && p->g > 1 && p->g <= ROCK_MAX_G_LIST) {
    for (int64_t i = 1; i < p->g; ++i)
      p->prefixOffset[i] = p->prefixOffset[0];
    p->numPrefixOffset = p->g;
  }
  getInt(&r, "sliding_window_size", &p->slidingWindow);
  // Absent is -1 internally; a present value must be a real window.
  if (r.ok && !mlirAttributeIsNull(lookup(&r, "sliding_window_size")) &&
      p->slidingWindow < 0)
    fail(&r, "sliding_window_size", "must not be negative");
  getInt(&r, "causal_look_back", &p->causalLookBack);
  if (r.ok && !mlirAttributeIsNull(lookup(&r, "causal_look_back")) &&
      p->causalLookBack < 0)
    fail(&r, "causal_look_back", "must not be negative");
  if (getString(&r, "softmax_dtype", buf, sizeof buf) && r.ok &&
      !rockDTypeParse(buf, &p->softmaxType))
    fail(&r, "softmax_dtype", "must be a float type name");
  if (getString(&r, "region_dtype", buf, sizeof buf) && r.ok) {
    p->hasRegionType =
        rockDTypeParse(buf, &p->regionType) &&
        (p->regionType == ROCK_DTYPE_F32 || p->regionType == ROCK_DTYPE_F16 ||
         p->regionType == ROCK_DTYPE_BF16);
    if (!p->hasRegionType)
      fail(&r, "region_dtype", "must be f32, f16 or bf16");
  }
  getString(&r, "verifier", h->verifier, sizeof h->verifier);
  p->strict = strcmp(h->verifier, "mlir-strict") == 0;
  p->roundNarrow = strcmp(h->verifier, "mlir") == 0;
  getString(&r, "rand", h->rand, sizeof h->rand);
  if (getString(&r, "rand_type", buf, sizeof buf) && r.ok) {
    if (strcmp(buf, "float") == 0)
      h->randFloat = true;
    else if (strcmp(buf, "int") != 0)
      fail(&r, "rand_type", "must be int or float");
  }
  getFloat(&r, "rand_min", &h->randMin);
  getFloat(&r, "rand_max", &h->randMax);
  getInt(&r, "rand_min_int", &h->randMinInt);
  getInt(&r, "rand_max_int", &h->randMaxInt);
  h->hasRms = getFloat(&r, "RMS_threshold", &h->rms);
  h->hasAbsDiff = getFloat(&r, "absDiff_threshold", &h->absDiff);
  h->hasRelDiff = getFloat(&r, "relDiff_threshold", &h->relDiff);
  h->hasAtol = getFloat(&r, "atol", &h->atol);
  h->hasRtol = getFloat(&r, "rtol", &h->rtol);
  if (getString(&r, "comparator", buf, sizeof buf) && r.ok) {
    if (strcmp(buf, "allclose") == 0)
      h->allclose = true;
    else if (strcmp(buf, "legacy") != 0)
      fail(&r, "comparator", "must be legacy or allclose");
  }
  if (h->hasAtol || h->hasRtol)
    h->allclose = true;
  getInt(&r, "kernel_repeats", &h->kernelRepeats);
  getBool(&r, "print_results", &h->printResults);
  getBool(&r, "print_inputs", &h->printInputs);
  getBool(&r, "print_validation_results", &h->printValidation);
  getString(&r, "print_verify_results", h->printVerify, sizeof h->printVerify);
  if (!r.ok)
    return false;
  if (h->kernelRepeats < 1)
    h->kernelRepeats = 1;
  const char *msg = rockAttnProblemCheck(p);
  if (msg) {
    snprintf(err, errSize, "rock.harness: %s", msg);
    return false;
  }
  return true;
}

MlirAttribute rockHarnessFind(MlirModule module) {
  MlirStringRef name = mlirStringRefCreateFromCString("rock.harness");
  MlirAttribute a =
      mlirOperationGetAttributeByName(mlirModuleGetOperation(module), name);
  if (!mlirAttributeIsNull(a))
    return a;
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym) &&
        mlirStringRefEqual(mlirStringAttrGetValue(sym),
                           mlirStringRefCreateFromCString("main")))
      return mlirOperationGetAttributeByName(op, name);
  }
  return a;
}
