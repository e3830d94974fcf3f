// REQUIRES: cuda-toolkit
// rock.gpu_wgmma_lazy_rescale (opt-in; passes/attention/softmax.c
// rock__attnRescaleLazy, passes/gpu/attention_wgmma_tile.c rock__wgRescale;
// docs/gpu-accel.md "Lazy rescaling"): a row's running maximum (in the exp2
// domain) moves only where the tile's maximum exceeds it by more than 8, so
// P <= 2^8; where no row of a warp moved (vote.sync any), the warp skips
// the multiplication of its O accumulators, whose factors are exactly 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_lazy_rescale=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=IR
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_lazy_rescale=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d.mlir %t/d
// RUN: FileCheck %s --check-prefix=PTX < %t/d/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d/rock_attention_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// d 64 (three consumer warpgroups), d 256 (ping-pong) and causal (the
// persistent form): the same step, no spills.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_lazy_rescale=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64.mlir %t/d64
// RUN: FileCheck %s --check-prefix=PTX < %t/d64/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d64/rock_attention_kernel.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --module-attr rock.gpu_wgmma_lazy_rescale=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d256.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d256.mlir %t/d256
// RUN: FileCheck %s --check-prefix=PTX < %t/d256/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d256/rock_attention_kernel.ptx -o %t/d256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_lazy_rescale=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/c.mlir %t/c
// RUN: FileCheck %s --check-prefix=PTX < %t/c/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/c/rock_attention_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Without the switch: no vote, the factor multiplies unconditionally.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// Bad values.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_lazy_rescale=2 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_lazy_rescale=\"yes\" \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD

// The step: the tile's maximum times log2 e against the old one plus 8.
// IR: %[[TAU:.*]] = arith.constant 8.000000e+00 : f32
// IR: %[[LIM:.*]] = arith.addf %[[MOLD:arg[0-9]+]], %[[TAU]] : f32
// IR-NEXT: %[[MV:.*]] = arith.cmpf ogt, %[[MT:.*]], %[[LIM]] : f32
// IR-NEXT: %[[SEL:.*]] = arith.select %[[MV]], %[[MT]], %[[MOLD]] : f32
// IR-NEXT: arith.maxnumf %[[MOLD]], %[[SEL]] : f32
// The warp's vote over its rows, then O rescaled only where one moved.
// IR: %[[ANYROW:.*]] = arith.ori %{{.*}}, %{{.*}} : i1
// IR-NEXT: %[[ANY:.*]] = nvvm.vote.sync  any %c-1_i32, %[[ANYROW]] -> i1
// IR-NEXT: %[[O:.*]] = scf.if %[[ANY]] -> (vector<64xf32>) {
// IR: arith.mulf %[[O0:.*]], %{{.*}} fastmath<reassoc,contract> : vector<64xf32>
// IR: } else {
// IR-NEXT: scf.yield %[[O0]] : vector<64xf32>

// PTX: .target sm_90a
// PTX: vote.sync.any.pred
// PTX: wgmma.mma_async.sync.aligned

// PTXAS-NOT: Potential Performance Loss
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// OFF-NOT: nvvm.vote.sync
// OFF-NOT: arith.cmpf ogt
// OFF: gpu.terminator

// BAD: error: rock.gpu_wgmma_lazy_rescale must be true or false
