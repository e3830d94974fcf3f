// rock.num_threads is bounded (ROCK_MAX_NUM_THREADS, 65536) at the lowered
// op: a larger value once made the internal-split doubling loop overflow and
// spin forever. The bound itself still lowers.
// RUN: rock-gen -t f32 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 8 -head_dim_v 8 | sed 's/^module attributes {/module attributes {rock.num_threads = 9223372036854775807 : i64, /' > %t.huge.mlir
// RUN: not rock-opt --rock-cpu-pipeline %t.huge.mlir 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: rock.num_threads must be at most 65536
// RUN: rock-gen -t f32 -seq_len_q 1 -seq_len_k 64 -head_dim_qk 8 -head_dim_v 8 | sed 's/^module attributes {/module attributes {rock.num_threads = 65536 : i64, /' | rock-opt --rock-cpu-pipeline | FileCheck %s --check-prefix=MAX
// MAX: llvm.func @rock_attention
