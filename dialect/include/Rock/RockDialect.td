//===- RockDialect.td - the rock dialect -------------------*- tablegen -*-===//
#ifndef ROCK_DIALECT_TD
#define ROCK_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Rock_Dialect : Dialect {
  let name = "rock";
  let cppNamespace = "::mlir::rock";
  let summary = "Paged, split-KV attention kernels and their views";
  let description = [{
    The rock dialect describes attention (`rock.attention`), paged K/V caches
    (`rock.deref`) and coordinate views (`rock.transform` with
    `#rock.transform_map`), plus the gridwise, combine and view-access ops that
    rock's passes lower them through. Verifiers are written in C.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

class Rock_Op<string mnemonic, list<Trait> traits = []>
    : Op<Rock_Dialect, mnemonic, traits>;

#endif
