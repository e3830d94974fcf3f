// RockPlugin.so loaded into Debian's upstream mlir-opt (both entry points).
// Under ASan, %plugin_env preloads the ASan runtime into mlir-opt.

// rock-fold-transforms through the plugin on the same IR and CHECKs as
// test/Passes/rock-fold-transforms.mlir:
// RUN: %plugin_env mlir-opt --load-dialect-plugin=%rock_plugin --load-pass-plugin=%rock_plugin \
// RUN:   --split-input-file --pass-pipeline='builtin.module(rock-fold-transforms)' \
// RUN:   %S/../Passes/rock-fold-transforms.mlir \
// RUN: | FileCheck %S/../Passes/rock-fold-transforms.mlir

// rock.attention custom syntax round-trips through the plugin's dialect:
// RUN: %plugin_env mlir-opt --load-dialect-plugin=%rock_plugin %s \
// RUN: | %plugin_env mlir-opt --load-dialect-plugin=%rock_plugin | FileCheck %s --check-prefix=RT

// rock-cpu-pipeline is registered in mlir-opt and lowers to the llvm dialect:
// RUN: %plugin_env mlir-opt --load-dialect-plugin=%rock_plugin --load-pass-plugin=%rock_plugin \
// RUN:   --pass-pipeline='builtin.module(rock-cpu-pipeline)' %S/Inputs/no-rock.mlir \
// RUN: | FileCheck %s --check-prefix=CPU

// CPU: llvm.func @add(%{{.*}}: f32, %{{.*}}: f32) -> f32
// CPU-NEXT: llvm.fadd
// CPU-NEXT: llvm.return
// CPU-NOT: func.func

#id = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1, d2)>
    by [<PassThrough ["g", "d", "s"] at [0, 1, 2] -> ["g", "d", "s"] at [0, 1, 2]>]
    bounds = [1, 64, 1024] -> [1, 64, 1024]>

// RT-LABEL: func.func @attention
// RT: rock.attention {
// RT-NEXT: qk = tr %{{.*}} * %[[K:.*]] : memref<1x64x1024xf16>, memref<1x64x1024xf16>
// RT-NEXT: causal
// RT-NEXT: lse = %{{.*}} : memref<2x1024xf32>
// RT-NEXT: %{{.*}} = softmax(qk) * %{{.*}} : memref<1x1024x64xf16> -> memref<2x1024x64xf16>
// RT-NEXT: } {features = #rock<GemmFeatures dot|atomic_add|atomic_fmax_f32|wmma>, firstGemmIndices = array<i64: 0>, numHeadsKV = 1 : i32, numHeadsQ = 1 : i32, preSoftmaxHasSplitKVTransforms = false, splitKV = 2 : i32, storeMethod = #rock<StoreMethod set>}
func.func @attention(%q: memref<1x64x1024xf16>, %k0: memref<1x64x1024xf16>,
    %v: memref<1x1024x64xf16>, %out: memref<2x1024x64xf16>,
    %lse: memref<2x1024xf32>) {
  %k = rock.transform %k0 by #id : memref<1x64x1024xf16> to memref<1x64x1024xf16>
  rock.attention {
    qk = tr %q * %k : memref<1x64x1024xf16>, memref<1x64x1024xf16>
    causal
    lse = %lse : memref<2x1024xf32>
    %out = softmax(qk) * %v : memref<1x1024x64xf16> -> memref<2x1024x64xf16>
  } {features = #rock<GemmFeatures dot|atomic_add|atomic_fmax_f32|wmma>,
     firstGemmIndices = array<i64: 0>, splitKV = 2 : i32,
     numHeadsKV = 1 : i32, numHeadsQ = 1 : i32,
     storeMethod = #rock<StoreMethod set>}
  return
}
