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
  let description = [{
    A set of feature bits, printed `|`-separated. The CPU lowering reads only
    `dot` (AVX512-BF16 dot products in the bf16 decode loops); the others are
    parsed and printed for rocMLIR compatibility.

    ```mlir
    features = #rock<GemmFeatures dot|atomic_add>
    ```
  }];
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
  let description = [{
    rock.attention accepts only `set`.

    ```mlir
    storeMethod = #rock<StoreMethod set>
    ```
  }];
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
  let description = [{
    `<Kind{params} [upperNames] at [upperDims] -> [lowerNames] at [lowerDims]>`,
    one entry of a `#rock.transform_map`. The kinds and their parameters are
    in docs/semantics.md §7.

    ```mlir
    <Unmerge{128, 64} ["m", "k"] at [1, 2] -> ["raw"] at [1]>
    ```
  }];
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
  let description = [{
    The affine map is the one the transforms compute (the verifier rejects a
    map that does not), followed by the transforms and the upper and lower
    bounds. Every upper and every lower dim is named by exactly one
    transform.

    ```mlir
    #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1 * 64 + d2)>
      by [<PassThrough ["g"] at [0] -> ["g"] at [0]>,
          <Unmerge{128, 64} ["m", "k"] at [1, 2] -> ["raw"] at [1]>]
      bounds = [1, 128, 64] -> [1, 8192]>
    ```
  }];
  let parameters = (ins
    "::mlir::AffineMapAttr":$map,
    "::mlir::ArrayAttr":$ops,
    "::mlir::DenseI64ArrayAttr":$upperBounds,
    "::mlir::DenseI64ArrayAttr":$lowerBounds);
  let hasCustomAssemblyFormat = 1;
}

#endif
