// REQUIRES: rocm-device-libs
// The AMD tile products in the code objects' disassembly.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-opt %S/accel-gemm-rocdl.mlir --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)' > %t/g.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g.mlir %t/o
// RUN: llvm-objdump -d --mcpu=gfx942 %t/o/gemm_kernel.hsaco | FileCheck %s --check-prefix=F16
// RUN: llvm-objdump -d --mcpu=gfx942 %t/o/gemm_kernel_1.hsaco | FileCheck %s --check-prefix=BF16
// RUN: llvm-objdump -d --mcpu=gfx942 %t/o/gemm_kernel_2.hsaco | FileCheck %s --check-prefix=I8
// RUN: llvm-objdump -d --mcpu=gfx90a %t/o/gemm_kernel_3.hsaco | FileCheck %s --check-prefix=I8A
// RUN: llvm-objdump -d --mcpu=gfx1201 %t/o/gemm_kernel_4.hsaco | FileCheck %s --check-prefix=W16
// RUN: llvm-objdump -d --mcpu=gfx1201 %t/o/gemm_kernel_5.hsaco | FileCheck %s --check-prefix=W8
// RUN: llvm-readelf --notes %t/o/gemm_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM
// RUN: llvm-nm -u %t/o/gemm_kernel_4.hsaco | count 0
// F16-COUNT-2: v_mfma_f32_16x16x16_f16
// BF16: v_mfma_f32_16x16x16_bf16
// I8: v_mfma_i32_16x16x32_i8
// I8A: v_mfma_i32_16x16x16i8
// W16: v_wmma_f32_16x16x16_f16
// W8: v_wmma_i32_16x16x16_iu8
// LIM: gemm_kernel: vgpr {{[0-9]+}}/512 agpr {{[0-9]+}}/256 sgpr {{[0-9]+}}/108 lds 2048/65536 scratch 0 spills 0/0 wave 64: ok
