/*===- accel_amd.c - MFMA / WMMA tile products (AMD gfx9, gfx12) ----------===*
 *
 * One amdgpu.mfma (gfx908/90a/94x/950, wave64: 16x16x16 f16 / bf16 -> f32,
 * i8 -> i32 16x16x32 or 16x16x16) or amdgpu.wmma (gfx12, wave32: 16x16x16
 * f16 / bf16 -> f32, i8 -> i32) per call (accel.h). convert-amdgpu-to-rocdl
 * {chipset=...} picks the ROCDL intrinsic for the chip (e.g. bf16 becomes
 * mfma.f32.16x16x16bf16.1k on gfx90a+); the fragments are already in the
 * operand vector types.
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/accel.h"

int rock__accelMmaAmd(RockGen *g, const RockAccel *ac, int a, int b, int c) {
  int d = rock__genFresh(g);
  if (ac->kind == ROCK_ACCEL_WMMA12)
    rock__genLine(g,
                  "%%v%d = amdgpu.wmma %dx%dx%d %%v%d * %%v%d + %%v%d : "
                  "vector<%dx%s>, vector<%dx%s>, vector<%dx%s>",
                  d, ac->m, ac->n, ac->k, a, b, c, ac->aElems, ac->elt,
                  ac->bElems, ac->elt, ac->cElems, ac->acc);
  else
    rock__genLine(g,
                  "%%v%d = amdgpu.mfma %dx%dx%d %%v%d * %%v%d + %%v%d blgp = "
                  "none : vector<%dx%s>, vector<%dx%s>, vector<%dx%s>",
                  d, ac->m, ac->n, ac->k, a, b, c, ac->aElems, ac->elt,
                  ac->bElems, ac->elt, ac->cElems, ac->acc);
  return d;
}
