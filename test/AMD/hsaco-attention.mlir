// REQUIRES: rocm-device-libs
// rock-gpu-pipeline for AMD targets: rock-gen's attention kernels (GQA decode
// with the internal split and its combine; causal prefill with LSE) become
// hsaco code objects for mhal.arch, with kernel symbols and .kd descriptors,
// no undefined symbol, the hardware exp2 (v_exp_f32, no device library call)
// and resources below the hardware's limits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 --transK --arch amdgcn-amd-amdhsa:gfx942:sramecc+:xnack- \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/decode.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t/decode.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/decode.mlir %t/decode | FileCheck %s --check-prefix=FILES
// RUN: llvm-readelf --notes %t/decode/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=NOTES942
// RUN: llvm-readelf --notes %t/decode/rock_attention_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM64
// RUN: llvm-readelf --notes %t/decode/rock_attention_kernel_0.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM64
// RUN: llvm-readelf -s %t/decode/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=SYMS
// RUN: llvm-nm -u %t/decode/rock_attention_kernel.hsaco | count 0
// RUN: llvm-nm -u %t/decode/rock_attention_kernel_0.hsaco | count 0
// RUN: llvm-objdump -d --mcpu=gfx942 %t/decode/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=ISA
// HOST: module attributes {gpu.container_module, mhal.arch = "amdgcn-amd-amdhsa:gfx942:sramecc+:xnack-"
// HOST: gpu.launch_func @[[K0:.*]]::@rock_attention_kernel
// HOST: gpu.launch_func @[[K1:.*]]::@rock_attention_kernel
// HOST: gpu.binary @[[K0]] [#gpu.object<#rocdl.target<O = 3, chip = "gfx942", features = "+sramecc,-xnack">, bin = "\7FELF
// HOST: gpu.binary @[[K1]] [#gpu.object<#rocdl.target<O = 3, chip = "gfx942", features = "+sramecc,-xnack">, bin = "\7FELF
// FILES: rock_attention_kernel.hsaco
// FILES: rock_attention_kernel_0.hsaco
// NOTES942: .name: rock_attention_kernel
// NOTES942: .symbol: rock_attention_kernel.kd
// NOTES942: .wavefront_size: 64
// NOTES942: amdhsa.target: 'amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-'
// LIM64: rock_attention_kernel: vgpr {{[0-9]+}}/512 agpr {{[0-9]+}}/256 sgpr {{[0-9]+}}/108 lds {{[0-9]+}}/65536 scratch 0 spills 0/0 wave 64: ok
// SYMS-DAG: FUNC GLOBAL PROTECTED {{.*}} rock_attention_kernel{{$}}
// SYMS-DAG: OBJECT GLOBAL DEFAULT {{.*}} rock_attention_kernel.kd{{$}}
// ISA: ds_bpermute_b32
// ISA: v_exp_f32
// ISA: s_barrier

// Causal prefill with LSE for MI200 (gfx90a, MFMA) and RDNA4 (gfx1201,
// wave32, WMMA): the tensor-core schedule (passes/gpu/attention_accel.c).
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 -causal -return_lse --arch gfx90a \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p90a.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p90a.mlir %t/p90a
// RUN: llvm-readelf --notes %t/p90a/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=NOTES90A
// RUN: llvm-readelf --notes %t/p90a/rock_attention_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM64
// RUN: llvm-nm -u %t/p90a/rock_attention_kernel.hsaco | count 0
// RUN: llvm-objdump -d --mcpu=gfx90a %t/p90a/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=LOG
// NOTES90A: amdhsa.target: amdgcn-amd-amdhsa--gfx90a
// LOG: v_mfma_f32_16x16x16f16
// LOG: v_exp_f32
// LOG: v_log_f32
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 -causal -return_lse --arch gfx1201 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p1201.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p1201.mlir %t/p1201
// RUN: llvm-readelf --notes %t/p1201/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=NOTES1201
// RUN: llvm-readelf --notes %t/p1201/rock_attention_kernel.hsaco | python3 %rock_src/scripts/amdgpu_limits.py | FileCheck %s --check-prefix=LIM32
// RUN: llvm-nm -u %t/p1201/rock_attention_kernel.hsaco | count 0
// RUN: llvm-objdump -d --mcpu=gfx1201 %t/p1201/rock_attention_kernel.hsaco | FileCheck %s --check-prefix=WMMA
// WMMA: v_wmma_f32_16x16x16_f16
// NOTES1201: .wavefront_size: 32
// NOTES1201: amdhsa.target: amdgcn-amd-amdhsa--gfx1201
// LIM32: rock_attention_kernel: vgpr {{[0-9]+}}/256 agpr 0/0 sgpr {{[0-9]+}}/106 lds {{[0-9]+}}/65536 scratch 0 spills 0/0 wave 32: ok

// Up to ROCDL (rock-gpu-to-llvm): the NVVM spellings of exp2 / log2 are
// renamed to AMDGCN's; MFMA for both gemms; the row reductions' xor
// shuffles within 16 lanes are ds_swizzle; no NVVM op is left.
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 64 -seq_len_k 64 -head_dim_qk 64 -head_dim_v 64 -causal -return_lse --arch gfx942 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu,rock-lower-views,rock-fold-transforms,canonicalize,cse,lower-affine,expand-strided-metadata,gpu-launch-sink-index-computations,gpu-kernel-outlining,rock-gpu-attach-target,rock-gpu-to-llvm)' \
// RUN:   | FileCheck %s --check-prefix=ROCDL
// ROCDL: gpu.module @rock_attention_kernel [#rocdl.target<O = 3, chip = "gfx942">]
// ROCDL: llvm.func @rock_attention_kernel({{.*}}) attributes {{{.*}}rocdl.kernel
// ROCDL-NOT: nvvm.
// ROCDL-DAG: rocdl.ds_swizzle
// ROCDL-DAG: rocdl.mfma.f32.16x16x16f16
// ROCDL-DAG: llvm.call_intrinsic "llvm.amdgcn.exp2"
// ROCDL-DAG: llvm.call_intrinsic "llvm.amdgcn.log"
// ROCDL-DAG: rocdl.barrier
// ROCDL-NOT: nvvm.
