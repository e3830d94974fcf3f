// The module attribute rock.debug_text (docs/internals.md "Debug dumps")
// writes the MLIR text the lowerings generate to stderr: `gridwise` the
// attention body, `views` each view access, `all` both; without it nothing.
// The IR the passes produce is the same either way.
// RUN: rock-gen -t f32 -g 1 -num_heads_q 2 -num_heads_kv 2 -seq_len_q 16 -seq_len_k 16 -head_dim_qk 16 -head_dim_v 16 > %t.mlir
// RUN: sed -e 's/^module attributes {/module attributes {rock.debug_text = "gridwise", /' %t.mlir > %t.grid.mlir
// RUN: sed -e 's/^module attributes {/module attributes {rock.debug_text = "views", /' %t.mlir > %t.views.mlir
// RUN: sed -e 's/^module attributes {/module attributes {rock.debug_text = "gridwise,all", /' %t.mlir > %t.all.mlir
// RUN: rock-opt %t.grid.mlir --rock-attention-to-gridwise --rock-lower-gridwise-attention --rock-lower-views 2>&1 >/dev/null | FileCheck %s --check-prefix=GRID
// RUN: rock-opt %t.views.mlir --rock-attention-to-gridwise --rock-lower-gridwise-attention --rock-lower-views 2>&1 >/dev/null | FileCheck %s --check-prefix=VIEWS
// RUN: rock-opt %t.all.mlir --rock-attention-to-gridwise --rock-lower-gridwise-attention --rock-lower-views 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: rock-opt %t.mlir --rock-attention-to-gridwise --rock-lower-gridwise-attention --rock-lower-views 2>&1 >/dev/null | count 0
// GRID: func.func @body(%v0: memref<2x16x16xf32>
// GRID-NOT: %base
// VIEWS-NOT: %v0: memref<2x16x16xf32>
// VIEWS: func.func @body(%base: memref<512xf32>
// ALL-DAG: func.func @body(%v0: memref<2x16x16xf32>
// ALL-DAG: func.func @body(%base: memref<512xf32>
