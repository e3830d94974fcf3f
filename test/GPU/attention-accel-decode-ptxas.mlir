// REQUIRES: cuda-toolkit
// q-1 decode on the tensor-core schedule (docs/gpu.md, "Decode"): one warp
// per workgroup, the 16-row tile padded, cp.async staging; rocMLIR's default
// K layout staged as K^T with ldmatrix .trans for Q·Kᵀ too; paged K/V through
// the page pointers. ptxas without spills when this test was written: 224 /
// 237 / 255 registers, 36864 bytes of shared memory. With
// rock.gpu_accel_l2_prefetch = 2 (opt-in) the K / V lines of the tile two
// ahead are prefetched to L2 (prefetch.global.L2 from rock-gpu-async-copy),
// through the page pointers for paged views; by default, and in prefill,
// there is no prefetch.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d.mlir %t/d
// RUN: FileCheck %s --check-prefix=ALL < %t/d/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=ROWS < %t/d/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/d/rock_attention_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k.mlir %t/k
// RUN: FileCheck %s --check-prefix=ALL < %t/k/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=KT < %t/k/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/k/rock_attention_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/p.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/p.mlir %t/p
// RUN: FileCheck %s --check-prefix=ALL < %t/p/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/p/rock_attention_kernel.ptx -o %t/p.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Paged K / V by page runs (rock.gpu_accel_page_ahead = true): the page
// pointers as 64-bit loads, a handful a tile (never one per copy), the copies
// in loops (234 registers when written, no spills).
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 --module-attr rock.gpu_accel_page_ahead=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r.mlir %t/r
// RUN: FileCheck %s --check-prefix=ALL < %t/r/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=RUNS < %t/r/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/r/rock_attention_kernel.ptx -o %t/r.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUNS-NOT: ld.global.b32
// RUNS: ld.global.b64
// RUNS-NOT: ld.global.b32
// The fused combine (rock.gpu_fused_combine = true), B 1 L 8k (P = 64): the
// release fence, one atomic add per workgroup, the acquire fence in the last
// one, the counters put back to zero; one kernel (229 registers when written,
// no spills).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_fused_combine=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/c.mlir %t/c
// RUN: FileCheck %s --check-prefix=ALL < %t/c/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=FUSED < %t/c/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90 -v %t/c/rock_attention_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not ls %t/c/rock_attention_kernel_0.ptx
// FUSED: membar.gl;
// FUSED-NEXT: bar.sync 0;
// FUSED: atom.global.add.u32 [[OLD:%r[0-9]+]], [[[CNT:%rd[0-9]+]]], 1;
// FUSED: membar.gl;
// FUSED: shfl.sync.bfly.b32
// FUSED: ex2.approx.ftz.f32
// FUSED: st.global.b32 [[[CNT]]], 0;
// The default kernels have no prefetch; rock.gpu_accel_l2_prefetch = 2 adds it
// (dense and paged); prefill has none by default.
// RUN: FileCheck %s --check-prefix=NOPF < %t/d/rock_attention_kernel.ptx
// RUN: FileCheck %s --check-prefix=NOPF < %t/p/rock_attention_kernel.ptx
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_l2_prefetch=2 --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/n.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/n.mlir %t/n
// RUN: FileCheck %s --check-prefixes=ALL,PF < %t/n/rock_attention_kernel.ptx
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --paged-attention --num-pages 4096 --page-size 2048 --arch sm_90 --module-attr rock.gpu_accel_l2_prefetch=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/q.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/q.mlir %t/q
// RUN: FileCheck %s --check-prefixes=ALL,PF < %t/q/rock_attention_kernel.ptx
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 128 -seq_len_k 384 -head_dim_qk 128 -head_dim_v 128 -causal --transK --arch sm_90 -wgmma=off \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/f.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/f.mlir %t/f
// RUN: FileCheck %s --check-prefix=NOPF < %t/f/rock_attention_kernel.ptx
// ALL: .entry rock_attention_kernel(
// ALL: .shared .align 16 .b8 __wg_rock_attention_kernel_0[36864];
// ALL-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// ALL-DAG: cp.async.commit_group;
// ALL-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// ALL-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PF-DAG: prefetch.global.L2 [g];
// K rows: K's B fragments without .trans; K^T: with .trans, and no scalar
// 16-bit global loads (rocMLIR's layout used to be read that way).
// ROWS: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// KT-NOT: ld.global.{{[a-z0-9.]*}}16
// KT: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// KT-NOT: ld.global.{{[a-z0-9.]*}}16
// NOPF-NOT: prefetch
// NOPF: mma.sync.aligned.m16n8k16
// NOPF-NOT: prefetch
// K and V in flight together (rock.gpu_accel_kv_overlap = true; by the
// staging rule the default up to 16 queries since run 13, so the default
// kernels above take it too):
// dense B 8 L 8k, rocMLIR's K layout, paged (16 tokens a page) B 8 L 32k per
// copy and by page runs, multi-token decode q 16 (four warps, 49152 bytes);
// no spills (233 / 241 / 255 / 247 / 240 registers when written).
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/od.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/od.mlir %t/od
// RUN: %ptxas -arch=sm_90 -v %t/od/rock_attention_kernel.ptx -o %t/od.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --arch sm_90 --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/ok.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/ok.mlir %t/ok
// RUN: %ptxas -arch=sm_90 -v %t/ok/rock_attention_kernel.ptx -o %t/ok.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --paged-attention --num-pages 16384 --page-size 2048 --arch sm_90 --module-attr rock.gpu_accel_kv_overlap=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/op.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/op.mlir %t/op
// RUN: %ptxas -arch=sm_90 -v %t/op/rock_attention_kernel.ptx -o %t/op.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 1 -seq_len_k 32768 -head_dim_qk 128 -head_dim_v 128 --paged-attention --num-pages 16384 --page-size 2048 --arch sm_90 --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_page_ahead=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/or.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/or.mlir %t/or
// RUN: %ptxas -arch=sm_90 -v %t/or/rock_attention_kernel.ptx -o %t/or.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 8 -num_heads_q 32 -num_heads_kv 8 -seq_len_q 16 -seq_len_k 8192 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 -causal -prefix_offset=8176,8176,8176,8176,8176,8176,8176,8176 -current_seq_len=8191,8191,8191,8191,8191,8191,8191,8191 --module-attr rock.gpu_accel_kv_overlap=true --module-attr rock.gpu_accel_key_warps=1 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/om.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/om.mlir %t/om
// RUN: %ptxas -arch=sm_90 -v %t/om/rock_attention_kernel.ptx -o %t/om.cubin 2>&1 | FileCheck %s --check-prefix=PTXM
// PTXM: Compiling entry function 'rock_attention_kernel' for 'sm_90'
// PTXM: 0 bytes spill stores, 0 bytes spill loads
// PTXM: Used {{[0-9]+}} registers, used 1 barriers, 49152 bytes smem
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Used {{[0-9]+}} registers, used 1 barriers, 36864 bytes smem
