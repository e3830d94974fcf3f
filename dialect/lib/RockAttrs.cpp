//===- RockAttrs.cpp - #rock.transform and #rock.transform_map syntax -----===//
//
// Bridges what MLIR 22's C API cannot do: custom attribute syntax. Only
// parsing and printing live here; verification is C (verify_transform.c).
//
//===----------------------------------------------------------------------===//
#include "Rock/RockOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rock;

static void printNames(AsmPrinter &p, ArrayAttr names) {
  p << "[";
  llvm::interleaveComma(names, p, [&](Attribute a) {
    if (auto s = dyn_cast<StringAttr>(a))
      p.printString(s.getValue());
    else
      p.printAttribute(a);
  });
  p << "]";
}

static void printInts(AsmPrinter &p, DenseI64ArrayAttr v) {
  p << "[";
  llvm::interleaveComma(v.asArrayRef(), p);
  p << "]";
}

static ParseResult parseNames(AsmParser &p, ArrayAttr &out) {
  SmallVector<Attribute> names;
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        std::string s;
        if (p.parseString(&s))
          return failure();
        names.push_back(p.getBuilder().getStringAttr(s));
        return success();
      }))
    return failure();
  out = p.getBuilder().getArrayAttr(names);
  return success();
}

static ParseResult parseInts(AsmParser &p, AsmParser::Delimiter d,
                             DenseI64ArrayAttr &out) {
  SmallVector<int64_t> v;
  if (p.parseCommaSeparatedList(d, [&]() {
        int64_t x;
        if (p.parseInteger(x))
          return failure();
        v.push_back(x);
        return success();
      }))
    return failure();
  out = p.getBuilder().getDenseI64ArrayAttr(v);
  return success();
}

// <Kind{params} ["u"] at [0] -> ["l"] at [0]>
Attribute TransformAttr::parse(AsmParser &p, Type) {
  StringRef kw;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseLess() || p.parseKeyword(&kw))
    return {};
  std::optional<TransformType> kind = symbolizeTransformType(kw);
  if (!kind) {
    p.emitError(loc, "unknown transform kind '") << kw << "'";
    return {};
  }
  DenseI64ArrayAttr params = p.getBuilder().getDenseI64ArrayAttr({});
  if (succeeded(p.parseOptionalLBrace())) {
    SmallVector<int64_t> v;
    if (failed(p.parseOptionalRBrace())) {
      do {
        int64_t x;
        if (p.parseInteger(x))
          return {};
        v.push_back(x);
      } while (succeeded(p.parseOptionalComma()));
      if (p.parseRBrace())
        return {};
    }
    params = p.getBuilder().getDenseI64ArrayAttr(v);
  }
  ArrayAttr upperNames, lowerNames;
  DenseI64ArrayAttr upperDims, lowerDims;
  if (parseNames(p, upperNames) || p.parseKeyword("at") ||
      parseInts(p, AsmParser::Delimiter::Square, upperDims) || p.parseArrow() ||
      parseNames(p, lowerNames) || p.parseKeyword("at") ||
      parseInts(p, AsmParser::Delimiter::Square, lowerDims) || p.parseGreater())
    return {};
  return TransformAttr::get(p.getContext(), *kind, params, upperNames,
                            upperDims, lowerNames, lowerDims);
}

void TransformAttr::print(AsmPrinter &p) const {
  p << "<" << stringifyTransformType(getKind());
  if (!getParams().empty()) {
    p << "{";
    llvm::interleaveComma(getParams().asArrayRef(), p);
    p << "}";
  }
  p << " ";
  printNames(p, getUpperNames());
  p << " at ";
  printInts(p, getUpperDims());
  p << " -> ";
  printNames(p, getLowerNames());
  p << " at ";
  printInts(p, getLowerDims());
  p << ">";
}

// <affine_map<...> by [<...>, ...] bounds = [u...] -> [l...]>; a list entry
// may also be a full `#rock.transform<...>` attribute, as upstream prints it.
Attribute TransformMapAttr::parse(AsmParser &p, Type) {
  AffineMapAttr map;
  if (p.parseLess() || p.parseAttribute(map) || p.parseKeyword("by"))
    return {};
  SmallVector<Attribute> ops;
  if (p.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            Attribute t;
            SMLoc loc = p.getCurrentLocation();
            OptionalParseResult full = p.parseOptionalAttribute(t);
            if (full.has_value()) {
              if (failed(*full))
                return failure();
              if (!isa<TransformAttr>(t))
                return p.emitError(loc, "expected a #rock.transform entry in "
                                        "the transform list");
            } else {
              t = TransformAttr::parse(p, Type());
            }
            if (!t)
              return failure();
            ops.push_back(t);
            return success();
          }))
    return {};
  DenseI64ArrayAttr upper, lower;
  if (p.parseKeyword("bounds") || p.parseEqual() ||
      parseInts(p, AsmParser::Delimiter::Square, upper) || p.parseArrow() ||
      parseInts(p, AsmParser::Delimiter::Square, lower) || p.parseGreater())
    return {};
  return TransformMapAttr::get(p.getContext(), map,
                               p.getBuilder().getArrayAttr(ops), upper, lower);
}

void TransformMapAttr::print(AsmPrinter &p) const {
  p << "<";
  p.printAttribute(getMap());
  p << " by [";
  llvm::interleaveComma(getOps(), p, [&](Attribute a) {
    if (auto t = dyn_cast<TransformAttr>(a))
      t.print(p);
    else
      p.printAttribute(a);
  });
  p << "] bounds = ";
  printInts(p, getUpperBounds());
  p << " -> ";
  printInts(p, getLowerBounds());
  p << ">";
}
