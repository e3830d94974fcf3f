/*===- accel_wgmma.c - warpgroup MMA tile products (NVIDIA sm_90a) --------===*
 *
 * nvvm.wgmma.mma_async m64nNk16 f16 / bf16 -> f32 (accel.h): one warpgroup
 * (4 warps, 128 lanes) computes C[64 x N] += A[64 x 16] · B[16 x N] with A
 * and B read by the tensor cores from workgroup memory, described by 64-bit
 * matrix descriptors:
 *   bits 0-13  start address >> 4 (the shared-window byte address),
 *   bits 16-29 leading dimension byte offset >> 4,
 *   bits 32-45 stride dimension byte offset >> 4,
 *   bits 62-63 swizzle mode (0: none).
 * Both operands are K-major ("row" A, "col" B: no transpose) without
 * swizzle, whose unit is the core matrix of 8 rows x 16 bytes (8 x 8
 * 16-bit elements) stored as 128 contiguous bytes, row after row. The
 * staging rock__accelWgmmaIndex lays out for a tile of R rows x kTile:
 *   offset(r, k) = (k / 16)·16R + (r / 8)·128 + ((k % 16) / 8)·64
 *                  + (r % 8)·8 + k % 8                        (elements)
 * so, for one k16 step, the two k halves of an 8-row group are 128 bytes
 * apart (the leading dimension offset) and consecutive 8-row groups 256
 * bytes apart (the stride dimension offset); an instruction's operand starts
 * at offset(r0, k0) with r0 % 8 == 0 and k0 % 16 == 0 (16-byte aligned).
 * The accumulator struct of N / 2 f32 is rebuilt into a vector<N/2 x f32>,
 * whose layout accel.c's rock__accelAccCoord gives. The generic-proxy
 * stores of the staging are ordered before the tensor cores' reads with
 * fence.proxy.async (rock__accelWgmmaBegin); the products are committed and
 * waited for as one group (rock__accelWgmmaEnd).
 *
 *===----------------------------------------------------------------------===*/
#include "gpu/accel.h"

#include <stdio.h>

enum { LBO = 128, SBO = 256 };

int rock__accelWgmmaIndex(RockGen *g, int rows, int r, int k) {
  int c8 = rock__genIndex(g, 8), c16 = rock__genIndex(g, 16);
  int kb = rock__genBin(g, "arith.divui", k, c16, "index");
  int kr = rock__genBin(g, "arith.remui", k, c16, "index");
  int terms[5] = {
      rock__genBin(g, "arith.muli", kb, rock__genIndex(g, 16 * rows), "index"),
      rock__genBin(g, "arith.muli",
                   rock__genBin(g, "arith.divui", r, c8, "index"),
                   rock__genIndex(g, 128), "index"),
      rock__genBin(g, "arith.muli",
                   rock__genBin(g, "arith.divui", kr, c8, "index"),
                   rock__genIndex(g, 64), "index"),
      rock__genBin(g, "arith.muli",
                   rock__genBin(g, "arith.remui", r, c8, "index"), c8, "index"),
      rock__genBin(g, "arith.remui", kr, c8, "index")};
  int off = terms[0];
  for (int i = 1; i < 5; ++i)
    off = rock__genBin(g, "arith.addi", off, terms[i], "index");
  return off;
}

int rock__accelWgmmaDesc(RockGen *g, const RockAccel *ac, int mem,
                         const char *memTy, int off) {
  (void)ac; /* f16 and bf16 are both 2 bytes */
  int p = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.extract_aligned_pointer_as_index %%v%d : %s "
                "-> index",
                p, mem, memTy);
  int byte = rock__genBin(
      g, "arith.addi", p,
      rock__genBin(g, "arith.muli", off, rock__genIndex(g, 2), "index"),
      "index");
  int a = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", a, byte);
  char lit[32];
  snprintf(lit, sizeof lit, "%d", 0x3FFFF);
  a = rock__genBin(g, "arith.andi", a, rock__genConst(g, lit, "i64"), "i64");
  a = rock__genBin(g, "arith.shrui", a, rock__genConst(g, "4", "i64"), "i64");
  snprintf(lit, sizeof lit, "%lld",
           ((long long)(LBO >> 4) << 16) | ((long long)(SBO >> 4) << 32));
  return rock__genBin(g, "arith.ori", a, rock__genConst(g, lit, "i64"), "i64");
}

void rock__accelWgmmaProxyFence(RockGen *g) {
  rock__genLine(g, "nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, "
                   "space = #nvvm.shared_space<cta>}");
}

void rock__accelWgmmaBegin(RockGen *g) {
  rock__accelWgmmaProxyFence(g);
  rock__genLine(g, "gpu.barrier");
  rock__genLine(g, "nvvm.wgmma.fence.aligned");
}

void rock__accelWgmmaEnd(RockGen *g) {
  rock__genLine(g, "nvvm.wgmma.commit.group.sync.aligned");
  rock__genLine(g, "nvvm.wgmma.wait.group.sync.aligned 0");
}

/* `!llvm.struct<(f32, ... n times)>` */
static void structTy(RockStr *s, int n) {
  rock__strAppend(s, "!llvm.struct<(");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(s, "%sf32", i ? ", " : "");
  rock__strAppend(s, ")>");
}

int rock__accelMmaWgmma(RockGen *g, const RockAccel *ac, int a, int b, int c) {
  RockStr st = {0};
  structTy(&st, ac->cElems);
  int s = rock__genFresh(g);
  rock__genLine(g, "%%v%d = llvm.mlir.undef : %s", s, st.data);
  for (int e = 0; e < ac->cElems; ++e) {
    int x = rock__genFresh(g), n = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.extract %%v%d[%d] : f32 from vector<%dxf32>",
                  x, c, e, ac->cElems);
    rock__genLine(g, "%%v%d = llvm.insertvalue %%v%d, %%v%d[%d] : %s", n, x, s,
                  e, st.data);
    s = n;
  }
  int d = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = nvvm.wgmma.mma_async %%v%d, %%v%d, %%v%d, "
                "#nvvm.shape<m = 64, n = %d, k = 16>, D [<f32>, "
                "#nvvm.wgmma_scale_out<one>], A [<%s>, "
                "#nvvm.wgmma_scale_in<one>, <row>], B [<%s>, "
                "#nvvm.wgmma_scale_in<one>, <col>] : %s -> %s",
                d, a, b, s, ac->n, ac->elt, ac->elt, st.data, st.data);
  RockStr list = {0};
  for (int e = 0; e < ac->cElems; ++e) {
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = llvm.extractvalue %%v%d[%d] : %s", x, d, e,
                  st.data);
    rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", x);
  }
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.from_elements %s : vector<%dxf32>", r,
                list.data, ac->cElems);
  rock__strFree(&list);
  rock__strFree(&st);
  return r;
}

/*===--- asynchronous products as PTX inline asm ---------------------------===*
 *
 * nvvm.wgmma.mma_async (MLIR 22) reads A only through a descriptor and
 * always accumulates; the forms below are written as llvm.inline_asm:
 *   wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T {d..}, {a0..a3} | a-desc,
 *       b-desc, p, 1, 1, [0,] tnsp-b;
 * with the predicate p (scale-d) 0 for a fresh accumulator (no inputs) and
 * 1 to accumulate into the tied inputs. The accumulator is an
 * !llvm.struct of N / 2 f32 from issue to wait; rock__accelWgmmaVector
 * passes it through an empty side-effecting asm after the wait, so no use
 * of a register is placed before the wait that makes it valid. */

int rock__accelWgmmaIssue(RockGen *g, const RockAccel *ac, const int *aRegs,
                          int aDesc, int bDesc, bool transB, int d) {
  int n = ac->cElems, nIn = 0;
  RockStr st = {0}, text = {0}, cons = {0}, ops = {0}, tys = {0};
  structTy(&st, n);
  rock__strAppendf(&text,
                   "{\\0A.reg .pred p;\\0Asetp.ne.b32 p, %d, 0;\\0A"
                   "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {",
                   d >= 0, ac->n, ac->elt, ac->elt);
  for (int e = 0; e < n; ++e) {
    rock__strAppendf(&text, "%s$%d", e ? ", " : "", e);
    rock__strAppendf(&cons, "%s=f", e ? "," : "");
  }
  rock__strAppend(&text, "}, ");
  int first = n;
  if (aRegs) {
    rock__strAppend(&text, "{");
    for (int i = 0; i < 4; ++i) {
      rock__strAppendf(&text, "%s$%d", i ? ", " : "", first + i);
      rock__strAppend(&cons, ",r");
      rock__strAppendf(&ops, "%s%%v%d", nIn ? ", " : "", aRegs[i]);
      rock__strAppendf(&tys, "%si32", nIn++ ? ", " : "");
    }
    rock__strAppend(&text, "}");
    first += 4;
  } else {
    rock__strAppendf(&text, "$%d", first++);
    rock__strAppend(&cons, ",l");
    rock__strAppendf(&ops, "%s%%v%d", nIn ? ", " : "", aDesc);
    rock__strAppendf(&tys, "%si64", nIn++ ? ", " : "");
  }
  rock__strAppendf(&text, ", $%d, p, 1, 1, %s%d;\\0A}\\0A", first,
                   aRegs ? "" : "0, ", transB ? 1 : 0);
  rock__strAppend(&cons, ",l");
  rock__strAppendf(&ops, ", %%v%d", bDesc);
  rock__strAppend(&tys, ", i64");
  for (int e = 0; d >= 0 && e < n; ++e) {
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = llvm.extractvalue %%v%d[%d] : %s", x, d, e,
                  st.data);
    rock__strAppendf(&cons, ",%d", e);
    rock__strAppendf(&ops, ", %%v%d", x);
    rock__strAppend(&tys, ", f32");
  }
  int r = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.inline_asm has_side_effects asm_dialect = att "
                "\"%s\", \"%s\" %s : (%s) -> %s",
                r, text.data, cons.data, ops.data, tys.data, st.data);
  rock__strFree(&st);
  rock__strFree(&text);
  rock__strFree(&cons);
  rock__strFree(&ops);
  rock__strFree(&tys);
  return r;
}

int rock__accelWgmmaVector(RockGen *g, const RockAccel *ac, int d) {
  int n = ac->cElems;
  RockStr st = {0}, cons = {0}, ops = {0}, tys = {0}, list = {0};
  structTy(&st, n);
  for (int e = 0; e < n; ++e) {
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = llvm.extractvalue %%v%d[%d] : %s", x, d, e,
                  st.data);
    rock__strAppendf(&cons, "%s=f", e ? "," : "");
    rock__strAppendf(&ops, "%s%%v%d", e ? ", " : "", x);
    rock__strAppendf(&tys, "%sf32", e ? ", " : "");
  }
  for (int e = 0; e < n; ++e)
    rock__strAppendf(&cons, ",%d", e);
  int f = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.inline_asm has_side_effects asm_dialect = att "
                "\"\", \"%s\" %s : (%s) -> %s",
                f, cons.data, ops.data, tys.data, st.data);
  for (int e = 0; e < n; ++e) {
    int x = rock__genFresh(g);
    rock__genLine(g, "%%v%d = llvm.extractvalue %%v%d[%d] : %s", x, f, e,
                  st.data);
    rock__strAppendf(&list, "%s%%v%d", e ? ", " : "", x);
  }
  int r = rock__genFresh(g);
  rock__genLine(g, "%%v%d = vector.from_elements %s : vector<%dxf32>", r,
                list.data, n);
  rock__strFree(&st);
  rock__strFree(&cons);
  rock__strFree(&ops);
  rock__strFree(&tys);
  rock__strFree(&list);
  return r;
}

int rock__accelWgmmaStruct(RockGen *g, const RockAccel *ac, int v) {
  RockStr st = {0};
  structTy(&st, ac->cElems);
  int s = rock__genFresh(g);
  rock__genLine(g, "%%v%d = llvm.mlir.undef : %s", s, st.data);
  for (int e = 0; e < ac->cElems; ++e) {
    int x = rock__genFresh(g), nx = rock__genFresh(g);
    rock__genLine(g,
                  "%%v%d = vector.extract %%v%d[%d] : f32 from vector<%dxf32>",
                  x, v, e, ac->cElems);
    rock__genLine(g, "%%v%d = llvm.insertvalue %%v%d, %%v%d[%d] : %s", nx, x, s,
                  e, st.data);
    s = nx;
  }
  rock__strFree(&st);
  return s;
}

int rock__accelWgmmaDescAt(RockGen *g, int mem, const char *memTy, int64_t lbo,
                           int64_t sbo) {
  int p = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = memref.extract_aligned_pointer_as_index %%v%d : %s "
                "-> index",
                p, mem, memTy);
  int a = rock__genFresh(g);
  rock__genLine(g, "%%v%d = arith.index_cast %%v%d : index to i64", a, p);
  char lit[32];
  a = rock__genBin(g, "arith.andi", a, rock__genConst(g, "262143", "i64"),
                   "i64");
  a = rock__genBin(g, "arith.shrui", a, rock__genConst(g, "4", "i64"), "i64");
  snprintf(lit, sizeof lit, "%lld",
           ((long long)(lbo >> 4) << 16) | ((long long)(sbo >> 4) << 32));
  return rock__genBin(g, "arith.ori", a, rock__genConst(g, lit, "i64"), "i64");
}

int rock__accelWgmmaDescAdd(RockGen *g, int desc, int64_t bytes) {
  if (!bytes)
    return desc;
  char lit[32];
  snprintf(lit, sizeof lit, "%lld", (long long)(bytes >> 4));
  return rock__genBin(g, "arith.addi", desc, rock__genConst(g, lit, "i64"),
                      "i64");
}

void rock__accelWgmmaHold(RockGen *g, const int *regs, int n) {
  RockStr cons = {0}, ops = {0}, tys = {0};
  for (int i = 0; i < n; ++i) {
    rock__strAppendf(&cons, "%sr", i ? "," : "");
    rock__strAppendf(&ops, "%s%%v%d", i ? ", " : "", regs[i]);
    rock__strAppendf(&tys, "%si32", i ? ", " : "");
  }
  rock__genLine(g,
                "llvm.inline_asm has_side_effects asm_dialect = att \"\", "
                "\"%s\" %s : (%s) -> ()",
                cons.data, ops.data, tys.data);
  rock__strFree(&cons);
  rock__strFree(&ops);
  rock__strFree(&tys);
}

void rock__accelWgmmaPin(RockGen *g, const int *regs, int n, int *out) {
  RockStr cons = {0}, ops = {0}, tys = {0}, st = {0};
  rock__strAppend(&st, "!llvm.struct<(");
  for (int i = 0; i < n; ++i) {
    rock__strAppendf(&cons, "%s=r", i ? "," : "");
    rock__strAppendf(&ops, "%s%%v%d", i ? ", " : "", regs[i]);
    rock__strAppendf(&tys, "%si32", i ? ", " : "");
    rock__strAppendf(&st, "%si32", i ? ", " : "");
  }
  rock__strAppend(&st, ")>");
  for (int i = 0; i < n; ++i)
    rock__strAppendf(&cons, ",%d", i);
  int s = rock__genFresh(g);
  rock__genLine(g,
                "%%v%d = llvm.inline_asm has_side_effects asm_dialect = att "
                "\"\", \"%s\" %s : (%s) -> %s",
                s, cons.data, ops.data, tys.data, st.data);
  for (int i = 0; i < n; ++i) {
    out[i] = rock__genFresh(g);
    rock__genLine(g, "%%v%d = llvm.extractvalue %%v%d[%d] : %s", out[i], s, i,
                  st.data);
  }
  rock__strFree(&cons);
  rock__strFree(&ops);
  rock__strFree(&tys);
  rock__strFree(&st);
}
