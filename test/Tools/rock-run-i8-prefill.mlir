// i8 prefill in the packed form (docs/cpu.md): K packed per key tile in
// groups of 4 along d, Q·Kᵀ as vpdpbusd register blocks (rock.vnni:
// AVX512-VNNI; Q held as u8 q + 128, each key's accumulators starting from
// -128 Σ_d K[j][d]) or tdpbssd tiles (rock.amx), the i32 scores exact;
// gemm1 as f32 FMA blocks on V widened once per tile. Run where the host
// has the instructions; the IR and the x86 code are pinned everywhere.
//
// Executed (AVX512-VNNI hosts): partial key tiles (Sk 1001, 333, 513),
// causal, GQA (8 / 2), full-range i8 (-128..127: scores up to 2^21), head
// dims 64 / 128 with Dv 32 / 128, KV-cache length, sliding window, scale
// and bias regions (rock's f32 region, and rocmlir-gen's f16 one checked
// strictly: every score rounds as the reference's), split KV with LSE,
// paged K / V, transposed operands (K d-minor: the other packing loop);
// against the f64 reference, and --no-host-features (the transposed i32
// form) and x86-64-v3 code (AVX2, the transposed form) on the same input.
// RUN: rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 257 -seq_len_k 1001 -head_dim_qk 128 -head_dim_v 128 -causal -rand 3 -pv > %t.causal.mlir
// RUN: %if avx512vnni %{ rock-run -v %t.causal.mlir | FileCheck %s --check-prefix=VNNI %}
// RUN: rock-run --no-host-features %t.causal.mlir | FileCheck %s
// RUN: rock-run --cpu x86-64-v3 -v %t.causal.mlir | FileCheck %s --check-prefix=AVX2
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 257 -seq_len_k 1001 -head_dim_qk 128 -head_dim_v 128 -causal -rand 3 -rand_min_int -128 -rand_max_int 127 -pv | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 2 -num_heads_q 4 -num_heads_kv 4 -seq_len_q 300 -seq_len_k 333 -head_dim_qk 64 -head_dim_v 32 -rand 3 -pv | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 640 -head_dim_qk 128 -head_dim_v 128 -split_kv 3 -return_lse -causal -rand 3 -pv | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 640 -head_dim_qk 128 -head_dim_v 128 -current_seq_len=500,37 -rand 3 -pv | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 -sliding_window_size 100 -causal -rand 3 -pv | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 513 -head_dim_qk 128 -head_dim_v 128 --with-attn-scale --with-attn-bias -rand 3 -pv | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 513 -head_dim_qk 128 -head_dim_v 128 --with-attn-scale --with-attn-bias --rocmlir-region -rand 3 -pv-strict | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --paged-attention --page-size 2048 --num-pages 128 -rand 3 -pv | rock-run | FileCheck %s %}
// RUN: %if avx512vnni %{ rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 300 -seq_len_k 600 -head_dim_qk 128 -head_dim_v 128 -transK=true -transV=true -transQ=true -transO=true -causal -rand 3 -pv | rock-run | FileCheck %s %}
//
// The tiling: the packed form takes 128 keys per tile once Sk >= 1024 (with
// rock.vnni or rock.amx); the same i8 problem without either, 64.
// RUN: rock-gen --operation attention -t i8 -g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1024 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 -ph > %t.long.mlir
// RUN: rock-opt %t.long.mlir --rock-attention-to-gridwise | FileCheck %s --check-prefix=TILE64
// RUN: sed -e 's/^module attributes {/module attributes {rock.vnni, /' -e 's/^module {/module attributes {rock.vnni} {/' %t.long.mlir | rock-opt --rock-attention-to-gridwise | FileCheck %s --check-prefix=TILE128
//
// The vpdpbusd form's IR (rock.vnni given explicitly) and its code.
// RUN: sed -e 's/^module attributes {/module attributes {rock.vnni, /' -e 's/^module {/module attributes {rock.vnni} {/' %t.causal.mlir > %t.vnni.mlir
// RUN: rock-opt %t.vnni.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-VNNI
// RUN: rock-opt %t.causal.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-NONE
// RUN: rock-opt %t.vnni.mlir --rock-cpu-pipeline | mlir-translate --mlir-to-llvmir | %llc -O3 -mcpu=znver4 | FileCheck %s --check-prefix=ASM-VNNI
//
// The AMX-INT8 form's IR and code for an AMX CPU, and its run where the
// host has AMX (rock-run sets rock.amx itself there).
// RUN: sed -e 's/^module attributes {/module attributes {rock.amx, /' -e 's/^module {/module attributes {rock.amx} {/' %t.causal.mlir > %t.amx.mlir
// RUN: rock-opt %t.amx.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR-AMX
// RUN: rock-opt %t.amx.mlir --rock-cpu-pipeline | mlir-translate --mlir-to-llvmir | %llc -O3 -mcpu=sapphirerapids | FileCheck %s --check-prefix=ASM-AMX
// RUN: %if amx %{ rock-run -v %t.causal.mlir | FileCheck %s --check-prefix=RUN-AMX %}
// RUN: %if amx %{ rock-gen --operation attention -t i8 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 -seq_len_k 640 -head_dim_qk 128 -head_dim_v 128 -split_kv 3 -return_lse -causal -rand 3 -rand_min_int -128 -rand_max_int 127 -pv | rock-run | FileCheck %s %}
// A module that asks for VNNI on a CPU without it is refused.
// RUN: not rock-run --cpu x86-64-v3 %t.vnni.mlir 2>&1 | FileCheck %s --check-prefix=NO-VNNI

// CHECK: [1 1 1]
// VNNI: host features: {{.*}}vnni (avx512vnni)
// VNNI: [1 1 1]
// AVX2: host features: none
// AVX2: [1 1 1]
// TILE64: mPerBlock = 64 : i32
// TILE128: mPerBlock = 128 : i32
// IR-NONE-NOT: vpdpbusd
// IR-NONE-NOT: amx.
// Q to u8 by flipping the sign bit; K packed in groups of 4 along d (four
// key-major rows of 16 keys joined and interleaved), the key bias by
// vpdpbusd of u8 128 with the packed K.
// IR-VNNI: arith.xori {{.*}} : vector<{{[0-9]+}}xi8>
// IR-VNNI: vector.shuffle {{.*}} [0, 16, 32, 48, 1, 17, 33, 49, {{.*}} : vector<32xi8>, vector<32xi8>
// IR-VNNI: vector.store {{.*}} : memref<32x256xi8>, vector<64xi8>
// IR-VNNI: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// IR-VNNI: arith.subi {{.*}} : vector<16xi32>
// gemm0: per row group, the keys up to the group's last visible key, 16
// i32 accumulators starting from the key bias, one broadcast Q group per row.
// IR-VNNI: arith.minsi %{{.*}}, %{{.*}} : index
// IR-VNNI: vector.load {{.*}} : memref<64xi32>, vector<16xi32>
// IR-VNNI: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// IR-VNNI: vector.shuffle {{.*}} [0, 1, 2, 3, 0, 1, 2, 3
// IR-VNNI: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// Then the group's last 1-4 vectors of 16 keys in one narrower block.
// IR-VNNI: scf.index_switch
// IR-VNNI-NEXT: case 1 {
// IR-VNNI: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>) {
// IR-VNNI: case 4 {
// The dequantising region on 16 scores at a time (its ops cloned on
// vectors), then the tail's scores one by one; the row's maximum after them.
// IR-VNNI: arith.subi {{.*}} : vector<16xi32>
// IR-VNNI-NEXT: arith.sitofp {{.*}} : vector<16xi32> to vector<16xf32>
// IR-VNNI: arith.sitofp {{.*}} : i32 to f32
// IR-VNNI: vector.reduction <maxnumf>
// gemm1: f32 FMA blocks (16 accumulators) on the f32 P and V tiles.
// IR-VNNI: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// IR-VNNI: llvm.intr.fma
// IR-VNNI-NOT: amx.
// ASM-VNNI: vpdpbusd {{.*}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// ASM-VNNI: vfmadd231ps {{.*}}%zmm{{[0-9]+}}
// IR-AMX: amx.tile_zero : !amx.tile<16x16xi32>
// IR-AMX: amx.tile_load {{.*}} : memref<128x128xi8> into !amx.tile<16x64xi8>
// IR-AMX: amx.tile_load {{.*}} : memref<32x256xi8> into !amx.tile<16x64xi8>
// IR-AMX: amx.tile_muli {{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// IR-AMX: amx.tile_store {{.*}} : memref<128x64xi32>, !amx.tile<16x16xi32>
// IR-AMX-NOT: vpdpbusd
// IR-AMX-NOT: arith.xori {{.*}}xi8
// ASM-AMX: ldtilecfg
// ASM-AMX: tdpbssd %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
// ASM-AMX: tilerelease
// RUN-AMX: host features: {{.*}}amx (amx-bf16, amx-int8)
// RUN-AMX: [1 1 1]
// NO-VNNI: the module has `rock.vnni` (AVX512-VNNI dot products) but {{.+}} lacks it
