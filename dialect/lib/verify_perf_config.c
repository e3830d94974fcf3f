/*===- verify_perf_config.c - attention perf_config strings ---------------===*/
#include "verify_attention.h"
#include "verify_common.h"

#include "support/perf_config.h"

#include "mlir-c/BuiltinAttributes.h"

MlirLogicalResult rock__verifyAttentionPerfConfig(MlirOperation op) {
  MlirAttribute a = rock__attr(op, "perf_config");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return mlirLogicalResultSuccess();
  MlirStringRef s = mlirStringAttrGetValue(a);
  RockPerfConfig pc;
  char err[512];
  if (!rockPerfConfigParse(s.data, s.length, &pc, err, sizeof err))
    return rock__verifyFail(op, "%s", err);
  return mlirLogicalResultSuccess();
}
