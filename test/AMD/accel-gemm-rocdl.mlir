// The tile-product emitters on AMD (rock-accel-gemm: a GEMM on them), up to
// ROCDL: MFMA 16x16x16 f16 / bf16 and i8 16x16x32 on gfx942 (wave64),
// i8 16x16x16 on gfx90a, WMMA 16x16x16 on gfx1201 (wave32); the chipset
// option picks the intrinsic.
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-llvm)' | FileCheck %s

// CHECK-LABEL: gpu.module @gemm_kernel [#rocdl.target<O = 3, chip = "gfx942">]
// CHECK: rocdl.reqd_work_group_size = array<i32: 128, 1, 1>
// CHECK-COUNT-2: rocdl.mfma.f32.16x16x16f16 {{.*}} : (vector<4xf16>, vector<4xf16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
module attributes {rock.arch = "gfx942"} {
  func.func @gemm(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// CHECK-LABEL: gpu.module @gemm_kernel [#rocdl.target<O = 3, chip = "gfx942">]
// CHECK: rocdl.mfma.f32.16x16x16bf16.1k {{.*}} : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
module attributes {rock.arch = "gfx942"} {
  func.func @gemm(%a: memref<16x16xbf16>, %b: memref<16x16xbf16>, %c: memref<16x16xf32>) attributes {rock.accel_gemm, rock.accel_b_kn} {
    return
  }
}

// -----
// CHECK-LABEL: gpu.module @gemm_kernel [#rocdl.target<O = 3, chip = "gfx942">]
// CHECK: rocdl.mfma.i32.16x16x32.i8 {{.*}} : (i64, i64, vector<4xi32>, i32, i32, i32) -> vector<4xi32>
module attributes {rock.arch = "gfx942"} {
  func.func @gemm(%a: memref<16x32xi8>, %b: memref<16x32xi8>, %c: memref<16x16xi32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// CHECK-LABEL: gpu.module @gemm_kernel [#rocdl.target<O = 3, chip = "gfx90a">]
// CHECK: rocdl.mfma.i32.16x16x16i8 {{.*}} : (i32, i32, vector<4xi32>, i32, i32, i32) -> vector<4xi32>
module attributes {rock.arch = "gfx90a"} {
  func.func @gemm(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// CHECK-LABEL: gpu.module @gemm_kernel [#rocdl.target<O = 3, chip = "gfx1201", flags = {no_wave64}>]
// CHECK: rocdl.reqd_work_group_size = array<i32: 64, 1, 1>
// CHECK: rocdl.wmma.f32.16x16x16.f16 {{.*}} : (vector<8xf16>, vector<8xf16>, vector<8xf32>) -> vector<8xf32>
module attributes {rock.arch = "gfx1201"} {
  func.func @gemm(%a: memref<32x16xf16>, %b: memref<16x16xf16>, %c: memref<32x16xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// CHECK-LABEL: gpu.module @gemm_kernel [#rocdl.target<O = 3, chip = "gfx1201", flags = {no_wave64}>]
// CHECK: rocdl.wmma.i32.16x16x16.iu8 {{.*}} {signA = true, signB = true} : (vector<2xi32>, vector<2xi32>, vector<8xi32>) -> vector<8xi32>
module attributes {rock.arch = "gfx1201"} {
  func.func @gemm(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>) attributes {rock.accel_gemm} {
    return
  }
}
