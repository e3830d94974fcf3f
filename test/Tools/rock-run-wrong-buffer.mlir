// A kernel whose Q view reads V's buffer (equal sizes) must fail. rock-gen's
// default inputs ("distinct": one deterministic stream per buffer) tell the
// operands apart; rocmlir-gen's literal `-rand fixed` pattern, kept for TOML
// files that ask for it, gives equal-sized buffers equal values, and the
// wrong kernel then passes: that is why it is not the default.
// RUN: rock-gen -t f32 -seq_len_q 4 -seq_len_k 4 -head_dim_qk 4 -head_dim_v 4 -pv | sed 's/rock.transform %%arg0 by/rock.transform %%arg2 by/' > %t.mlir
// RUN: grep -c 'rock.transform %%arg2 by' %t.mlir | FileCheck %s --check-prefix=EDITED
// EDITED: 2
// RUN: sh -c 'rock-run %t.mlir; echo "exit $?"' | FileCheck %s --check-prefix=DISTINCT
// DISTINCT: [0 {{[01]}} 0]
// DISTINCT-NEXT: exit 1
// RUN: rock-gen -t f16 -seq_len_q 4 -seq_len_k 4 -head_dim_qk 4 -head_dim_v 4 -pv | sed 's/rock.transform %%arg0 by/rock.transform %%arg2 by/' | not rock-run | FileCheck %s --check-prefix=F16
// F16: [0 {{[01] [01]}}]
// RUN: rock-gen -t f32 -seq_len_q 4 -seq_len_k 4 -head_dim_qk 4 -head_dim_v 4 -pv -rand fixed | FileCheck %s --check-prefix=FIXED
// FIXED: rand = "fixed"
// RUN: rock-gen -t f32 -seq_len_q 4 -seq_len_k 4 -head_dim_qk 4 -head_dim_v 4 -pv | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: rand = "distinct"
