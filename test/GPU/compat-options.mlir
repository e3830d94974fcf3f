// rocmlir-gen options with a meaning on NVIDIA targets (docs/rocmlir-compat.md):
// -num_cu N is the module attribute rock.num_cu, the SMs the split of
// rock-gridwise-attention-to-gpu fills (default: the target's, 132 on sm_90).
// The tensor-core schedule takes this decode (8 KV groups, one warp of 36 KiB
// each: 6 resident per SM) and splits it into the largest power of two of
// partitions that is one wave: 8 x 64 = 512 <= 6 x 132 (8 x 128 > 792);
// with -num_cu 16, 8 x 8 = 64 <= 96 (the combine kept a second launch, so
// that the partials are the splits' alone).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 16384 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off --module-attr rock.gpu_fused_combine=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DECODE132
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 16384 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off -num_cu 16 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=DECODE16
// The SIMT schedule aims at 4 workgroups per SM (the smallest power of two
// reaching 4 x SMs, 512 keys a partition): 8 x 32 = 256 at 132 SMs, 8 x 8 at 16.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 16384 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off --module-attr rock.gpu_accel=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT132
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 16384 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off -num_cu 16 --module-attr rock.gpu_accel=false --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=SIMT16
// Prefill blocks (4 warps, 48 KiB, about 220 registers a lane) are 2 per SM:
// 16 row blocks x 16 = 256 <= 264.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PREFILL132
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off -num_cu 8 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PREFILL8
// The perf_config wave fields set the warps of the tensor-core schedule
// (rocMLIR's waves per workgroup, (mPerBlockG0 / mPerWave) · (nPerBlockG0 /
// nPerWave), 16 merged rows each) where they divide the tiles into 1 to 8
// waves: 8 and 2 here; 32 waves, or fields that do not divide the tiles,
// keep the schedule's own 4.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off -perf_config attn:v3:64,64,128,8,64,16,16,4,1,1,0,0,0 2>/dev/null \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WAVES8
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off -perf_config attn:v3:64,64,32,8,64,16,16,4,1,1,0,0,0 2>/dev/null \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WAVES2
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off -perf_config attn:v3:64,64,256,8,32,16,16,4,1,1,0,0,0 2>/dev/null \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WAVES4
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 -wgmma=off -perf_config attn:v3:48,32,40,8,32,32,16,4,1,1,0,0 2>/dev/null \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=WAVES4
// The notes on sm_90: -num_cu has its meaning (no note), the direct-to-LDS
// flags say what the schedule does; the others still change nothing.
// RUN: rock-gen -p --arch sm_90 --schedule_version 2 -num_cu 120 -num_chiplets 8 -direct_to_lds_32b=on -mfma=off -x2 -perf_config attn:v3:64,64,192,32,32,96,16,8,1,1,2,0,1 2>&1 >/dev/null --module-attr rock.gpu_accel_key_warps=1 | FileCheck %s --check-prefix=NOTES
// RUN: rock-gen -p --arch sm_90 -num_cu 120 2>&1 >/dev/null --module-attr rock.gpu_accel_key_warps=1 | count 0
// RUN: not rock-gen -p --arch sm_90 -num_cu 0 2>&1 --module-attr rock.gpu_accel_key_warps=1 | FileCheck %s --check-prefix=CU0

// DECODE132: memref.alloc() {{.*}} : memref<512x1x128xf32>
// DECODE132: gpu.launch blocks({{.*}}) in (%{{.*}} = %c512, {{.*}} threads({{.*}}) in (%{{.*}} = %c32,
// DECODE16: module attributes {{.*}}rock.num_cu = 16 : i64
// DECODE16: memref.alloc() {{.*}} : memref<64x1x128xf32>
// DECODE16: gpu.launch blocks({{.*}}) in (%{{.*}} = %c64,
// SIMT132: memref.alloc() {{.*}} : memref<256x1x128xf32>
// SIMT132: gpu.launch blocks({{.*}}) in (%{{.*}} = %c256, {{.*}} threads({{.*}}) in (%{{.*}} = %c128,
// SIMT16: memref.alloc() {{.*}} : memref<64x1x128xf32>
// SIMT16: gpu.launch blocks({{.*}}) in (%{{.*}} = %c64,

// PREFILL132: gpu.launch blocks({{.*}}) in (%{{.*}} = %c256,
// PREFILL8: gpu.launch blocks({{.*}}) in (%{{.*}} = %c16,

// NOTES: {{^}}rock-gen: note: -schedule_version has no effect on sm_90{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -num_chiplets has no effect on sm_90{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: feature toggles (-mfma, -dot, ...) have no effect on sm_90{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -direct_to_lds_32b / -direct_to_lds_128b: the tensor-core schedule always stages K / V with cp.async on sm_90{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -x2 has no effect on sm_90{{$}}
// NOTES-NEXT: {{^}}rock-gen: note: -perf_config fields other than mPerWave / nPerWave and rock's own have no effect on sm_90: the GPU schedules choose their own tiles{{$}}
// NOTES-NOT: note

// CU0: {{^}}rock-gen: error: -num_cu must be a positive integer{{$}}

// WAVES8: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// WAVES2: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c64,
// WAVES4: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %c128,
