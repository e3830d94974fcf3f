// REQUIRES: cuda-toolkit
// The mma.sync GEMMs (f16, bf16 with B [k][n], s8) assemble for sm_90 with
// ptxas, without spills.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-opt %S/accel-gemm-nvvm.mlir --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)' > %t/g.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g.mlir %t/o | FileCheck %s --check-prefix=FILES
// RUN: %ptxas -arch=sm_90 -v %t/o/gemm_kernel.ptx -o %t/k0.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90 -v %t/o/gemm_kernel_1.ptx -o %t/k1.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90 -v %t/o/gemm_kernel_2.ptx -o %t/k2.cubin 2>&1 | FileCheck %s
// FILES: gemm_kernel.ptx
// FILES: gemm_kernel_1.ptx
// FILES: gemm_kernel_2.ptx
// CHECK: Compiling entry function 'gemm_kernel' for 'sm_90'
// CHECK: 0 bytes spill stores, 0 bytes spill loads
