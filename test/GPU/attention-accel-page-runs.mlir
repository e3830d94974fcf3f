// Paged K / V staged by page runs (rock.gpu_accel_page_ahead = true; by
// default with the K / V overlap from pages of 64 tokens, docs/gpu.md
// "Decode"; here without the overlap; passes/gpu/page_runs.c): the page pointers
// come from a view of the page table (the K / V chain re-rooted there, the
// in-page offset broadcast), one vector<1xi64> load per page of a tile, a
// tile ahead (V(t + 1) while V(t) streams, K(t + 2) after K(t + 1)), carried
// through the key loop as i64 values; a copy is pointer + offset
// (llvm.load + a store marked rock.async_copy), the run's pointer picked
// by a select. Pages of 16 tokens of d 128: 4 runs a 64-key tile.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 128 --page-size 2048 --module-attr rock.gpu_accel_page_ahead=true --module-attr rock.gpu_accel_kv_overlap=false \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=RUNS
// RUNS: #[[BC:.*]] = #rock.transform_map<#{{.*}} by [<PassThrough ["g", "p"] at [0, 1] -> ["g", "p"] at [0, 1]>, <Broadcast{1} ["i"] at [2] -> ["i"] at [2]>] bounds = [2, 128, 2048] -> [2, 128, 1]>
// RUNS: func.func @rock_attention(%{{.*}}: memref<{{.*}}xbf16>, %[[KT:.*]]: memref<{{.*}}xi64>, %[[VT:.*]]: memref<{{.*}}xi64>,
// RUNS: %[[KTV:.*]] = rock.transform %[[KT]] by
// RUNS: %[[VTV:.*]] = rock.transform %[[VT]] by
// RUNS: gpu.launch
// RUNS: %[[KB:.*]] = rock.transform %[[KTV]] by #[[BC]] : memref<2x128x1xi64> to memref<2x128x2048xi64>
// RUNS: %[[KP:.*]] = rock.transform {{.*}} to memref<4x1024x128xi64>
// RUNS: %[[VB:.*]] = rock.transform %[[VTV]] by #[[BC]]
// RUNS: %[[VP:.*]] = rock.transform {{.*}} to memref<4x1024x128xi64>
// The first K tile: 4 pointers, one loop of 32 copies.
// RUNS-COUNT-4: rock.view_load %[[KP]][{{.*}}] {rock.align = 8 : i64} : memref<4x1024x128xi64> -> vector<1xi64>
// RUNS: scf.for
// RUNS-COUNT-3: arith.select {{.*}} : i64
// RUNS: llvm.getelementptr
// RUNS-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
// RUNS: vector.store {{.*}} {alignment = 16 : i64, rock.async_copy}
// RUNS: nvvm.cp.async.commit.group
// V of the first tile and K of the second, before the key loop, which
// carries them (8 i64 values after m, l and the O tiles).
// RUNS-COUNT-4: rock.view_load %[[VP]]
// RUNS-COUNT-4: rock.view_load %[[KP]]
// RUNS: scf.for {{.*}} -> (f32, f32, f32, f32, vector<4xf32>, {{.*}}, vector<4xf32>, i64, i64, i64, i64, i64, i64, i64, i64) {
// RUNS: nvvm.cp.async.wait.group 0
// RUNS: arith.select {{.*}} : i64
// RUNS: llvm.load
// RUNS: nvvm.cp.async.commit.group
// RUNS-COUNT-4: rock.view_load %[[VP]]
// RUNS: nvvm.cp.async.wait.group 0
// RUNS: scf.if
// RUNS: llvm.load
// RUNS: nvvm.cp.async.commit.group
// RUNS: }
// RUNS-COUNT-4: rock.view_load %[[KP]]
// RUNS: scf.yield {{.*}} : f32, f32, f32, f32, vector<4xf32>, {{.*}}, i64, i64, i64, i64, i64, i64, i64, i64

// Pages of 64 tokens: one run a tile (one pointer per view and tile), with
// the switch and by default (the K / V overlap on for paged K / V).
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 32 --page-size 8192 --module-attr rock.gpu_accel_page_ahead=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=P64
// RUN: rock-gen --operation attention -t f16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 32 --page-size 8192 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=P64
// P64: scf.for {{.*}} -> (f32, f32, f32, f32, vector<4xf32>, {{.*}}, vector<4xf32>, i64, i64) {
// P64-NOT: arith.select {{.*}} : i64
// P64: scf.yield

// Where the proof or the tile does not hold, the per-copy staging stays:
// a key tail (1000 % 64), pages of 2 tokens (a tile's copy spans pages for
// some threads), and the default (no switch) for pages of 16 tokens.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1000 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 250 --page-size 1024 --module-attr rock.gpu_accel_page_ahead=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 1024 --page-size 256 --module-attr rock.gpu_accel_page_ahead=true \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1024 -head_dim_qk 128 -head_dim_v 128 --transK --arch sm_90 --paged-attention --num-pages 128 --page-size 2048 \
// RUN:   | rock-opt --pass-pipeline='builtin.module(rock-attention-to-gridwise,rock-combine-to-gpu,rock-gridwise-attention-to-gpu)' | FileCheck %s --check-prefix=OFF
// OFF-NOT: vector<1xi64>
// OFF-NOT: llvm.load
// OFF: rock.view_load {{.*}} {rock.align = 16 : i64} : memref<4x{{.*}}x128xbf16> -> vector<8xbf16>
// OFF-NOT: vector<1xi64>
// OFF-NOT: llvm.load
