// The checked-in e2e-configs/*.toml: they expand, declare a level, keep the
// PR level within budget (180 combinations), use rocMLIR's thresholds per
// dtype, and their paged / split / prefix configurations are consistent.
// RUN: python3 %rock_src/test/e2e/Inputs/check_configs.py %rock_src/e2e-configs --pr-budget 180 | FileCheck %s
// CHECK-NOT: ERROR
// CHECK: {{[0-9]+}} combinations, {{[0-9]+}} at level pr (budget 180)
// Every file expands with the generator CLI as well.
// RUN: rm -rf %t && mkdir -p %t
// RUN: bash -c 'for f in "$0"/*.toml; do python3 "$1" -i "$f" -d "$2/$(basename "$f" .toml)" || exit 1; done' %rock_src/e2e-configs %rock_src/scripts/expand-toml.py %t
// RUN: ls %t/PrAttentionF16 | FileCheck %s --check-prefix=FILES
// FILES: pr_attention_f16_1.mlir
// FILES: pr_edge_f16_1.mlir
// FILES: pr_paged_attention_f16_1.mlir
