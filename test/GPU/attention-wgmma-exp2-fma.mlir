// REQUIRES: cuda-toolkit
// rock.gpu_wgmma_exp2_fma = N (opt-in; passes/gpu/gridwise_attention_to_gpu.c
// exp2Fma, passes/attention/softmax.c rock__attnProbFma; docs/gpu-accel.md
// "exp2 on the FMA pipe"): in the sm_90a prefill schedule one score in N
// takes its exp2 from a polynomial on the FMA pipe instead of the
// special-function unit's ex2: clamp at -127 (NaN-propagating), round by
// adding and subtracting 1.5 * 2^23, Horner in FMAs (a cubic for bf16 P, a
// quartic for f16 P), times 2^n from the exponent bits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefixes=IR,CUB
// RUN: rock-gen --operation attention -t f16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefixes=IR,QRT
// In the PTX, a quarter of the 64 scores a thread a tile at d 128 (128 keys,
// two tile-loop bodies) leave ex2: 2 x 48 of P's plus the rescales' 2 x 2
// (4 without the switch: 2 x 64 + 4), with no spills at d 64 / 128 / 256
// and causal.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=4 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d.mlir %t/d
// RUN: FileCheck %s --check-prefix=PTX < %t/d/rock_attention_kernel.ptx
// RUN: grep -c ex2.approx %t/d/rock_attention_kernel.ptx | FileCheck %s --check-prefix=EX2
// RUN: %ptxas -arch=sm_90a -v %t/d/rock_attention_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 64 -head_dim_v 64 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=3 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d64.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d64.mlir %t/d64
// RUN: FileCheck %s --check-prefix=PTX < %t/d64/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d64/rock_attention_kernel.ptx -o %t/d64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 16 -num_heads_kv 16 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 256 -head_dim_v 256 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=2 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/d256.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/d256.mlir %t/d256
// RUN: FileCheck %s --check-prefix=PTX < %t/d256/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/d256/rock_attention_kernel.ptx -o %t/d256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 64 -num_heads_kv 8 -seq_len_q 4096 -seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128 -causal -return_lse --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=4 --module-attr rock.gpu_wgmma_lazy_rescale=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/c.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/c.mlir %t/c
// RUN: FileCheck %s --check-prefix=PTX < %t/c/rock_attention_kernel.ptx
// RUN: %ptxas -arch=sm_90a -v %t/c/rock_attention_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// Without the switch, and with f32 P (which keeps ex2): no polynomial.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' > %t/off.mlir
// RUN: python3 %rock_src/scripts/gpu_objects.py %t/off.mlir %t/off
// RUN: grep -c ex2.approx %t/off/rock_attention_kernel.ptx | FileCheck %s --check-prefix=EX2OFF
// RUN: FileCheck %s --check-prefix=OFF < %t/off/rock_attention_kernel.ptx
// Bad values.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=17 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=-1 \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 512 -seq_len_k 512 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --module-attr rock.gpu_wgmma_exp2_fma=true \
// RUN:   | not rock-opt --pass-pipeline='builtin.module(rock-gpu-pipeline)' 2>&1 | FileCheck %s --check-prefix=BAD

// The argument clamped at -127 (maximumf: NaN stays NaN), n by the 1.5 * 2^23
// rounding, f = x - n.
// IR-DAG: %[[LO:.*]] = arith.constant -1.270000e+02 : f32
// IR-DAG: %[[M:.*]] = arith.constant 0x4B400000 : f32
// CUB-DAG: arith.constant 0.0550087206 : f32
// QRT-DAG: arith.constant 0.00958283059 : f32
// IR: %[[XC:.*]] = arith.maximumf %{{.*}}, %[[LO]] : f32
// IR-NEXT: %[[T:.*]] = arith.addf %[[XC]], %[[M]] : f32
// IR-NEXT: %[[N:.*]] = arith.subf %[[T]], %[[M]] : f32
// IR-NEXT: %[[F:.*]] = arith.subf %[[XC]], %[[N]] : f32
// Horner from the leading coefficient: three FMAs (bf16), four (f16).
// IR-NEXT: llvm.intr.fma(%{{.*}}, %[[F]], %{{.*}})
// IR-NEXT: llvm.intr.fma(%{{.*}}, %[[F]], %{{.*}})
// QRT-NEXT: llvm.intr.fma(%{{.*}}, %[[F]], %{{.*}})
// IR-NEXT: %[[Q:.*]] = llvm.intr.fma(%{{.*}}, %[[F]], %[[ONE:.*]]) : (f32, f32, f32) -> f32
// 2^n from t's low bits: (t << 23) + bits(1.0).
// IR-NEXT: %[[TB:.*]] = arith.bitcast %[[T]] : f32 to i32
// IR-NEXT: %[[SH:.*]] = arith.shli %[[TB]], %{{.*}} : i32
// IR-NEXT: %[[E:.*]] = arith.addi %[[SH]], %{{.*}} : i32
// IR-NEXT: %[[S:.*]] = arith.bitcast %[[E]] : i32 to f32
// IR-NEXT: arith.mulf %[[Q]], %[[S]] : f32

// PTX: .target sm_90a
// PTX: max.NaN.f32 {{.*}}, 0fC2FE0000;
// PTX-NEXT: add.rn.f32 {{.*}}, 0f4B400000;
// PTX-NEXT: add.rn.f32 {{.*}}, 0fCB400000;
// PTX: shl.b32 {{.*}}, 23;
// PTX-NEXT: add.s32 {{.*}}, 1065353216;
// PTX: wgmma.mma_async.sync.aligned
// EX2: {{^}}100{{$}}
// EX2OFF: {{^}}132{{$}}

// PTXAS-NOT: Potential Performance Loss
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: Potential Performance Loss

// OFF-NOT: 0f4B400000
// OFF: wgmma.mma_async
// OFF-NOT: 0f4B400000


// BAD: error: rock.gpu_wgmma_exp2_fma must be an integer in [0, 16]
