// REQUIRES: cuda-toolkit
// The i8 tensor-core attention kernel (dequant region, paged K/V too) in
// its PTX, s8 mma.sync for Q·Kᵀ, f16 mma.sync for P·V; ptxas assembles it for
// sm_90 without spills (96 registers, 14336 bytes of shared memory for the
// first when this test was written).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t i8 -seq_len_q 384 -seq_len_k 384 -head_dim_qk 64 -head_dim_v 64 --with-attn-scale --with-attn-bias --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p.mlir %t/p
// RUN: FileCheck %s --check-prefix=MMA < %t/p/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/p/rock_attention_kernel.ptx -o %t/p.cubin 2>&1 | FileCheck %s
// RUN: rock-gen --operation attention -t i8 -seq_len_q 32 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 --paged-attention --num-pages 8 --page-size 256 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/g.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/g.mlir %t/g
// RUN: FileCheck %s --check-prefix=MMA < %t/g/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/g/rock_attention_kernel.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// MMA-DAG: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// MMA-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: Compiling entry function 'rock_attention_kernel' for 'sm_90'
// CHECK: 0 bytes spill stores, 0 bytes spill loads
