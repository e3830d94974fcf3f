// rock-sweep execution (docs/user-guide.md §4) with fake tools: bf16 + transO fails
// ([0 1 1]); a perf config with mPerBlockG0 = 256 is rejected by rock-gen
// (exit 2 = Invalid).  Counts are pinned for seed 7.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not python3 %rock_src/tools/rock_sweep.py --samples 20 --seed 7 -j 2 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools --log-failures %t/f.csv > %t/out.txt
// RUN: FileCheck %s --check-prefix=RUN1 < %t/out.txt
// RUN: FileCheck %s --check-prefix=CSV < %t/f.csv
// Every Invalid comes from a rejected perf config, every failure is bf16+transO.
// RUN: grep -c '^INVALID' %t/out.txt | FileCheck %s --check-prefix=NINV
// RUN: grep '^FAIL' %t/out.txt | not grep -v -- '-t bf16 .*-transO=True'
// Same seed, -j1: same counts (deterministic).
// RUN: not python3 %rock_src/tools/rock_sweep.py --samples 20 --seed 7 -j 1 --quiet --tools-dir %rock_src/test/e2e/Inputs/sweep-tools > %t/q.txt
// RUN: FileCheck %s --check-prefix=QUIET --match-full-lines < %t/q.txt
// All pass: exit 0, plain progress lines (no tty).
// RUN: env FAKE_MODE=pass python3 %rock_src/tools/rock_sweep.py --samples 6 --seed 7 -j 2 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools --splitkv-extra-bytes-limit 0 > %t/p.txt
// RUN: FileCheck %s --check-prefix=PASS < %t/p.txt
// Timeout and generic rock-gen errors are failures, not Invalid.
// RUN: env FAKE_MODE=hang not python3 %rock_src/tools/rock_sweep.py --samples 2 --seed 1 --paged-fraction 0 -j 2 --test-timeout-sec 1 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools --debug-fails > %t/h.txt
// RUN: FileCheck %s --check-prefix=HANG < %t/h.txt
// RUN: env FAKE_MODE=generr not python3 %rock_src/tools/rock_sweep.py --samples 3 --seed 1 -j 1 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools > %t/g.txt
// RUN: FileCheck %s --check-prefix=GENERR < %t/g.txt
// RUN: env FAKE_MODE=usage not python3 %rock_src/tools/rock_sweep.py --samples 2 --seed 1 -j 1 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools > %t/u.txt
// RUN: FileCheck %s --check-prefix=USAGE < %t/u.txt
// RUN: env FAKE_MODE=segv not python3 %rock_src/tools/rock_sweep.py --samples 1 --seed 1 -j 1 --paged-fraction 0 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools | FileCheck %s --check-prefix=SEGV
// RUN: env FAKE_MODE=err not python3 %rock_src/tools/rock_sweep.py --samples 1 --seed 1 -j 1 --paged-fraction 0 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools | FileCheck %s --check-prefix=ERR
// rocMLIR's spellings: a plain --log-failures writes failing_configs.csv in
// the current directory; --mlir-build-dir DIR takes the tools from DIR/bin
// (or DIR); --test-timeout-sec defaults to 600.
// RUN: rm -rf %t/b && mkdir -p %t/b/bin %t/cwd && cp %rock_src/test/e2e/Inputs/sweep-tools/* %t/b/bin/
// RUN: cd %t/cwd && not python3 %rock_src/tools/rock_sweep.py --samples 20 --seed 7 -j 2 --quiet --mlir-build-dir %t/b --log-failures > %t/rm.txt
// RUN: FileCheck %s --check-prefix=QUIET --match-full-lines < %t/rm.txt
// RUN: FileCheck %s --check-prefix=CSV < %t/cwd/failing_configs.csv
// RUN: python3 %rock_src/tools/rock_sweep.py --help | FileCheck %s --check-prefix=HELP
// HELP: {{^}}  --test-timeout-sec TEST_TIMEOUT_SEC
// HELP-NEXT: (default 600, as rocMLIR)
// HELP: {{^}}  --mlir-build-dir DIR
// HELP: {{^}}  --log-failures [CSV]
// --debug prints every command.
// RUN: env FAKE_MODE=pass python3 %rock_src/tools/rock_sweep.py --samples 2 --seed 7 -j 1 --debug --tools-dir %rock_src/test/e2e/Inputs/sweep-tools | FileCheck %s --check-prefix=DEBUG

// RUN1: rock-sweep: seed 7, samples 20, jobs 2, shard 0/1, arch cpu, splitkv limit 1610612736 bytes
// RUN1-DAG: FAIL 8 (mismatch [0 1 1]): {{.*}}/rock-gen --operation attention -t bf16 {{.*}}-transO=True{{.*}} | {{.*}}/rock-run
// RUN1-DAG: INVALID 0 (rock-gen: error: invalid perf_config 'x': rejected)
// RUN1-DAG: PASS 3
// RUN1: Filtered: 2 (splitkv-extra-bytes: 2)
// RUN1-NEXT: Invalid reason: 7 x rock-gen: error: invalid perf_config 'x': rejected
// RUN1-NEXT: Failed sample 8 (mismatch [0 1 1]): {{.*}}/rock-gen
// RUN1-NEXT: Failed sample 10 (mismatch [0 1 1]): {{.*}}/rock-gen
// RUN1-NEXT: Passed: 21, Invalid: 7, Failed: 2

// CSV: sample,seed,reason,command
// CSV-NEXT: 8,7,mismatch [0 1 1],"{{.*}}/rock-gen --operation attention -t bf16 {{.*}} | {{.*}}/rock-run"
// CSV-NEXT: 10,7,mismatch [0 1 1],"{{.*}}/rock-gen {{.*}}"
// CSV-NOT: {{.}}

// NINV: 7

// QUIET: Filtered: 2 (splitkv-extra-bytes: 2)
// QUIET-NEXT: Invalid reason: 7 x rock-gen: error: invalid perf_config 'x': rejected
// QUIET-NEXT: Failed sample 8 (mismatch [0 1 1]): {{.*}}
// QUIET-NEXT: Failed sample 10 (mismatch [0 1 1]): {{.*}}
// QUIET-NEXT: Passed: 21, Invalid: 7, Failed: 2

// PASS-DAG: PASS 1
// PASS-DAG: PASS 5
// PASS: Filtered: {{[1-9][0-9]*}} (splitkv-extra-bytes: {{[0-9]+}})
// PASS: Passed: 7, Invalid: 3, Failed: 0

// HANG: FAIL {{[01]}} (timeout):
// HANG: Passed: 0, Invalid: 0, Failed: 2

// GENERR: FAIL 0 (rock-gen exit 1: rock-gen: boom):
// GENERR: Passed: 0, Invalid: 0, Failed: 3

// USAGE: FAIL 0 (rock-gen exit 2: rock-gen: error: unknown flag '-bogus'):
// USAGE: Passed: 0, Invalid: 0, Failed: 2

// SEGV: FAIL 0 (rock-run crash (signal 11)):
// ERR: FAIL 0 (no verdict (rock-run exit 3: rock-run: error: JIT failed)):

// DEBUG: RUN 0: {{.*}}/rock-gen --operation attention
// DEBUG: INVALID 0 (rock-gen: error: invalid perf_config 'x': rejected)
// DEBUG: [1 1 1]
// DEBUG: PASS 2
