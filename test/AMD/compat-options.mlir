// rocmlir-gen options with a meaning on AMD targets (docs/rocmlir-compat.md):
// -mfma=off / -wmma=off leave the target's matrix instruction out of the
// rock.attention `features`, and rock-gridwise-attention-to-gpu keeps its
// SIMT schedule; -num_cu N is rock.num_cu (default the target's: 304 on
// gfx942).
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --arch gfx942 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MFMA
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --arch gfx942 -mfma=off > %t.mlir
// RUN: FileCheck %s --check-prefix=FEATURES < %t.mlir
// RUN: rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' %t.mlir | FileCheck %s --check-prefix=SIMT
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --arch gfx942 -mfma=on 2>&1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=MFMA
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --arch gfx1201 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WMMA
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --arch gfx1201 -wmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT
// The split of a long decode fills the CUs: 304 by default, 16 here.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 16384 -head_dim_qk 128 -head_dim_v 128 --arch gfx942 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=CU304
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 16384 -head_dim_qk 128 -head_dim_v 128 --arch gfx942 -num_cu 16 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=CU16
// The perf_config wave fields: 2 waves of 64 lanes instead of 4.
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 4 -num_heads_kv 2 -seq_len_q 64 -seq_len_k 256 -head_dim_qk 64 -head_dim_v 64 --arch gfx942 -perf_config attn:v3:64,64,32,8,64,16,16,4,1,1,0,0,0 2>/dev/null \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WAVES2
// Notes on gfx942: -mfma / -wmma have their meaning, the other toggles not.
// RUN: rock-gen -p --arch gfx942 -mfma=off -wmma=on 2>&1 >/dev/null | count 0
// RUN: rock-gen -p --arch gfx942 -mfma=on -dot=off -direct_to_lds_128b -num_cu 8 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTES

// MFMA: gpu.launch blocks({{.*}}) in (%{{.*}} = %c16, {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// MFMA: amdgpu.mfma 16x16x16

// FEATURES: features = #rock<GemmFeatures dot|atomic_add|atomic_fmax_f32>

// SIMT: gpu.launch
// SIMT-NOT: amdgpu.mfma
// SIMT-NOT: amdgpu.wmma
// SIMT-NOT: rocdl.wmma

// WMMA: wmma

// CU304: memref.alloc() {{.*}} : memref<256x1x128xf32>
// CU16: memref.alloc() {{.*}} : memref<64x1x128xf32>

// NOTES: {{^}}rock-gen: note: -direct_to_lds_32b / -direct_to_lds_128b have no effect on gfx942{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -dot / -atomic_add / -atomic_fmax_f32 have no effect on gfx942{{$}}
// NOTES-NOT: note

// WAVES2: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c128,
// WAVES2: amdgpu.mfma
