/*===- accel_nv.c - mma.sync tile products (NVIDIA sm_80+) ----------------===*
 *
 * One nvvm.mma.sync per call (accel.h): m16n8k16 row.col f16 -> f32 on
 * vector<2xf16> registers; bf16 (m16n8k16) and s8 (m16n8k32, wrapped s32
 * accumulation) on i32-packed registers with the PTX types given, since
 * nvgpu.mma.sync cannot infer bf16 operand types in MLIR 22. The fragment
 * vectors (8 / 16 A elements, 4 / 8 B elements) are cut into the 4 A and 2 B
 * registers in the order of accel.c's layout; the accumulator struct is
 * rebuilt into a vector<4 x f32|i32>.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/accel.h"

#include <stdio.h>
#include <string.h>

/* Register i (0..n-1) of fragment v (vector<E x elt>): vector<2xf16> for
 * f16, else an i32 (bitcast of the fragment to vector<n x i32>). */
static void regs(RockGen *g, const RockAccel *ac, int v, int e, int n,
                 int *out) {
  bool f16 = !strcmp(ac->elt, "f16");
  int w = v;
  if (!f16) {
    w = rock__genFresh(g);
    rock__genLine(
        g, "%%v%d = vector.bitcast %%v%d : vector<%dx%s> to vector<%dxi32>", w,
        v, e, ac->elt, n);
  }
  for (int i = 0; i < n; ++i) {
    out[i] = rock__genFresh(g);
    if (f16)
      rock__genLine(g,
                    "%%v%d = vector.shuffle %%v%d, %%v%d [%d, %d] : "
                    "vector<%dxf16>, vector<%dxf16>",
                    out[i], w, w, 2 * i, 2 * i + 1, e, e);
    else
      rock__genLine(
          g, "%%v%d = vector.extract %%v%d[%d] : i32 from vector<%dxi32>",
          out[i], w, i, n);
  }
}

int rock__accelMmaNv(RockGen *g, const RockAccel *ac, int a, int b, int c) {
  int ra[4], rb[2], rc[4];
  regs(g, ac, a, ac->aElems, 4, ra);
  regs(g, ac, b, ac->bElems, 2, rb);
  for (int i = 0; i < 4; ++i) {
    rc[i] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = vector.extract %%v%d[%d] : %s from vector<4x%s>",
                  rc[i], c, i, ac->acc, ac->acc);
  }
  bool f16 = !strcmp(ac->elt, "f16"), i8 = !strcmp(ac->elt, "i8");
  char types[160] = "";
  if (!f16)
    snprintf(types, sizeof types,
             "multiplicandAPtxType = #nvvm.mma_type<%s>, "
             "multiplicandBPtxType = #nvvm.mma_type<%s>, %s",
             i8 ? "s8" : "bf16", i8 ? "s8" : "bf16",
             i8 ? "intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, "
                : "");
  const char *opTy = f16 ? "vector<2xf16>" : "i32";
  int d = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = nvvm.mma.sync A[%%v%d, %%v%d, %%v%d, %%v%d] "
                "B[%%v%d, %%v%d] C[%%v%d, %%v%d, %%v%d, %%v%d] {layoutA = "
                "#nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, "
                "%sshape = #nvvm.shape<m = 16, n = 8, k = %d>} : (%s, %s, %s) "
                "-> !llvm.struct<(%s, %s, %s, %s)>",
                d, ra[0], ra[1], ra[2], ra[3], rb[0], rb[1], rc[0], rc[1],
                rc[2], rc[3], types, ac->k, opTy, opTy, ac->acc, ac->acc,
                ac->acc, ac->acc, ac->acc);
  int x[4];
  for (int i = 0; i < 4; ++i) {
    x[i] = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = llvm.extractvalue %%v%d[%d] : !llvm.struct<(%s, "
                  "%s, %s, %s)>",
                  x[i], d, i, ac->acc, ac->acc, ac->acc, ac->acc);
  }
  int r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = vector.from_elements %%v%d, %%v%d, %%v%d, %%v%d : "
                "vector<4x%s>",
                r, x[0], x[1], x[2], x[3], ac->acc);
  return r;
}
