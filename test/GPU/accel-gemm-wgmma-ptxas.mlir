// REQUIRES: cuda-toolkit
// The wgmma GEMMs (accel-gemm-wgmma.mlir: bf16, f16 with B [k][n], the
// 128 x 128 grid, i8 on mma.sync) assemble for sm_90a with ptxas, without
// spills.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-opt %S/accel-gemm-wgmma.mlir --split-input-file --pass-pipeline='builtin.module(rock-accel-gemm,canonicalize,cse,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-binary)' > %t/g.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g.mlir %t/o | FileCheck %s --check-prefix=FILES
// RUN: %ptxas -arch=sm_90a -v %t/o/gemm_kernel.ptx -o %t/k0.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -v %t/o/gemm_kernel_1.ptx -o %t/k1.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -v %t/o/gemm_kernel_2.ptx -o %t/k2.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -v %t/o/gemm_kernel_3.ptx -o %t/k3.cubin 2>&1 | FileCheck %s
// FILES: gemm_kernel.ptx
// FILES: gemm_kernel_1.ptx
// FILES: gemm_kernel_2.ptx
// FILES: gemm_kernel_3.ptx
// CHECK: Compiling entry function 'gemm_kernel' for 'sm_90a'
// CHECK: 0 bytes spill stores, 0 bytes spill loads
