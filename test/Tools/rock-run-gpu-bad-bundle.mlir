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
