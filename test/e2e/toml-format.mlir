// Self-test of the TOML lit format (rock_toml_format.py) with fake
// rock-gen/rock-run (Inputs/fake-tools) in a nested lit suite.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %lit -a -j1 %e2e_src/Inputs/fake-suite --param out=%t/pr \
// RUN:   --param e2e_configs=%e2e_src/Inputs/tomls \
// RUN:   --param e2e_tools_dir=%e2e_src/Inputs/fake-tools --param e2e_timeout=2 \
// RUN:   --param random_data="-rand 1" --param rock_gen_flags=-RG > %t/pr.txt 2>&1
// RUN: FileCheck %s --check-prefix=OK < %t/pr.txt
// RUN: FileCheck %s --check-prefix=MIXED < %t/pr.txt
// RUN: FileCheck %s --check-prefix=ALLX < %t/pr.txt
// RUN: FileCheck %s --check-prefix=BROKEN < %t/pr.txt
// RUN: FileCheck %s --check-prefix=COMPAT < %t/pr.txt
// RUN: FileCheck %s --check-prefix=NIGHTPR < %t/pr.txt
// RUN: FileCheck %s --check-prefix=PRNAME < %t/pr.txt
// RUN: FileCheck %s --check-prefix=HANG < %t/pr.txt
// RUN: FileCheck %s --check-prefix=BAD < %t/pr.txt
// RUN: FileCheck %s --check-prefix=SUMMARY < %t/pr.txt
// RUN: %lit -a -j1 %e2e_src/Inputs/fake-suite --param out=%t/n \
// RUN:   --param e2e_configs=%e2e_src/Inputs/tomls/nightly.toml \
// RUN:   --param e2e_tools_dir=%e2e_src/Inputs/fake-tools --param suite=nightly > %t/n.txt 2>&1
// RUN: FileCheck %s --check-prefix=NIGHTLY < %t/n.txt

// One test per suite test, combos in order, substitutions applied, tools by
// absolute path, FileCheck tail replaced by rock-run.
// OK-LABEL: PASS: FAKE :: basic.toml/ok/1
// OK-NEXT: PASS basic.toml/ok/1/1 ({{.*}}s): {{/.*}}/fake-tools/rock-gen -seq_len_q 4 --transQ=true -t f16  --operation attention --arch cpu -pv -rand 1 -RG ALIAS=-RG | {{/.*}}/fake-tools/rock-run{{$}}
// OK-NEXT: EXCLUDED basic.toml/ok/1/2: {{.*}} --transQ=true -t FAKE_FAIL  --operation
// OK-NEXT: PASS basic.toml/ok/1/3 ({{.*}}): {{.*}} --transQ=false -t f16  --operation
// OK-NEXT: EXCLUDED basic.toml/ok/1/4:
// OK-NEXT: basic.toml/ok/1: 2 passed, 0 failed, 2 excluded of 4 combinations

// Exclude product: transQ=true x t=f16 only; failures print the command and output.
// MIXED-LABEL: FAIL: FAKE :: basic.toml/mixed/1
// MIXED: EXCLUDED basic.toml/mixed/1/1: {{.*}} --transQ=true -t f16  --
// MIXED-NEXT: FAIL basic.toml/mixed/1/2 (exit 1, verdict [0 1 1],
// MIXED-NEXT: reproduce: {{/.*}}/rock-gen -seq_len_q 8 --transQ=true -t FAKE_FAIL  --operation attention --arch cpu -pv -rand 1 -RG ALIAS=-RG | {{/.*}}/rock-run{{$}}
// MIXED-NEXT: --- stdout ---
// MIXED-NEXT: out: RMS 0.5
// MIXED-NEXT: [0 1 1]
// MIXED: PASS basic.toml/mixed/1/3
// MIXED-NEXT: FAIL basic.toml/mixed/1/4
// MIXED: basic.toml/mixed/1: 1 passed, 2 failed, 1 excluded of 4 combinations (failed: 2, 4)

// ALLX: UNSUPPORTED{{:}} FAKE :: basic.toml/allx/1
// ALLX: basic.toml/allx/1: 0 passed, 0 failed, 4 excluded of 4 combinations

// Missing verdict, crash after [1 1 1] (pipefail), rock-gen error: fail;
// details after the verdict line: pass.
// BROKEN-LABEL: FAIL: FAKE :: basic.toml/broken/1
// BROKEN: FAIL basic.toml/broken/1/1 (exit 0, verdict missing,
// BROKEN-LABEL: FAIL: FAKE :: basic.toml/broken/2
// BROKEN: FAIL basic.toml/broken/2/1 (exit 139, verdict [1 1 1],
// BROKEN-LABEL: FAIL: FAKE :: basic.toml/broken/3
// BROKEN: FAIL basic.toml/broken/3/1 (exit 2,
// BROKEN: rock-gen: error: rejected
// BROKEN-LABEL: PASS: FAKE :: basic.toml/broken/4

// rocMLIR TOML: rocmlir-gen -> rock-gen, rocmlir-driver | mlir-cpu-runner -> rock-run;
// no level key = nightly (UNSUPPORTED under suite=pr); a suite may override it.
// COMPAT-LABEL: PASS: FAKE :: nightly.toml/forced_pr/1
// COMPAT-NEXT: PASS nightly.toml/forced_pr/1/1 ({{.*}}): {{/.*}}/fake-tools/rock-gen -g 3 --transK=true  --operation attention -t f32 --arch cpu -pv -rand 1 -RG -relDiff_threshold 0.000005 | {{/.*}}/fake-tools/rock-run{{$}}
// NIGHTPR: UNSUPPORTED{{:}} FAKE :: nightly.toml/night/1
// NIGHTPR-NEXT: nightly suite; run lit with --param suite=nightly

// No level key but named Pr*.toml: PR level (rocMLIR's convention).
// %constrained_float_range_random_data: the random data, then [-1, 1) floats.
// PRNAME-LABEL: PASS: FAKE :: PrUpstream.toml/pr_upstream/1
// PRNAME-NEXT: PASS PrUpstream.toml/pr_upstream/1/1 ({{.*}}): {{/.*}}/fake-tools/rock-gen -seq_len_q 2  --operation attention -t f16 --arch cpu -pv -rand 1 -rand_type float -rand_min -1 -rand_max 1 -RG | {{/.*}}/fake-tools/rock-run{{$}}

// HANG: FAIL hang.toml/hang/1/1 (timed out after 2.0s

// BAD: FAIL: FAKE :: bad.toml
// BAD-NEXT: ***
// BAD-NEXT: cannot expand TOML: {{.*}}bad.toml: top-level 'directory' (string) is required

// SUMMARY: Total Discovered Tests: 12
// SUMMARY-NEXT: Unsupported: 2
// SUMMARY-NEXT: Passed     : 4
// SUMMARY-NEXT: Failed     : 6

// NIGHTLY-DAG: PASS: FAKE :: nightly.toml/night/1
// NIGHTLY-DAG: PASS: FAKE :: nightly.toml/forced_pr/1
