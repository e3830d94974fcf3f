// sm_90a: rock-accel-gemm on warpgroup MMA (accel_wgmma.c). One warpgroup per
// 64 rows; A and B staged K-major in the no-swizzle core-matrix layout and
// read through i64 matrix descriptors; the generic-proxy stores fenced for
// the async proxy, the products committed and waited for per staged step.
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse)' | FileCheck %s --check-prefix=IR
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)' | FileCheck %s --check-prefix=PTX

// bf16, M = N = 64, K = 128: one warpgroup (128 threads), 64 k per staged
// step, 4 k16 products each; descriptors carry LBO 128 B and SBO 256 B
// ((8 << 16) | (16 << 32) = 68720001024).
// IR-LABEL: func.func @gemm
// IR-DAG: arith.constant 68720001024 : i64
// IR-DAG: arith.constant 262143 : i64
// IR: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c128,
// IR-SAME: workgroup({{.*}} : memref<4096xbf16, #gpu.address_space<workgroup>>, {{.*}} : memref<4096xbf16, #gpu.address_space<workgroup>>)
// IR: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// IR-NEXT: gpu.barrier
// IR-NEXT: nvvm.wgmma.fence.aligned
// IR: memref.extract_aligned_pointer_as_index
// IR-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// IR-NOT: nvvm.wgmma.mma_async
// IR: nvvm.wgmma.commit.group.sync.aligned
// IR-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// IR-NEXT: gpu.barrier
// PTX: .target sm_90a
// PTX: .align 16 .b8 __wg_gemm_kernel_0[8192];
// PTX: fence.proxy.async.shared::cta;
// PTX: wgmma.fence.sync.aligned;
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned {{.*}}0;
module attributes {rock.arch = "sm_90a"} {
  func.func @gemm(%a: memref<64x128xbf16>, %b: memref<64x128xbf16>, %c: memref<64x64xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// f16 with B stored [k][n] (transposed into the K-major staging), M 128
// (two warpgroups), K 32 (16 k per staged step).
// IR-LABEL: func.func @gemm
// IR: threads({{.*}}) in ({{.*}} = %c256,
// IR: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// IR-NOT: nvvm.wgmma.mma_async
// IR: nvvm.wgmma.wait.group.sync.aligned 0
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
module attributes {rock.arch = "sm_90a"} {
  func.func @gemm(%a: memref<128x32xf16>, %b: memref<32x64xf16>, %c: memref<128x64xf32>) attributes {rock.accel_gemm, rock.accel_b_kn} {
    return
  }
}

// -----
// A grid of 128 x 128 blocks (rock.accel_tile): 2 x 2 workgroups of two
// warpgroups, n = 128 (64 f32 accumulators per thread).
// IR-LABEL: func.func @gemm
// IR: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256,
// IR-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// IR-NOT: nvvm.wgmma.mma_async
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
module attributes {rock.arch = "sm_90a"} {
  func.func @gemm(%a: memref<256x64xbf16>, %b: memref<256x64xbf16>, %c: memref<256x256xf32>) attributes {rock.accel_gemm, rock.accel_tile = array<i64: 128, 128>} {
    return
  }
}

// -----
// i8 has no wgmma form here: mma.sync m16n8k32 on sm_90a too.
// IR-LABEL: func.func @gemm
// IR-NOT: nvvm.wgmma
// IR: nvvm.mma.sync
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
module attributes {rock.arch = "sm_90a"} {
  func.func @gemm(%a: memref<16x32xi8>, %b: memref<8x32xi8>, %c: memref<16x8xi32>) attributes {rock.accel_gemm} {
    return
  }
}
