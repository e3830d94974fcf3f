//===- RockOps.cpp - rock op syntax and verifier forwarding ---------------===//
//
// Bridges what MLIR 22's C API cannot do: op classes and custom op syntax.
// Every verify() forwards to its C body in verify_*.c.
//
//===----------------------------------------------------------------------===//
#include "Rock/RockOps.h"
#include "Rock/RockVerify.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::rock;

#define GET_OP_CLASSES
#include "Rock/RockOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Verifier forwarding
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::verify() {
  return unwrap(rockAttentionOpVerify(wrap(getOperation())));
}
LogicalResult DerefOp::verify() {
  return unwrap(rockDerefOpVerify(wrap(getOperation())));
}
LogicalResult TransformOp::verify() {
  return unwrap(rockTransformOpVerify(wrap(getOperation())));
}
LogicalResult ViewLoadOp::verify() {
  return unwrap(rockViewLoadOpVerify(wrap(getOperation())));
}
LogicalResult ViewPrefetchOp::verify() {
  return unwrap(rockViewPrefetchOpVerify(wrap(getOperation())));
}
LogicalResult ViewStoreOp::verify() {
  return unwrap(rockViewStoreOpVerify(wrap(getOperation())));
}
LogicalResult GridwiseAttentionOp::verify() {
  return unwrap(rockGridwiseAttentionOpVerify(wrap(getOperation())));
}
LogicalResult AttentionCombineOp::verify() {
  return unwrap(rockAttentionCombineOpVerify(wrap(getOperation())));
}

//===----------------------------------------------------------------------===//
// rock.attention custom syntax (docs/dialect.md)
//===----------------------------------------------------------------------===//

namespace {
struct OptOperand {
  OpAsmParser::UnresolvedOperand operand;
  Type type;
  bool present = false;
};
} // namespace

// `( %x : type )`
static ParseResult parseParenOperand(OpAsmParser &p, OptOperand &o) {
  if (p.parseEqual() || p.parseLParen() || p.parseOperand(o.operand) ||
      p.parseColonType(o.type) || p.parseRParen())
    return failure();
  o.present = true;
  return success();
}

ParseResult AttentionOp::parse(OpAsmParser &p, OperationState &result) {
  Builder &b = p.getBuilder();
  OptOperand q, k, v, out, csl, po, ka, va, lse;
  SmallVector<OpAsmParser::UnresolvedOperand> ins;
  SmallVector<Type> insTypes;
  Region *body = result.addRegion();
  bool qT = false, kT = false, vT = false, oT = false, causal = false;

  if (p.parseLBrace() || p.parseKeyword("qk") || p.parseEqual())
    return failure();
  qT = succeeded(p.parseOptionalKeyword("tr"));
  if (p.parseOperand(q.operand) || p.parseStar())
    return failure();
  kT = succeeded(p.parseOptionalKeyword("tr"));
  if (p.parseOperand(k.operand) || p.parseColonType(q.type) || p.parseComma() ||
      p.parseType(k.type))
    return failure();

  while (true) {
    // rocMLIR's newer names of the same operand and attribute (the inclusive
    // index of the last valid key; keys [P - L, P]) are read as rock's.
    if (succeeded(p.parseOptionalKeyword("currentSeqLen")) ||
        succeeded(p.parseOptionalKeyword("lastValidKVIndex"))) {
      if (parseParenOperand(p, csl))
        return failure();
    } else if (succeeded(p.parseOptionalKeyword("slidingWindowSize")) ||
               succeeded(p.parseOptionalKeyword("slidingWindowLookBack"))) {
      // rocmlir-gen's clause form of the attribute.
      int32_t w;
      if (p.parseEqual() || p.parseInteger(w))
        return failure();
      result.addAttribute("slidingWindowSize", b.getI32IntegerAttr(w));
    } else if (succeeded(p.parseOptionalKeyword("causalLookBack"))) {
      // rocmlir-gen's clause form of the attribute.
      int32_t l;
      if (p.parseEqual() || p.parseInteger(l))
        return failure();
      result.addAttribute("causalLookBack", b.getI32IntegerAttr(l));
    } else if (succeeded(p.parseOptionalKeyword("prefixOffset"))) {
      if (parseParenOperand(p, po))
        return failure();
    } else if (succeeded(p.parseOptionalKeyword("keyAddresses"))) {
      if (parseParenOperand(p, ka))
        return failure();
    } else if (succeeded(p.parseOptionalKeyword("valueAddresses"))) {
      if (parseParenOperand(p, va))
        return failure();
    } else if (succeeded(p.parseOptionalKeyword("causal"))) {
      causal = true;
    } else if (succeeded(p.parseOptionalKeyword("lse"))) {
      if (p.parseEqual() || p.parseOperand(lse.operand) ||
          p.parseColonType(lse.type))
        return failure();
      lse.present = true;
    } else if (succeeded(p.parseOptionalKeyword("qk"))) {
      if (p.parseEqual() || p.parseKeyword("elementwise"))
        return failure();
      if (succeeded(p.parseOptionalKeyword("otherIns"))) {
        if (p.parseLParen() || p.parseOperandList(ins) ||
            p.parseColonTypeList(insTypes) || p.parseRParen())
          return failure();
      }
      if (p.parseRegion(*body))
        return failure();
    } else {
      break;
    }
  }

  oT = succeeded(p.parseOptionalKeyword("tr"));
  if (p.parseOperand(out.operand) || p.parseEqual() ||
      p.parseKeyword("softmax") || p.parseLParen() || p.parseKeyword("qk") ||
      p.parseRParen() || p.parseStar())
    return failure();
  vT = succeeded(p.parseOptionalKeyword("tr"));
  if (p.parseOperand(v.operand) || p.parseColonType(v.type) || p.parseArrow() ||
      p.parseType(out.type) || p.parseRBrace())
    return failure();
  SMLoc dictLoc = p.getCurrentLocation();
  if (p.parseOptionalAttrDict(result.attributes))
    return failure();
  // The dictionary spelling of rocMLIR's newer name, never dropped silently.
  if (Attribute lb = result.attributes.erase("slidingWindowLookBack")) {
    if (result.attributes.get("slidingWindowSize"))
      return p.emitError(dictLoc,
                         "slidingWindowLookBack and slidingWindowSize both "
                         "given (the same attribute, rocMLIR's and rock's "
                         "name)");
    result.addAttribute("slidingWindowSize", lb);
  }

  auto resolve = [&](OptOperand &o) {
    return p.resolveOperand(o.operand, o.type, result.operands);
  };
  if (resolve(q) || resolve(k) || resolve(v))
    return failure();
  if (p.resolveOperands(ins, insTypes, p.getCurrentLocation(), result.operands))
    return failure();
  for (OptOperand *o : {&csl, &po, &ka, &va})
    if (o->present && resolve(*o))
      return failure();
  if (resolve(out) || (lse.present && resolve(lse)))
    return failure();

  auto setUnit = [&](bool on, StringRef name) {
    if (on)
      result.addAttribute(name, b.getUnitAttr());
  };
  setUnit(qT, "qTransposed");
  setUnit(kT, "kTransposed");
  setUnit(vT, "vTransposed");
  setUnit(oT, "oTransposed");
  setUnit(causal, "causal");
  result.addAttribute(
      "operandSegmentSizes",
      b.getDenseI32ArrayAttr({1, 1, 1, (int32_t)ins.size(), csl.present,
                              po.present, ka.present, va.present, 1,
                              lse.present}));
  return success();
}

void AttentionOp::print(OpAsmPrinter &p) {
  auto tr = [&](bool on) {
    if (on)
      p << "tr ";
  };
  auto paren = [&](StringRef kw, Value v) {
    if (!v)
      return;
    p.printNewline();
    p << kw << " = (" << v << " : " << v.getType() << ")";
  };
  p << " {";
  p.increaseIndent();
  p.printNewline();
  p << "qk = ";
  tr(getQTransposed());
  p << getQueries() << " * ";
  tr(getKTransposed());
  p << getKeys() << " : " << getQueries().getType() << ", "
    << getKeys().getType();
  paren("currentSeqLen", getCurrentSeqLen());
  if (IntegerAttr w = getSlidingWindowSizeAttr()) {
    p.printNewline();
    p << "slidingWindowSize = " << w.getInt();
  }
  paren("prefixOffset", getPrefixOffset());
  paren("keyAddresses", getKeyAddresses());
  paren("valueAddresses", getValueAddresses());
  if (IntegerAttr l = getCausalLookBackAttr()) {
    p.printNewline();
    p << "causalLookBack = " << l.getInt();
  }
  if (getCausal()) {
    p.printNewline();
    p << "causal";
  }
  if (Value lse = getLse()) {
    p.printNewline();
    p << "lse = " << lse << " : " << lse.getType();
  }
  if (!getPreSoftmaxBody().empty()) {
    p.printNewline();
    p << "qk = elementwise ";
    if (!getPreSoftmaxElemWiseInputs().empty()) {
      p << "otherIns(" << getPreSoftmaxElemWiseInputs() << " : "
        << getPreSoftmaxElemWiseInputs().getTypes() << ") ";
    }
    p.printRegion(getPreSoftmaxBody(), /*printEntryBlockArgs=*/true,
                  /*printBlockTerminators=*/true);
  }
  p.printNewline();
  tr(getOTransposed());
  p << getOut() << " = softmax(qk) * ";
  tr(getVTransposed());
  p << getValues() << " : " << getValues().getType() << " -> "
    << getOut().getType();
  p.decreaseIndent();
  p.printNewline();
  p << "}";
  p.printOptionalAttrDict((*this)->getAttrDictionary().getValue(),
                          {"operandSegmentSizes", "qTransposed", "kTransposed",
                           "vTransposed", "oTransposed", "causal",
                           "slidingWindowSize", "causalLookBack"});
}

//===----------------------------------------------------------------------===//
// rock.transform syntax
//===----------------------------------------------------------------------===//

// `%y = rock.transform %x by MAP attr-dict : A to B`. When MAP is spelled out
// (`#rock.transform_map<...>`, not an alias), MLIR's attribute parser consumes
// the following `: A` as the attribute's type; A is then rebuilt from the
// map's lower bounds and B's element type (transforms never change it).
ParseResult TransformOp::parse(OpAsmParser &p, OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  Attribute attr;
  SMLoc attrLoc;
  if (p.parseOperand(input) || p.parseKeyword("by"))
    return failure();
  attrLoc = p.getCurrentLocation();
  // `<...>` (stripped) goes to TransformMapAttr::parse; `#...` to the generic
  // attribute parser.
  if (p.parseCustomAttributeWithFallback(attr, Type(),
                                         [&](Attribute &a, Type t) {
                                           a = TransformMapAttr::parse(p, t);
                                           return success(bool(a));
                                         }))
    return failure();
  auto map = dyn_cast<TransformMapAttr>(attr);
  if (!map)
    return p.emitError(attrLoc, "expected a #rock.transform_map");
  result.addAttribute("transform", map);
  if (p.parseOptionalAttrDict(result.attributes))
    return failure();
  Type inType, outType;
  bool typeEaten = failed(p.parseOptionalColon());
  if (!typeEaten && p.parseType(inType))
    return failure();
  if (p.parseKeyword("to") || p.parseType(outType))
    return failure();
  auto out = dyn_cast<MemRefType>(outType);
  if (!out)
    return p.emitError(p.getCurrentLocation(), "expected a memref result");
  if (typeEaten)
    inType = MemRefType::get(map.getLowerBounds().asArrayRef(),
                             out.getElementType());
  result.addTypes(outType);
  return p.resolveOperand(input, inType, result.operands);
}

void TransformOp::print(OpAsmPrinter &p) {
  p << " " << getInput() << " by ";
  p.printStrippedAttrOrType(getTransform());
  p.printOptionalAttrDict((*this)->getAttrs(), {"transform"});
  p << " : " << getInput().getType() << " to " << getOutput().getType();
}
