//===- RockAttrs.td - rock attributes ---------------------*- tablegen -*-===//
#ifndef ROCK_ATTRS_TD
#define ROCK_ATTRS_TD

include "Rock/RockDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Rock_GemmFeatures : I32BitEnumAttr<"GemmFeatures", "gemm hardware features",
  [I32BitEnumAttrCaseNone<"none">,
   I32BitEnumAttrCaseBit<"mfma", 0>,
   I32BitEnumAttrCaseBit<"dot", 1>,
   I32BitEnumAttrCaseBit<"atomic_add", 2>,
   I32BitEnumAttrCaseBit<"atomic_fmax_f32", 3>,
   I32BitEnumAttrCaseBit<"wmma", 4>,
   I32BitEnumAttrCaseBit<"atomic_add_f16", 5>,
   I32BitEnumAttrCaseBit<"atomic_add_bf16", 6>,
   I32BitEnumAttrCaseBit<"direct_to_lds_32b", 7>,
   I32BitEnumAttrCaseBit<"direct_to_lds_128b", 8>]> {
  let cppNamespace = "::mlir::rock";
  let separator = "|";
  let genSpecializedAttr = 0;
  let printBitEnumPrimaryGroups = 0;
}
def Rock_GemmFeaturesAttr
    : EnumAttr<Rock_Dialect, Rock_GemmFeatures, "GemmFeatures"> {
  let assemblyFormat = "$value";
}

def Rock_StoreMethod : I32EnumAttr<"StoreMethod", "how results are stored",
  [I32EnumAttrCase<"Set", 0, "set">,
   I32EnumAttrCase<"AtomicAdd", 1, "atomic_add">,
   I32EnumAttrCase<"AtomicMax", 2, "atomic_max">]> {
  let cppNamespace = "::mlir::rock";
  let genSpecializedAttr = 0;
}
def Rock_StoreMethodAttr
    : EnumAttr<Rock_Dialect, Rock_StoreMethod, "StoreMethod"> {
  let assemblyFormat = "$value";
}

def Rock_TransformType : I32EnumAttr<"TransformType", "coordinate transform",
  [I32EnumAttrCase<"PassThrough", 0>,
   I32EnumAttrCase<"Pad", 1>,
   I32EnumAttrCase<"Slice", 2>,
   I32EnumAttrCase<"Embed", 3>,
   I32EnumAttrCase<"Unmerge", 4>,
   I32EnumAttrCase<"Merge", 5>,
   I32EnumAttrCase<"AddDim", 7>,
   I32EnumAttrCase<"Broadcast", 8>,
   I32EnumAttrCase<"ConstDim", 9>]> {
  let cppNamespace = "::mlir::rock";
}

def Rock_TransformAttr : AttrDef<Rock_Dialect, "Transform"> {
  let mnemonic = "transform";
  let summary = "one coordinate transform: upper dims -> lower dims";
  let parameters = (ins
    "::mlir::rock::TransformType":$kind,
    "::mlir::DenseI64ArrayAttr":$params,
    "::mlir::ArrayAttr":$upperNames,
    "::mlir::DenseI64ArrayAttr":$upperDims,
    "::mlir::ArrayAttr":$lowerNames,
    "::mlir::DenseI64ArrayAttr":$lowerDims);
  let hasCustomAssemblyFormat = 1;
}

def Rock_TransformMapAttr : AttrDef<Rock_Dialect, "TransformMap"> {
  let mnemonic = "transform_map";
  let summary = "a list of transforms mapping upper to lower coordinates";
  let parameters = (ins
    "::mlir::AffineMapAttr":$map,
    "::mlir::ArrayAttr":$ops,
    "::mlir::DenseI64ArrayAttr":$upperBounds,
    "::mlir::DenseI64ArrayAttr":$lowerBounds);
  let hasCustomAssemblyFormat = 1;
}

#endif
