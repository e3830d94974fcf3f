// A module without rock ops, for rock-cpu-pipeline in mlir-opt.
func.func @add(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  return %0 : f32
}
