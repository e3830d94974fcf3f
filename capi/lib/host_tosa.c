/*===- host_tosa.c - TOSA text for the host reference ---------------------===*/
#include "host_tosa.h"

HT rock__ht(int rank, const int64_t *dims, const char *elt) {
  HT t = {rank, {0}, elt};
  for (int i = 0; i < rank; ++i)
    t.d[i] = dims[i];
  return t;
}

HT rock__htElt(HT t, const char *elt) {
  t.elt = elt;
  return t;
}

HT rock__htDim(HT t, int i, int64_t v) {
  t.d[i] = v;
  return t;
}

TypeStr rock__htStr(HT t) { return shapedType("tensor", t.rank, t.d, t.elt); }

static int isFloatElt(const char *elt) {
  return elt[0] == 'f' || elt[0] == 'b';
}

const char *rock__hOne(const char *elt) {
  return isFloatElt(elt) ? "1.000000e+00" : "1";
}
const char *rock__hZero(const char *elt) {
  return isFloatElt(elt) ? "0.000000e+00" : "0";
}
const char *rock__hLowest(const char *elt) {
  if (!strcmp(elt, "f16"))
    return "-6.550400e+04";
  if (!strcmp(elt, "bf16"))
    return "-3.38953139E+38";
  return "-3.40282347E+38";
}

static int fresh(HostGen *g) { return g->next++; }

int rock__hConst(HostGen *g, HT t, const char *value) {
  int r = fresh(g);
  TypeStr s = rock__htStr(t);
  out(g->b,
      "    %%t%d = \"tosa.const\"() <{values = dense<%s> : %s}> : () -> %s\n",
      r, value, s.s, s.s);
  return r;
}

int rock__hRange(HostGen *g, int64_t n) {
  int r = fresh(g);
  out(g->b, "    %%t%d = \"tosa.const\"() <{values = dense<[", r);
  for (int64_t i = 0; i < n; ++i)
    out(g->b, "%s%" PRId64, i ? ", " : "", i);
  out(g->b, "]> : tensor<%" PRId64 "xi32>}> : () -> tensor<%" PRId64 "xi32>\n",
      n, n);
  return r;
}

int rock__hToTensor(HostGen *g, const char *name, int64_t n, const char *elt) {
  int r = fresh(g);
  out(g->b,
      "    %%t%d = bufferization.to_tensor %%%s restrict : memref<%" PRId64
      "x%s> to tensor<%" PRId64 "x%s>\n",
      r, name, n, elt, n, elt);
  return r;
}

static int64_t elements(HT t) {
  int64_t n = 1;
  for (int i = 0; i < t.rank; ++i)
    n *= t.d[i];
  return n;
}

void rock__hStore(HostGen *g, int x, HT t, const char *name) {
  int64_t n = elements(t);
  HT flat = rock__ht(1, &n, t.elt);
  int f = t.rank == 1 ? x : rock__hReshape(g, x, t, flat);
  int m = fresh(g);
  out(g->b,
      "    %%t%d = bufferization.to_buffer %%t%d : tensor<%" PRId64
      "x%s> to memref<%" PRId64 "x%s>\n",
      m, f, n, t.elt, n, t.elt);
  out(g->b,
      "    memref.copy %%t%d, %%%s : memref<%" PRId64 "x%s> to memref<%" PRId64
      "x%s>\n",
      m, name, n, t.elt, n, t.elt);
}

int rock__hReshape(HostGen *g, int x, HT from, HT to) {
  int sh = fresh(g);
  out(g->b, "    %%t%d = tosa.const_shape {values = dense<[", sh);
  for (int i = 0; i < to.rank; ++i)
    out(g->b, "%s%" PRId64, i ? ", " : "", to.d[i]);
  out(g->b, "]> : tensor<%dxindex>} : () -> !tosa.shape<%d>\n", to.rank,
      to.rank);
  int r = fresh(g);
  out(g->b,
      "    %%t%d = tosa.reshape %%t%d, %%t%d : (%s, !tosa.shape<%d>) -> %s\n",
      r, x, sh, rock__htStr(from).s, to.rank, rock__htStr(to).s);
  return r;
}

static bool is16(const char *e) {
  return !strcmp(e, "f16") || !strcmp(e, "bf16");
}

int rock__hCast(HostGen *g, int x, HT from, const char *toElt) {
  /* f16 <-> bf16 has no direct arith conversion: through f32. */
  if (is16(from.elt) && is16(toElt) && strcmp(from.elt, toElt)) {
    x = rock__hCast(g, x, from, "f32");
    from = rock__htElt(from, "f32");
  }
  int r = fresh(g);
  out(g->b, "    %%t%d = tosa.cast %%t%d : (%s) -> %s\n", r, x,
      rock__htStr(from).s, rock__htStr(rock__htElt(from, toElt)).s);
  return r;
}

int rock__hBinary(HostGen *g, const char *op, int a, HT ta, int b, HT tb,
                  HT outT) {
  int r = fresh(g);
  out(g->b, "    %%t%d = %s %%t%d, %%t%d : (%s, %s) -> %s\n", r, op, a, b,
      rock__htStr(ta).s, rock__htStr(tb).s, rock__htStr(outT).s);
  return r;
}

int rock__hMul(HostGen *g, int a, HT ta, int b, HT tb, HT outT) {
  int r = fresh(g);
  out(g->b,
      "    %%t%d = tosa.mul %%t%d, %%t%d, %%t%d : (%s, %s, tensor<1xi8>) -> "
      "%s\n",
      r, a, b, g->shift, rock__htStr(ta).s, rock__htStr(tb).s,
      rock__htStr(outT).s);
  return r;
}

int rock__hSelect(HostGen *g, int m, HT tm, int a, HT ta, int b, HT tb) {
  int r = fresh(g);
  out(g->b,
      "    %%t%d = tosa.select %%t%d, %%t%d, %%t%d : (%s, %s, %s) -> %s\n", r,
      m, a, b, rock__htStr(tm).s, rock__htStr(ta).s, rock__htStr(tb).s,
      rock__htStr(tb).s);
  return r;
}

int rock__hUnary(HostGen *g, const char *op, int x, HT t) {
  int r = fresh(g);
  TypeStr s = rock__htStr(t);
  out(g->b, "    %%t%d = %s %%t%d : (%s) -> %s\n", r, op, x, s.s, s.s);
  return r;
}

int rock__hReduce(HostGen *g, const char *op, int x, HT t, int axis, HT *res) {
  *res = rock__htDim(t, axis, 1);
  int r = fresh(g);
  out(g->b, "    %%t%d = %s %%t%d {axis = %d : i32} : (%s) -> %s\n", r, op, x,
      axis, rock__htStr(t).s, rock__htStr(*res).s);
  return r;
}

int rock__hMatmul(HostGen *g, int a, HT ta, int b, HT tb, const char *accElt,
                  HT *res) {
  int64_t one = 1;
  int za = rock__hConst(g, rock__ht(1, &one, ta.elt), rock__hZero(ta.elt));
  int zb = za;
  if (strcmp(ta.elt, tb.elt))
    zb = rock__hConst(g, rock__ht(1, &one, tb.elt), rock__hZero(tb.elt));
  int64_t d[3] = {ta.d[0], ta.d[1], tb.d[2]};
  *res = rock__ht(3, d, accElt);
  int r = fresh(g);
  out(g->b,
      "    %%t%d = tosa.matmul %%t%d, %%t%d, %%t%d, %%t%d {acc_type = %s} : "
      "(%s, %s, tensor<1x%s>, tensor<1x%s>) -> %s\n",
      r, a, b, za, zb, accElt, rock__htStr(ta).s, rock__htStr(tb).s, ta.elt,
      tb.elt, rock__htStr(*res).s);
  return r;
}

int rock__hTranspose3(HostGen *g, int x, HT t, HT *res) {
  int64_t d[3] = {t.d[0], t.d[2], t.d[1]};
  *res = rock__ht(3, d, t.elt);
  int r = fresh(g);
  out(g->b,
      "    %%t%d = tosa.transpose %%t%d {perms = array<i32: 0, 2, 1>} : (%s) "
      "-> %s\n",
      r, x, rock__htStr(t).s, rock__htStr(*res).s);
  return r;
}

/* The reassociation `[[0], .., [at, at + 1], ..]` of a rank-`n` collapse. */
static void reassoc(Buf *b, int n, int at) {
  out(b, "[");
  for (int i = 0, k = 0; i < n; ++i) {
    if (i == at) {
      out(b, "%s[%d, %d]", i ? ", " : "", k, k + 1);
      k += 2;
    } else {
      out(b, "%s[%d]", i ? ", " : "", k++);
    }
  }
  out(b, "]");
}

int rock__hExpand(HostGen *g, int x, HT t, int at, HT *res) {
  HT e = {t.rank + 1, {0}, t.elt};
  for (int i = 0, k = 0; i < e.rank; ++i)
    e.d[i] = i == at + 1 ? 1 : t.d[k++];
  *res = e;
  int r = fresh(g);
  out(g->b, "    %%t%d = tensor.expand_shape %%t%d ", r, x);
  reassoc(g->b, t.rank, at);
  out(g->b, " output_shape [");
  for (int i = 0; i < e.rank; ++i)
    out(g->b, "%s%" PRId64, i ? ", " : "", e.d[i]);
  out(g->b, "] : %s into %s\n", rock__htStr(t).s, rock__htStr(e).s);
  return r;
}

int rock__hCollapse(HostGen *g, int x, HT t, int at, HT *res) {
  HT c = {t.rank - 1, {0}, t.elt};
  for (int i = 0, k = 0; i < t.rank; ++i) {
    if (i == at + 1)
      continue;
    c.d[k++] = i == at ? t.d[i] * t.d[i + 1] : t.d[i];
  }
  *res = c;
  int r = fresh(g);
  out(g->b, "    %%t%d = tensor.collapse_shape %%t%d ", r, x);
  reassoc(g->b, c.rank, at);
  out(g->b, " : %s into %s\n", rock__htStr(t).s, rock__htStr(c).s);
  return r;
}

int rock__hBroadcastMul(HostGen *g, int x, HT t, int at, int64_t n, HT *res) {
  *res = rock__htDim(t, at, n);
  int ones = rock__hConst(g, *res, rock__hOne(t.elt));
  return rock__hMul(g, x, t, ones, *res, *res);
}
