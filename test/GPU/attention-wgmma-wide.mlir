// REQUIRES: cuda-toolkit
// The plan parameters of the sm_90a prefill schedule
// (passes/gpu/attention_wgmma.c, planShape / planKeys; docs/gpu-accel.md):
// the producer form with TMA at d 256 (by default; two consumer
// warpgroups of 64 rows, 64-key tiles, setmaxnreg 240 / 24;
// rock.gpu_wgmma_wide = false turns it off); rock.gpu_wgmma_keys, the key
// tile (192 at d 64: m64n192k16 scores); rock.gpu_wgmma_consumers = 3,
// three consumer warpgroups (192 rows, 512 threads, setmaxnreg 160 / 32;
// the rule's at d 64). ptxas: no spills.
// RUN: rm -rf %t && mkdir -p %t
// d 256, GQA 8 / 2, causal, LSE, a key tail (600 keys), by default.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 600 -head_dim_qk 256 -head_dim_v 256 -causal -return_lse --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/w.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/w.mlir %t/w
// RUN: FileCheck %s --check-prefix=WIDE < %t/w/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/w/rock_attention_kernel.ptx -o %t/w.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 600 -head_dim_qk 256 -head_dim_v 256 -causal -return_lse --transK --arch sm_90 -pv \
// RUN:   | rock-run --compile-only -o %t/w.bundle
// RUN: FileCheck %s --check-prefix=WMAPS < %t/w.bundle
// rock.gpu_wgmma_wide = false keeps the form where every thread copies at
// d 256; so does a pre-softmax region (scale + bias).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 600 -head_dim_qk 256 -head_dim_v 256 -causal -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_wide=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/n.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/n.mlir %t/n
// RUN: FileCheck %s --check-prefix=NOWIDE < %t/n/rock_attention_kernel.ptx
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 600 -head_dim_qk 256 -head_dim_v 256 --with-attn-scale --with-attn-bias --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/r.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/r.mlir %t/r
// RUN: FileCheck %s --check-prefix=NOWIDE < %t/r/rock_attention_kernel.ptx
// d 64 with 192-key tiles (a key tail: 1000 keys).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 1024 -seq_len_k 1000 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_keys=192 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/k.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/k.mlir %t/k
// RUN: FileCheck %s --check-prefix=KEYS < %t/k/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/k/rock_attention_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// A key tile that does not fit the 227 KiB (256 keys at d 256) keeps the
// rule's 64 (the plan line of the tuning space says which it took).
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --module-attr rock.gpu_wgmma_keys=256 --emit-tuning-space=quick -v 2>&1 | FileCheck %s --check-prefix=KEYS256
// d 64 with three consumer warpgroups (the rule's), K stored [d][keys], f16.
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/c.mlir %t/c
// RUN: FileCheck %s --check-prefix=CW3 < %t/c/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/c/rock_attention_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Causal: two consumer warpgroups (three spill with the masks).
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 64 -head_dim_v 64 -causal --arch sm_90 --module-attr rock.gpu_wgmma_consumers=3 --emit-tuning-space=quick -v 2>&1 | FileCheck %s --check-prefix=CW3C
// Ping-pong: by rule at d 256 without per-row key limits (the non-causal
// heuristic below: pingpong 1), not causal; an explicit switch wins both
// ways (IR: the named barriers' arrivals).
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PP
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=NOPP
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 256 -head_dim_v 256 -causal --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=NOPP
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 8 -seq_len_q 256 -seq_len_k 512 -head_dim_qk 256 -head_dim_v 256 -causal --transK --arch sm_90 --module-attr rock.gpu_wgmma_pingpong=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=PP
// PP: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// PP: nvvm.wgmma.commit.group.sync.aligned
// NOPP-NOT: nvvm.barrier.arrive
// NOPP: nvvm.wgmma.commit.group.sync.aligned
// NOPP-NOT: nvvm.barrier.arrive
// The tuning space offers them (perf_config fields wide, wkeys, consumers)
// where they change the plan.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --emit-tuning-space=quick -v 2>&1 | FileCheck %s --check-prefix=TUNE256
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --emit-tuning-space=quick -v 2>&1 | FileCheck %s --check-prefix=TUNE64

// TUNE256: # heuristic: wgmma warpgroups 2 rows 128 keys 64 producer 1 overlap 1 pingpong 1 swizzle128 1 tma 1
// TUNE256: {{^}}attn:v3:{{[0-9,]+}}:rock:producer=0{{[[:space:]]}}wgmma warpgroups 2 rows 128 keys 64 producer 0 overlap 1 pingpong 0 {{.*}} tma 0
// TUNE256: {{^}}attn:v3:{{[0-9,]+}}:rock:pingpong=0{{[[:space:]]}}wgmma warpgroups 2 rows 128 keys 64 producer 1 overlap 1 pingpong 0 {{.*}} tma 1
// (wide=0 is the plan of producer=0: one candidate)
// TUNE256-NOT: wide=0
// TUNE256-NOT: wkeys=192
// TUNE256-NOT: consumers=3
// TUNE64: # heuristic: wgmma warpgroups 3 rows 192 keys 128 producer 1
// TUNE64-NOT: rock:consumers=3
// 192-key tiles take two consumer warpgroups (three spill).
// TUNE64: {{^}}attn:v3:{{[0-9,]+}}:rock:wkeys=192{{[[:space:]]}}wgmma warpgroups 2 rows 128 keys 192 producer 1
// TUNE64: {{^}}attn:v3:{{[0-9,]+}}:rock:consumers=2{{[[:space:]]}}wgmma warpgroups 2 rows 128 keys 128 producer 1

// WIDE: .target sm_90a
// WIDE: .maxntid 384, 1, 1
// WIDE: mbarrier.init.shared.b64
// WIDE: setmaxnreg.dec.sync.aligned.u32 24;
// WIDE: cp.async.cg.shared.global
// 32 KiB a K tile (64 keys x 256 x 2 bytes), four 64-element boxes.
// WIDE: mov.b32 [[BYTES:%r[0-9]+]], 32768;
// WIDE-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[BYTES]];
// WIDE-COUNT-4: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// WIDE: setmaxnreg.inc.sync.aligned.u32 240;
// WIDE: mbarrier.try_wait.parity.shared.b64
// WIDE: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// P·V: P from registers, O 64 x 256.
// WIDE: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{[{]}}{{(%r[0-9]+, ){127}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// WIDE-NOT: mma.sync

// WMAPS: tensor_map {{.*}}box 64 64 1
// WMAPS: tensor_map {{.*}}box 64 64 1

// NOWIDE: .maxntid 256, 1, 1
// NOWIDE-NOT: setmaxnreg
// NOWIDE-NOT: cp.async.bulk.tensor
// NOWIDE: wgmma.mma_async.sync.aligned.m64n256k16

// KEYS: .maxntid 384, 1, 1
// KEYS: setmaxnreg.dec.sync.aligned.u32 40;
// 24 KiB a K tile (192 keys x 64 x 2 bytes).
// KEYS: mov.b32 [[KB:%r[0-9]+]], 24576;
// KEYS-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [[KB]];
// KEYS: setmaxnreg.inc.sync.aligned.u32 232;
// KEYS: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16
// KEYS: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16

// KEYS256: # heuristic: wgmma warpgroups 2 rows 128 keys 64 producer 1

// CW3: .maxntid 512, 1, 1
// CW3: setmaxnreg.dec.sync.aligned.u32 32;
// CW3: cp.async.bulk.tensor.3d
// CW3: setmaxnreg.inc.sync.aligned.u32 160;
// CW3: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CW3: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16

// CW3C: # heuristic: wgmma warpgroups 2 rows 128 keys 128 producer 1

// PTXAS-NOT: Potential Performance Loss
// PTXAS: Compiling entry function 'rock_attention_kernel' for 'sm_90a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss
