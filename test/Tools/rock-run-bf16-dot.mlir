// REQUIRES: avx512bf16
// bf16 paged GQA decode on a CPU with AVX512-BF16: rock-run adds the `dot`
// GemmFeature, the fused decode loops use vdpbf16ps (two keys per
// instruction in P·V, 32 head-dim lanes per instruction in Q·Kᵀ), and the
// result still matches the f64 reference; --no-host-features keeps the f32
// FMA loops. Odd key counts exercise the f32 tail of the key-pair loop,
// the KV cache lengths whole empty tiles.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1040 -head_dim_qk 128 -head_dim_v 128 --paged-attention --page-size 2048 --num-pages 130 -current_seq_len=1037,3 -causal -pv-strict > %t.mlir
// RUN: rock-run -v %t.mlir | FileCheck %s --check-prefix=DOT
// RUN: rock-run -v --no-host-features %t.mlir | FileCheck %s --check-prefix=FMA
// The module attribute rock.cpu_decode_dot = false keeps the FMA loops under
// `dot` (an ablation); a value that is not a bool is refused.
// RUN: sed -e 's/^module {/module attributes {rock.cpu_decode_dot = false} {/' %t.mlir > %t.nodot.mlir
// RUN: rock-run -v %t.nodot.mlir | FileCheck %s --check-prefix=DOT
// RUN: sed -e 's/splitKV = 1 : i32,/splitKV = 1 : i32, features = #rock<GemmFeatures dot>,/' %t.nodot.mlir | rock-opt --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-NONE
// RUN: sed -e 's/^module {/module attributes {rock.cpu_decode_dot = 1 : i64} {/' %t.mlir | not rock-run - 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rock-opt %t.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-NONE
// RUN: sed -e 's/splitKV = 1 : i32,/splitKV = 1 : i32, features = #rock<GemmFeatures dot>,/' %t.mlir > %t.dot.mlir
// RUN: rock-opt %t.dot.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-DOT
// At d 128 the dot form holds Q's four rows in registers: 16 loads before
// the key loop, none in it, one accumulator chain per row.
// RUN: rock-opt %t.dot.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=QREG
// Split KV with LSE, odd lengths, no mask.
// RUN: rock-gen --operation attention -t bf16 -g 3 -num_heads_q 4 -num_heads_kv 1 -seq_len_q 1 -seq_len_k 515 -head_dim_qk 64 -head_dim_v 64 -split_kv 4 -return_lse -pv-strict | rock-run -v | FileCheck %s --check-prefix=DOT

// DOT: host features: dot (avx512bf16)
// DOT: [1 1 1]
// FMA: host features: none
// FMA: [1 1 1]
// IR-NONE-NOT: dpbf16ps
// IR-DOT: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-DOT: vector.shuffle {{.*}} [0, 32, 1, 33, 2, 34
// IR-DOT: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// BAD: rock.cpu_decode_dot must be true or false
// QREG-COUNT-16: = vector.load %{{.*}} : memref<4x128xbf16>, vector<32xbf16>
// QREG-NEXT: scf.for
// QREG-NOT: vector.load {{.*}}memref<4x128xbf16>
// QREG: %[[D0:.*]] = llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%cst{{.*}}) :
// QREG-NOT: vector.load {{.*}}memref<4x128xbf16>
// QREG: = llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%[[D0]],
