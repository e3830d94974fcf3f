//===- RockAttrsC.cpp - C accessors of rock's attributes ------------------===//
//
// Bridges what MLIR 22's C API cannot do: access to rock's ODS attribute
// classes from C (Rock/RockAttrsC.h). Wrapping only, no logic.
//
//===----------------------------------------------------------------------===//
#include "Rock/RockAttrsC.h"

#include "Rock/RockOps.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::rock;

bool rockAttributeIsATransform(MlirAttribute attr) {
  return isa<TransformAttr>(unwrap(attr));
}

MlirAttribute rockTransformAttrGet(MlirContext ctx, RockTransformKind kind,
                                   MlirAttribute params,
                                   MlirAttribute upperNames,
                                   MlirAttribute upperDims,
                                   MlirAttribute lowerNames,
                                   MlirAttribute lowerDims) {
  return wrap(TransformAttr::get(unwrap(ctx), static_cast<TransformType>(kind),
                                 cast<DenseI64ArrayAttr>(unwrap(params)),
                                 cast<ArrayAttr>(unwrap(upperNames)),
                                 cast<DenseI64ArrayAttr>(unwrap(upperDims)),
                                 cast<ArrayAttr>(unwrap(lowerNames)),
                                 cast<DenseI64ArrayAttr>(unwrap(lowerDims))));
}

RockTransformKind rockTransformAttrGetKind(MlirAttribute t) {
  return static_cast<RockTransformKind>(
      cast<TransformAttr>(unwrap(t)).getKind());
}
MlirAttribute rockTransformAttrGetParams(MlirAttribute t) {
  return wrap(cast<TransformAttr>(unwrap(t)).getParams());
}
MlirAttribute rockTransformAttrGetUpperNames(MlirAttribute t) {
  return wrap(cast<TransformAttr>(unwrap(t)).getUpperNames());
}
MlirAttribute rockTransformAttrGetUpperDims(MlirAttribute t) {
  return wrap(cast<TransformAttr>(unwrap(t)).getUpperDims());
}
MlirAttribute rockTransformAttrGetLowerNames(MlirAttribute t) {
  return wrap(cast<TransformAttr>(unwrap(t)).getLowerNames());
}
MlirAttribute rockTransformAttrGetLowerDims(MlirAttribute t) {
  return wrap(cast<TransformAttr>(unwrap(t)).getLowerDims());
}

const char *rockTransformKindGetName(RockTransformKind kind) {
  std::optional<TransformType> t = symbolizeTransformType((uint32_t)kind);
  if (!t)
    return "unknown";
  return stringifyTransformType(*t).data(); // static, NUL-terminated
}

bool rockAttributeIsATransformMap(MlirAttribute attr) {
  return isa<TransformMapAttr>(unwrap(attr));
}

MlirAttribute rockTransformMapAttrGet(MlirContext ctx, MlirAttribute map,
                                      MlirAttribute ops,
                                      MlirAttribute upperBounds,
                                      MlirAttribute lowerBounds) {
  return wrap(
      TransformMapAttr::get(unwrap(ctx), cast<AffineMapAttr>(unwrap(map)),
                            cast<ArrayAttr>(unwrap(ops)),
                            cast<DenseI64ArrayAttr>(unwrap(upperBounds)),
                            cast<DenseI64ArrayAttr>(unwrap(lowerBounds))));
}
MlirAttribute rockTransformMapAttrGetMap(MlirAttribute m) {
  return wrap(cast<TransformMapAttr>(unwrap(m)).getMap());
}
MlirAttribute rockTransformMapAttrGetOps(MlirAttribute m) {
  return wrap(cast<TransformMapAttr>(unwrap(m)).getOps());
}
MlirAttribute rockTransformMapAttrGetUpperBounds(MlirAttribute m) {
  return wrap(cast<TransformMapAttr>(unwrap(m)).getUpperBounds());
}
MlirAttribute rockTransformMapAttrGetLowerBounds(MlirAttribute m) {
  return wrap(cast<TransformMapAttr>(unwrap(m)).getLowerBounds());
}

MlirAttribute rockGemmFeaturesAttrGet(MlirContext ctx, uint32_t bits) {
  return wrap(
      GemmFeaturesAttr::get(unwrap(ctx), static_cast<GemmFeatures>(bits)));
}
int64_t rockGemmFeaturesAttrGetValue(MlirAttribute attr) {
  auto a = dyn_cast<GemmFeaturesAttr>(unwrap(attr));
  return a ? static_cast<int64_t>(a.getValue()) : -1;
}
MlirAttribute rockStoreMethodAttrGet(MlirContext ctx, uint32_t method) {
  return wrap(
      StoreMethodAttr::get(unwrap(ctx), static_cast<StoreMethod>(method)));
}
int32_t rockStoreMethodAttrGetValue(MlirAttribute attr) {
  auto a = dyn_cast<StoreMethodAttr>(unwrap(attr));
  return a ? static_cast<int32_t>(a.getValue()) : -1;
}

template <typename A>
static bool readAccel(Attribute a, const char *mnemonic, RockAccelParams *p) {
  auto x = dyn_cast<A>(a);
  if (!x)
    return false;
  *p = RockAccelParams{mnemonic,
                       x.getKpackPerBlock(),
                       x.getMPerBlock(),
                       x.getNPerBlock(),
                       x.getKpack(),
                       x.getMPerWave(),
                       x.getNPerWave(),
                       x.getMnPerXdl(),
                       x.getSplitKFactor(),
                       x.getScheduleVersion(),
                       x.getOutputSwizzle(),
                       x.getWavesPerEU(),
                       x.getGridGroupSize(),
                       x.getForceUnroll()};
  return true;
}

bool rockAccelParamsAttrRead(MlirAttribute attr, RockAccelParams *p) {
  Attribute a = unwrap(attr);
  return readAccel<XdlopsGemmDerivedParamsAttr>(a, "xdlops_gemm_derived_params",
                                                p) ||
         readAccel<XdlopsGemmParamsAttr>(a, "xdlops_gemm_params", p) ||
         readAccel<MfmaGemmParamsAttr>(a, "mfma_gemm_params", p) ||
         readAccel<WmmaGemmParamsAttr>(a, "wmma_gemm_params", p) ||
         readAccel<AccelGemmParamsAttr>(a, "accel_gemm_params", p);
}
