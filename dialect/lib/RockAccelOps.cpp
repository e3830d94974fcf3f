//===- RockAccelOps.cpp - rock.gridwise_attention_accel syntax ------------===//
//
// Bridges what MLIR 22's C API cannot do: the custom syntax of rocMLIR's
// gridwise attention op, read in each of rocMLIR's spellings (docs/
// dialect.md). Verification is C (verify_gridwise_accel.c).
//
//===----------------------------------------------------------------------===//
#include "Rock/RockOps.h"
#include "Rock/RockVerify.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::rock;

LogicalResult GridwiseAttentionAccelOp::verify() {
  return unwrap(rockGridwiseAttentionAccelOpVerify(wrap(getOperation())));
}

/// rocMLIR's operand segments, in any of its layouts (6: q, k, v, ins,
/// currentSeqLen, out; 7: + lse; 8: + prefixOffset before out; 10: + the
/// paged keyAddresses / valueAddresses before out), as rock's 10.
static FailureOr<SmallVector<int32_t>> normalizeSegments(OpAsmParser &p,
                                                         SMLoc loc,
                                                         NamedAttrList &attrs,
                                                         size_t nOperands) {
  Attribute a = attrs.erase("operandSegmentSizes");
  if (Attribute old = attrs.erase("operand_segment_sizes"))
    a = a ? a : old;
  auto seg = dyn_cast_or_null<DenseI32ArrayAttr>(a);
  if (!seg)
    return p.emitError(loc, "rock.gridwise_attention_accel needs "
                            "operandSegmentSizes (array<i32: ...> with 6, "
                            "7, 8 or 10 entries)");
  ArrayRef<int32_t> s = seg.asArrayRef();
  SmallVector<int32_t> r;
  switch (s.size()) {
  case 10:
    r.assign(s.begin(), s.end());
    break;
  case 8:
    r = {s[0], s[1], s[2], s[3], s[4], s[5], 0, 0, s[6], s[7]};
    break;
  case 7:
    r = {s[0], s[1], s[2], s[3], s[4], 0, 0, 0, s[5], s[6]};
    break;
  case 6:
    r = {s[0], s[1], s[2], s[3], s[4], 0, 0, 0, s[5], 0};
    break;
  default:
    return p.emitError(loc, "operandSegmentSizes of "
                            "rock.gridwise_attention_accel must have 6, 7, 8 "
                            "or 10 entries (got ")
           << s.size() << ")";
  }
  int64_t sum = 0;
  for (int32_t n : r)
    sum += n;
  if (sum != (int64_t)nOperands)
    return p.emitError(loc, "operandSegmentSizes add up to ")
           << sum << " operands, the op has " << nOperands;
  return r;
}

ParseResult GridwiseAttentionAccelOp::parse(OpAsmParser &p,
                                            OperationState &result) {
  SMLoc loc = p.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> ops;
  SmallVector<Type> types;
  if (p.parseOperandList(ops, AsmParser::Delimiter::Paren))
    return failure();
  if (succeeded(p.parseOptionalKeyword("features"))) {
    std::string bits;
    if (p.parseEqual())
      return failure();
    do {
      StringRef kw;
      if (p.parseKeyword(&kw))
        return failure();
      bits += (bits.empty() ? "" : "|") + kw.str();
    } while (succeeded(p.parseOptionalVerticalBar()));
    std::optional<GemmFeatures> f = symbolizeGemmFeatures(bits);
    if (!f)
      return p.emitError(loc, "unknown GemmFeatures '") << bits << "'";
    result.addAttribute("features", GemmFeaturesAttr::get(p.getContext(), *f));
  }
  Region *body = result.addRegion();
  if (p.parseKeyword("preSoftmaxOps") || p.parseEqual() ||
      p.parseRegion(*body) || p.parseOptionalAttrDict(result.attributes) ||
      p.parseColonTypeList(types))
    return failure();
  if (types.size() != ops.size())
    return p.emitError(loc, "rock.gridwise_attention_accel has ")
           << ops.size() << " operands but " << types.size() << " types";
  FailureOr<SmallVector<int32_t>> seg =
      normalizeSegments(p, loc, result.attributes, ops.size());
  if (failed(seg))
    return failure();
  result.addAttribute("operandSegmentSizes",
                      p.getBuilder().getDenseI32ArrayAttr(*seg));
  return p.resolveOperands(ops, types, loc, result.operands);
}

void GridwiseAttentionAccelOp::print(OpAsmPrinter &p) {
  p << "(" << getOperands() << ")";
  if (GemmFeaturesAttr f = getFeaturesAttr())
    p << " features = " << stringifyGemmFeatures(f.getValue());
  p << " preSoftmaxOps = ";
  p.printRegion(getPreSoftmaxBody(), /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrDictionary().getValue(),
                          {"features"});
  p << " : " << getOperandTypes();
}
