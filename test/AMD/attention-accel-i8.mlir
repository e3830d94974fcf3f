// REQUIRES: rocm-device-libs
// i8 attention on AMD matrix instructions (passes/gpu/attention_accel.c):
// Q·Kᵀ on the i8 MFMA / WMMA with i32 accumulators, P·V on the f16 one, in
// code objects below the hardware's limits with no undefined symbol.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t i8 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -causal --with-attn-scale --arch gfx942 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p942.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p942.mlir %t/p942
// RUN: llvm-objdump -d --mcpu=gfx942 %t/p942/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=MI300
// RUN: llvm-readelf --notes %t/p942/rock_attention_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM64
// RUN: llvm-nm -u %t/p942/rock_attention_kernel.hsaco | count 0
// MI300: v_mfma_i32_16x16x32_i8
// MI300: v_mfma_f32_16x16x16_f16
// RUN: rock-gen --operation attention -t i8 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -causal --with-attn-scale --arch gfx90a \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p90a.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p90a.mlir %t/p90a
// RUN: llvm-objdump -d --mcpu=gfx90a %t/p90a/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=MI200
// RUN: llvm-readelf --notes %t/p90a/rock_attention_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM64
// RUN: llvm-nm -u %t/p90a/rock_attention_kernel.hsaco | count 0
// MI200: v_mfma_i32_16x16x16i8
// MI200: v_mfma_f32_16x16x16f16
// RUN: rock-gen --operation attention -t i8 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 32 -head_dim_v 32 -causal --with-attn-scale --arch gfx1201 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p1201.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p1201.mlir %t/p1201
// RUN: llvm-objdump -d --mcpu=gfx1201 %t/p1201/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=RDNA4
// RUN: llvm-readelf --notes %t/p1201/rock_attention_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM32
// RUN: llvm-nm -u %t/p1201/rock_attention_kernel.hsaco | count 0
// RDNA4: v_wmma_i32_16x16x16_iu8
// RDNA4: v_wmma_f32_16x16x16_f16
// LIM64: rock_attention_kernel: vgpr {{[0-9]+}}/512 agpr {{[0-9]+}}/256 sgpr {{[0-9]+}}/108 lds {{[0-9]+}}/65536 scratch 0 spills 0/0 wave 64: ok
// LIM32: rock_attention_kernel: vgpr {{[0-9]+}}/256 agpr 0/0 sgpr {{[0-9]+}}/106 lds {{[0-9]+}}/65536 scratch 0 spills 0/0 wave 32: ok
