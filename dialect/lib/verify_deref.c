/*===- verify_deref.c - rock.deref verifier (docs/dialect.md) -------------===*
 *
 * pointers [batch, numBlocks, 1] i64 -> result [batch, numBlocks, blockSize],
 * or a flat page table [numBlocks] -> [numBlocks, blockSize]. The result may
 * only feed rock.transform views (and rock.view_load / rock.view_store, which
 * read through a chain of zero transforms), and the keyAddresses /
 * valueAddresses operands of rock.attention, as rocmlir-gen emits them.
 *
 *===----------------------------------------------------------------------===*/
#include "Rock/RockVerify.h"
#include "verify_common.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define LL(x) ((long long)(x))

/* True when operand `n` of `user` is a keyAddresses / valueAddresses operand
 * of a rock.attention (segments q, k, v, ins, csl, po, ka, va, out, lse). */
static bool isAttentionAddress(MlirOperation user, intptr_t n) {
  if (!rock__isOp(user, "rock.attention"))
    return false;
  MlirAttribute seg = rock__attr(user, "operandSegmentSizes");
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 10)
    return false;
  intptr_t start = 0;
  for (intptr_t i = 0; i < 6; ++i)
    start += mlirDenseI32ArrayGetElement(seg, i);
  intptr_t end = start + mlirDenseI32ArrayGetElement(seg, 6) +
                 mlirDenseI32ArrayGetElement(seg, 7);
  return n >= start && n < end;
}

static MlirLogicalResult verifyUsers(MlirOperation op) {
  MlirValue res = mlirOperationGetResult(op, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(res); !mlirOpOperandIsNull(use);
       use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    /* A view op on the deref itself is a chain of zero transforms. */
    if (!rock__isOp(user, "rock.transform") &&
        !rock__isOp(user, "rock.view_load") &&
        !rock__isOp(user, "rock.view_store") &&
        !rock__isOp(user, "rock.view_prefetch") &&
        !isAttentionAddress(user, mlirOpOperandGetOperandNumber(use)))
      return rock__verifyFail(
          op, "rock.deref result may only be consumed through rock.transform "
              "views or as rock.attention keyAddresses / valueAddresses");
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult rockDerefOpVerify(MlirOperation op) {
  RockShape p, r;
  char b[128];
  MlirType pt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!rock__verifyShapeOf(pt, &p) || (p.rank != 3 && p.rank != 1))
    return rock__verifyFail(
        op,
        "pointers must be rank 3 ([batch, numBlocks, 1]) or "
        "rank 1 ([numBlocks]) (got rank %ld)",
        (long)p.rank);
  intptr_t wantRank = p.rank == 3 ? 3 : 2;
  if (!rock__verifyShapeOf(rt, &r) || r.rank != wantRank)
    return rock__verifyFail(op,
                            "result must be rank %ld for rank-%ld pointers "
                            "(got rank %ld)",
                            (long)wantRank, (long)p.rank, (long)r.rank);
  if (!rock__verifyIsInt(p.elt, 64))
    return rock__verifyFail(op, "pointers element type must be i64 (got %s)",
                            rock__typeToBuf(p.elt, b, sizeof b));
  if (p.rank == 3) {
    if (rock__verifyDimsDiffer(p.dims[2], 1))
      return rock__verifyFail(op, "pointers last dim (%lld) must be 1",
                              LL(p.dims[2]));
    if (rock__verifyDimsDiffer(r.dims[0], p.dims[0]))
      return rock__verifyFail(
          op,
          "result batch dim (%lld) must equal pointers batch "
          "dim (%lld)",
          LL(r.dims[0]), LL(p.dims[0]));
  }
  intptr_t nb = p.rank == 3 ? 1 : 0;
  if (rock__verifyDimsDiffer(r.dims[nb], p.dims[nb]))
    return rock__verifyFail(op,
                            "result numBlocks dim (%lld) must equal pointers "
                            "numBlocks dim (%lld)",
                            LL(r.dims[nb]), LL(p.dims[nb]));
  int64_t bs = r.dims[r.rank - 1];
  if (bs != ROCK_DYN && bs <= 0)
    return rock__verifyFail(op, "result blockSize dim (%lld) must be positive",
                            LL(bs));
  if (!rock__verifyEltBits(r.elt))
    return rock__verifyFail(op,
                            "result element type must be an integer or float "
                            "(got %s)",
                            rock__typeToBuf(r.elt, b, sizeof b));
  return verifyUsers(op);
}
