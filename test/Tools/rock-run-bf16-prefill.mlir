// bf16 prefill in the packed form (docs/cpu.md): K and V packed per key tile
// into pairs, the gemms as vdpbf16ps register blocks (AVX512-BF16, the `dot`
// GemmFeature) or AMX tiles (the module attribute rock.amx). Run where the
// host has the instructions; the IR and the x86 code are pinned everywhere.
//
// Executed (AVX512-BF16 hosts): 64- and 128-key tiles, partial key tiles,
// odd key counts, head dims
// 32/64/96/128, causal, KV-cache lengths, sliding window, scale and bias
// regions, split KV with LSE, paged K/V (K then d-major), transposed
// operands; against the f64 reference (allclose), and --no-host-features
// (the f32 loops) on the same input.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 257 -seq_len_k 1001 -head_dim_qk 128 -head_dim_v 128 -causal -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose > %t.causal.mlir
// RUN: %if avx512bf16 %{ rock-run -v %t.causal.mlir | FileCheck %s --check-prefix=DOT %}
// RUN: rock-run --no-host-features %t.causal.mlir | FileCheck %s
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 2 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 300 -seq_len_k 333 -head_dim_qk 32 -head_dim_v 96 -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 200 -head_dim_qk 64 -head_dim_v 64 -causal -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 640 -head_dim_qk 128 -head_dim_v 128 -split_kv 3 -return_lse -causal -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 640 -head_dim_qk 128 -head_dim_v 128 -current_seq_len=500,37 -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 300 -seq_len_k 1100 -head_dim_qk 128 -head_dim_v 128 -causal -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -sliding_window_size 100 -causal -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 513 -head_dim_qk 128 -head_dim_v 128 --with-attn-scale --with-attn-bias -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --paged-attention --page-size 2048 --num-pages 128 -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// RUN: %if avx512bf16 %{ rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 600 -head_dim_qk 128 -head_dim_v 128 -transK=true -transV=true -transQ=true -transO=true -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
//
// The tiling: the packed form takes 128 keys per tile once Sk >= 1024 (with
// `dot` or rock.amx); the same bf16 problem without either, 64.
// RUN: rock-gen --operation attention -t bf16 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 -ph > %t.long.mlir
// RUN: rock-opt %t.long.mlir --rock-attention-to-gridwise | FileCheck %s --check-prefix=TILE64
// RUN: sed -e 's/splitKV = 1 : i32,/splitKV = 1 : i32, features = #rock<GemmFeatures dot>,/' %t.long.mlir | rock-opt --rock-attention-to-gridwise | FileCheck %s --check-prefix=TILE128
// RUN: sed -e 's/^module attributes {/module attributes {rock.amx, /' -e 's/^module {/module attributes {rock.amx} {/' %t.long.mlir | rock-opt --rock-attention-to-gridwise | FileCheck %s --check-prefix=TILE128
//
// The vdpbf16ps form's IR (the `dot` GemmFeature given explicitly).
// RUN: sed -e 's/splitKV = 1 : i32,/splitKV = 1 : i32, features = #rock<GemmFeatures dot>,/' %t.causal.mlir > %t.dot.mlir
// RUN: rock-opt %t.dot.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-DOT
// RUN: rock-opt %t.causal.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-NONE
// RUN: rock-opt %t.dot.mlir --rock-cpu-pipeline | mlir-translate --mlir-to-llvmir | %llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=ASM-DOT
//
// The AMX form's IR and code for an AMX CPU, and its run where the host
// has AMX (rock-run sets rock.amx itself there).
// RUN: sed -e 's/^module attributes {/module attributes {rock.amx, /' -e 's/^module {/module attributes {rock.amx} {/' %t.dot.mlir > %t.amx.mlir
// RUN: rock-opt %t.amx.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-AMX
// RUN: rock-opt %t.amx.mlir --rock-cpu-pipeline | mlir-translate --mlir-to-llvmir | %llc -O3 -mcpu=sapphirerapids | FileCheck %s --check-prefix=ASM-AMX
// RUN: %if amx %{ rock-run -v %t.causal.mlir | FileCheck %s --check-prefix=RUN-AMX %}
// RUN: %if amx %{ rock-gen --operation attention -t bf16 -g 2 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 300 -seq_len_k 333 -head_dim_qk 32 -head_dim_v 96 -rand 3 -rand_type float -rand_min -1 -rand_max 1 -pv --comparator allclose | rock-run | FileCheck %s %}
// A module that asks for AMX on a CPU without it is refused.
// RUN: sed -e 's/^module attributes {/module attributes {rock.amx, /' -e 's/^module {/module attributes {rock.amx} {/' %t.causal.mlir > %t.amx-only.mlir
// RUN: not rock-run --cpu x86-64-v3 %t.amx-only.mlir 2>&1 | FileCheck %s --check-prefix=NO-AMX
// RUN: %if !amx %{ not rock-run %t.amx-only.mlir 2>&1 | FileCheck %s --check-prefix=NO-AMX %}

// CHECK: [1 1 1]
// TILE64: mPerBlock = 64 : i32
// TILE128: mPerBlock = 128 : i32
// DOT: host features: dot (avx512bf16)
// DOT: [1 1 1]
// IR-NONE-NOT: dpbf16ps
// IR-NONE-NOT: amx.
// K packed by pairs of d: two key-major rows interleaved per 32 keys.
// IR-DOT: rock.view_load {{.*}} -> vector<32xbf16>
// IR-DOT: vector.shuffle {{.*}} [0, 32, 1, 33, 2, 34
// IR-DOT: vector.store {{.*}} : memref<64x128xbf16>, vector<32xbf16>
// gemm0: per row group, the keys up to the group's last visible key
// (causal), 16 accumulators, one broadcast Q pair per row.
// IR-DOT: arith.maxsi %{{.*}}, %{{.*}} : index
// IR-DOT: arith.minsi %{{.*}}, %{{.*}} : index
// IR-DOT: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// IR-DOT: vector.shuffle {{.*}} [0, 1, 0, 1, 0, 1
// IR-DOT: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// P to bf16 by vcvtneps2bf16, then gemm1 on the packed V.
// IR-DOT: llvm.call_intrinsic "llvm.x86.avx512bf16.cvtneps2bf16.512"
// IR-DOT: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// IR-DOT-NOT: amx.
// ASM-DOT: vbroadcastss {{.*}}, %zmm
// ASM-DOT: vdpbf16ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// ASM-DOT: vcvtneps2bf16
// IR-AMX: amx.tile_zero : !amx.tile<16x16xf32>
// IR-AMX: amx.tile_load {{.*}} : memref<128x128xbf16> into !amx.tile<16x32xbf16>
// IR-AMX: amx.tile_load {{.*}} : memref<64x128xbf16> into !amx.tile<16x32xbf16>
// IR-AMX: amx.tile_mulf {{.*}} : !amx.tile<16x32xbf16>, !amx.tile<16x32xbf16>, !amx.tile<16x16xf32>
// IR-AMX: amx.tile_store {{.*}} : memref<128x64xf32>, !amx.tile<16x16xf32>
// IR-AMX: amx.tile_load {{.*}} : memref<128x128xf32> into !amx.tile<16x16xf32>
// IR-AMX: amx.tile_mulf
// IR-AMX-NOT: dpbf16ps.512
// ASM-AMX: ldtilecfg
// ASM-AMX: tdpbf16ps %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
// ASM-AMX: tilerelease
// RUN-AMX: host features: dot (avx512bf16) vnni (avx512vnni) amx (amx-bf16, amx-int8)
// RUN-AMX: [1 1 1]
// NO-AMX: the module has `rock.amx` (AMX-BF16 / AMX-INT8 tiles) but {{.+}} lacks it
