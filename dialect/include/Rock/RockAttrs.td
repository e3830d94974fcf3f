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

//===----------------------------------------------------------------------===//
// rocMLIR's accelerator tuning parameters (rock.gridwise_attention_accel)
//===----------------------------------------------------------------------===//

// The fields rocMLIR's xdlops / wmma / mfma / accel parameter attributes
// share, across its versions: fields later versions added are optional
// (their defaults are rocMLIR's). rock reads them only to verify
// rock.gridwise_attention_accel (docs/rocmlir-compat.md).
class Rock_AccelParamsAttr<string name, string mnem> : AttrDef<Rock_Dialect, name> {
  let mnemonic = mnem;
  let summary = "rocMLIR's tuning parameters of one accelerated gemm";
  let description = [{
    rocMLIR's per-gemm tuning parameters of `rock.gridwise_attention_accel`,
    parsed for interchange (rock lowers `rock.attention` with its own
    `perf_config`, docs/rocmlir-compat.md). `kpackPerBlock`, `mPerBlock`,
    `nPerBlock`, `kpack`, `mPerWave`, `nPerWave` are required; the fields
    later rocMLIR versions added are optional.

    ```mlir
    #rock.xdlops_gemm_derived_params<kpackPerBlock = 32, mPerBlock = 32,
        nPerBlock = 32, kpack = 1, mPerWave = 32, nPerWave = 32,
        mnPerXdl = 32, splitKFactor = 1, forceUnroll = true>
    ```
  }];
  let parameters = (ins
    "int64_t":$kpackPerBlock,
    "int64_t":$mPerBlock,
    "int64_t":$nPerBlock,
    "int64_t":$kpack,
    "int64_t":$mPerWave,
    "int64_t":$nPerWave,
    DefaultValuedParameter<"int64_t", "0">:$mnPerXdl,
    DefaultValuedParameter<"int64_t", "1">:$splitKFactor,
    DefaultValuedParameter<"int64_t", "1">:$scheduleVersion,
    DefaultValuedParameter<"int64_t", "2">:$outputSwizzle,
    DefaultValuedParameter<"int64_t", "0">:$wavesPerEU,
    DefaultValuedParameter<"int64_t", "0">:$gridGroupSize,
    DefaultValuedParameter<"bool", "true">:$forceUnroll);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Rock_XdlopsGemmDerivedParamsAttr
    : Rock_AccelParamsAttr<"XdlopsGemmDerivedParams", "xdlops_gemm_derived_params">;
def Rock_XdlopsGemmParamsAttr
    : Rock_AccelParamsAttr<"XdlopsGemmParams", "xdlops_gemm_params">;
def Rock_MfmaGemmParamsAttr
    : Rock_AccelParamsAttr<"MfmaGemmParams", "mfma_gemm_params">;
def Rock_WmmaGemmParamsAttr
    : Rock_AccelParamsAttr<"WmmaGemmParams", "wmma_gemm_params">;
def Rock_AccelGemmParamsAttr
    : Rock_AccelParamsAttr<"AccelGemmParams", "accel_gemm_params">;

def Rock_ScheduleVersionAttr : AttrDef<Rock_Dialect, "ScheduleVersion"> {
  let mnemonic = "rock.schedule_version";
  let summary = "rocMLIR's scheduling version of a kernel";
  let description = [{
    rocmlir-gen's `-schedule_version N`, recorded on the kernel function as
    rocmlir-gen records it. rock's lowerings do not read it (rock-gen notes
    that the option has no effect); it is kept so that IR moves between the
    two projects unchanged (docs/rocmlir-compat.md).

    ```mlir
    rock.schedule_version = #rock.rock.schedule_version<2>
    ```
  }];
  let parameters = (ins "int64_t":$version);
  let assemblyFormat = "`<` $version `>`";
}

#endif
