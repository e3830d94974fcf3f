// Malformed bundles: one line naming the bundle line, exit 3, no crash.
// RUN: printf 'not a bundle\n' > %t.b1
// RUN: sh -c 'rock-run-gpu %t.b1 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: rock-run-gpu: error: bundle line 1: not a rock GPU bundle
// MAGIC-NEXT: exit 3
// RUN: printf 'rock-gpu-bundle 2\nend\n' > %t.b2
// RUN: sh -c 'rock-run-gpu %t.b2 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: rock-run-gpu: error: bundle line 1: unsupported bundle version: 2
// VERSION-NEXT: exit 3
// RUN: printf 'rock-gpu-bundle 1\narch sm_90\n' > %t.b3
// RUN: sh -c 'rock-run-gpu %t.b3 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: rock-run-gpu: error: bundle line 2: bundle truncated (no 'end' line)
// TRUNC-NEXT: exit 3
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 100\nabc\n' > %t.b4
// RUN: sh -c 'rock-run-gpu %t.b4 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=OBJ
// OBJ: rock-run-gpu: error: bundle line 2: object truncated: k
// OBJ-NEXT: exit 3
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 f32 4\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam arg 5\nend\n' > %t.b5
// RUN: sh -c 'rock-run-gpu %t.b5 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: rock-run-gpu: error: bundle: a param index is out of range in: rock_attention
// PARAM-NEXT: exit 3
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 f32 4\nlaunch 0 k grid 0 1 1 block 1 1 1 smem 0\nend\n' > %t.b6
// RUN: sh -c 'rock-run-gpu %t.b6 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: rock-run-gpu: error: bundle line 6: bad launch geometry: 0
// GRID-NEXT: exit 3
// The harness is checked as rock-run checks rock.harness.
// RUN: printf 'rock-gpu-bundle 1\nharness seq_len_q 1\nharness seq_len_k 4\nharness head_dim_qk 2\nharness head_dim_v 2\nharness num_heads_q 3\nharness num_heads_kv 2\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 f32 4\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nend\n' > %t.b7
// RUN: sh -c 'rock-run-gpu %t.b7 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=HARNESS
// HARNESS: rock-run-gpu: error: bundle harness: num_heads_q must be a multiple of num_heads_kv
// HARNESS-NEXT: exit 3
// A bundle whose kernel does not take the harness's arguments.
// RUN: printf 'rock-gpu-bundle 1\nharness seq_len_q 1\nharness seq_len_k 4\nharness head_dim_qk 2\nharness head_dim_v 2\nobject 0 k ptx 3\nabc\nfunction rock_attention 4\narg 0 f32 2\narg 1 f32 8\narg 2 f16 8\narg 3 f32 2\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nend\n' > %t.b8
// RUN: sh -c 'rock-run-gpu %t.b8 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=SIG
// SIG: rock-run-gpu: error: @rock_attention argument 2 (V) is memref<8xf16>, the harness expects memref<8xf32>
// SIG-NEXT: exit 3
// Tensor maps (tensor_map lines, param tmap): a malformed line names its
// line; a map against TMA's rules or outside its argument is refused as a
// whole (bf16 K of 1 x 128 keys x 64 d: 8192 elements).
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 arg 0 bf16 offset 0 rank 3 dims 64 128 strides 128 16384 box 64 128 1 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t1
// RUN: sh -c 'rock-run-gpu %t.t1 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPLINE
// TMAPLINE: rock-run-gpu: error: bundle line 6: bad tensor_map line
// TMAPLINE-NEXT: exit 3
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 arg 0 bf16 offset 0 rank 3 dims 64 128 1 strides 128 16384 box 64 128 1 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 1\nend\n' > %t.t2
// RUN: sh -c 'rock-run-gpu %t.t2 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPIDX
// TMAPIDX: rock-run-gpu: error: bundle: a param index is out of range in: rock_attention
// TMAPIDX-NEXT: exit 3
// One key row too many: the map would read past K.
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 arg 0 bf16 offset 0 rank 3 dims 64 129 1 strides 128 16384 box 64 128 1 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t3
// RUN: sh -c 'rock-run-gpu %t.t3 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPOUT
// TMAPOUT: rock-run-gpu: error: bundle: a tensor map breaks a TMA rule or leaves its argument in: rock_attention
// TMAPOUT-NEXT: exit 3
// A 256-byte inner box with the 128-byte swizzle; a stride off 16 bytes;
// a box above 256; the wrong element type.
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 arg 0 bf16 offset 0 rank 2 dims 128 64 strides 256 box 128 64 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t4
// RUN: sh -c 'rock-run-gpu %t.t4 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPOUT
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 arg 0 bf16 offset 0 rank 2 dims 60 128 strides 120 box 64 128 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t5
// RUN: sh -c 'rock-run-gpu %t.t5 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPOUT
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 arg 0 bf16 offset 0 rank 2 dims 64 128 strides 128 box 64 512 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t6
// RUN: sh -c 'rock-run-gpu %t.t6 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPOUT
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 arg 0 f16 offset 0 rank 2 dims 64 128 strides 128 box 64 128 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t7
// RUN: sh -c 'rock-run-gpu %t.t7 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPTYPE
// TMAPTYPE: rock-run-gpu: error: bundle: a tensor map's argument or element type is wrong in: rock_attention
// TMAPTYPE-NEXT: exit 3
// A pool map (`pool A`: over the page pool of page table A) needs an i64
// table of a paged harness, and must lie inside that pool (entries x
// page_size elements: 4 x 2048 = 64 rows of 128 here, not 65).
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 bf16 8192\ntensor_map 0 pool 0 bf16 offset 0 rank 3 dims 128 64 1 strides 256 16384 box 64 16 1 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t8
// RUN: sh -c 'rock-run-gpu %t.t8 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPTYPE
// RUN: printf 'rock-gpu-bundle 1\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 i64 4\ntensor_map 0 pool 0 bf16 offset 0 rank 3 dims 128 64 1 strides 256 16384 box 64 16 1 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t9
// RUN: sh -c 'rock-run-gpu %t.t9 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPTYPE
// RUN: printf 'rock-gpu-bundle 1\nharness paged 1\nharness page_size 2048\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 i64 4\ntensor_map 0 pool 0 bf16 offset 0 rank 3 dims 128 65 1 strides 256 16640 box 64 16 1 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t10
// RUN: sh -c 'rock-run-gpu %t.t10 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPOUT
// The same map of 64 rows passes the map rules (and fails later, on the
// harness, which holds nothing else).
// RUN: printf 'rock-gpu-bundle 1\nharness paged 1\nharness page_size 2048\nobject 0 k ptx 3\nabc\nfunction rock_attention 1\narg 0 i64 4\ntensor_map 0 pool 0 bf16 offset 0 rank 3 dims 128 64 1 strides 256 16384 box 64 16 1 swizzle 128\nlaunch 0 k grid 1 1 1 block 1 1 1 smem 0\nparam tmap 0\nend\n' > %t.t11
// RUN: sh -c 'rock-run-gpu %t.t11 --check; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TMAPPOOL
// TMAPPOOL-NOT: tensor map
// TMAPPOOL: rock-run-gpu: error: bundle harness: problem sizes must be positive
// TMAPPOOL-NEXT: exit 3
