/*===- ir.c - small IR queries shared by verifiers and passes -------------===*/
#include "ir.h"

#include "mlir-c/BuiltinAttributes.h"

#include <string.h>

MlirAttribute rock__attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

bool rock__hasAttr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(rock__attr(op, name));
}

int64_t rock__intAttr(MlirOperation op, const char *name, int64_t dflt) {
  MlirAttribute a = rock__attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return dflt;
  return mlirIntegerAttrGetValueInt(a);
}

bool rock__boolAttr(MlirOperation op, const char *name, bool dflt) {
  MlirAttribute a = rock__attr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsABool(a))
    return dflt;
  return mlirBoolAttrGetValue(a);
}

bool rock__flagAttr(MlirOperation op, const char *name) {
  MlirAttribute a = rock__attr(op, name);
  if (mlirAttributeIsNull(a))
    return false;
  if (mlirAttributeIsABool(a))
    return mlirBoolAttrGetValue(a);
  return true;
}

MlirAttribute rock__nearestAttr(MlirOperation op, const char *name) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    MlirAttribute a = rock__attr(op, name);
    if (!mlirAttributeIsNull(a))
      return a;
  }
  MlirAttribute none = {NULL};
  return none;
}

MlirAttribute rock__archAttr(MlirOperation op, const char **name) {
  static const char *const names[2] = {"mhal.arch", "rock.arch"};
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    for (int i = 0; i < 2; ++i) {
      MlirAttribute a = rock__attr(op, names[i]);
      if (!mlirAttributeIsNull(a)) {
        if (name)
          *name = names[i];
        return a;
      }
    }
  if (name)
    *name = "mhal.arch";
  MlirAttribute none = {NULL};
  return none;
}

bool rock__isOp(MlirOperation op, const char *name) {
  if (mlirOperationIsNull(op))
    return false;
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(name);
  return s.length == n && memcmp(s.data, name, n) == 0;
}

MlirOperation rock__blockLastOp(MlirBlock block) {
  MlirOperation op = mlirBlockGetFirstOperation(block);
  while (!mlirOperationIsNull(op) &&
         !mlirOperationIsNull(mlirOperationGetNextInBlock(op)))
    op = mlirOperationGetNextInBlock(op);
  return op;
}
