// The tile-product emitters on NVIDIA (rock-accel-gemm: a GEMM on them):
// nvvm.mma.sync m16n8k16 f16 (vector<2xf16> registers), bf16 (i32-packed,
// PTX type bf16), m16n8k32 s8 with s32 accumulation, and their PTX.
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-llvm)' | FileCheck %s --check-prefix=NVVM
// RUN: rock-opt %s --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)' | FileCheck %s --check-prefix=PTX

// One workgroup of M/16 warps: A and B tiles staged in workgroup memory.
// NVVM-LABEL: gpu.module @gemm_kernel
// NVVM: llvm.mlir.global internal @__wg_gemm_kernel_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x f16>
// NVVM: nvvm.barrier
// NVVM-COUNT-4: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// PTX: gpu.launch_func @gemm_kernel::@gemm_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[T:.*]], %{{.*}}, %{{.*}})
// PTX-COUNT-4: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
module attributes {rock.arch = "sm_90"} {
  func.func @gemm(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>) attributes {rock.accel_gemm} {
    return
  }
}

// -----
// bf16: operands packed in i32 (nvgpu.mma.sync cannot type bf16 in MLIR 22);
// B stored [k][n] (as V in P·V): scalar loads from workgroup memory.
// NVVM-LABEL: gpu.module @gemm_kernel
// NVVM: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
module attributes {rock.arch = "sm_90"} {
  func.func @gemm(%a: memref<16x16xbf16>, %b: memref<16x8xbf16>, %c: memref<16x8xf32>) attributes {rock.accel_gemm, rock.accel_b_kn} {
    return
  }
}

// -----
// i8: m16n8k32, s32 accumulation (wrapped).
// NVVM-LABEL: gpu.module @gemm_kernel
// NVVM: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
module attributes {rock.arch = "sm_90"} {
  func.func @gemm(%a: memref<16x32xi8>, %b: memref<8x32xi8>, %c: memref<16x8xi32>) attributes {rock.accel_gemm} {
    return
  }
}
