// rock-sweep on a GPU target (tools/rock_sweep.py --arch): the round trip's
// prepare side with the real tools (no GPU needed), the run side with a fake
// runner, and the flag errors.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %rock_src/tools/rock_sweep.py --arch sm_90 --prepare %t/p --samples 4 --seed 3 --max-g 2 --max-tokens 64 --max-head-dim 32 --max-heads-log2 2 -j 2 --quiet > %t/prep.txt
// RUN: FileCheck %s --check-prefix=PREP < %t/prep.txt
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/p/manifest.tsv
// RUN: test $(wc -l < %t/p/manifest.tsv) -eq 4
// RUN: FileCheck %s --check-prefix=META < %t/p/sweep.json
// RUN: tar tzf %t/p/bundles.tar.gz | sort | FileCheck %s --check-prefix=TAR
// RUN: test -x %t/p/rock-sweep && test -x %t/p/rock-run-gpu
// A prepared bundle is one rock-run-gpu accepts (--check: no GPU needed).
// RUN: mkdir -p %t/x && tar xzf %t/p/bundles.tar.gz -C %t/x && rock-run-gpu %t/x/s00002.bundle --check | FileCheck %s --check-prefix=CHECK-BUNDLE
// The run side, with the script carried and a fake runner: sample 1 fails.
// RUN: not python3 %t/p/rock-sweep --run-bundles %t/p --runner %rock_src/test/e2e/Inputs/sweep-tools/fake-rock-run-gpu -j 2 --log-failures %t/f.csv > %t/run.txt
// RUN: FileCheck %s --check-prefix=RUNB < %t/run.txt
// RUN: FileCheck %s --check-prefix=CSV < %t/f.csv
// All pass with a runner that passes everything: exit 0.
// RUN: printf '#!/bin/sh\necho "[1 1 1]"\n' > %t/pass.sh && chmod +x %t/pass.sh
// RUN: python3 %t/p/rock-sweep --run-bundles %t/p --runner %t/pass.sh --quiet | FileCheck %s --check-prefix=ALLPASS
// GPU ranges: rocMLIR's split-KV limit on the GPU (memory / 8 in [1, 8] GiB),
// the WMMA table on gfx11 / gfx12, the target in every command.
// RUN: python3 %rock_src/tools/rock_sweep.py --arch sm_90 --list --samples 3 --seed 5 --tools-dir /T | FileCheck %s --check-prefix=LIST
// RUN: python3 %rock_src/tools/rock_sweep.py --arch gfx1100 --list --samples 20 --seed 5 --tools-dir /T | FileCheck %s --check-prefix=WMMA
// RUN: env FAKE_MODE=pass python3 %rock_src/tools/rock_sweep.py --arch gfx942 --samples 1 --seed 7 -j 1 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools | FileCheck %s --check-prefix=GFXLIMIT
// RUN: env FAKE_MODE=pass python3 %rock_src/tools/rock_sweep.py --arch gfx1100 --samples 1 --seed 7 -j 1 --tools-dir %rock_src/test/e2e/Inputs/sweep-tools | FileCheck %s --check-prefix=UNKNOWNLIMIT
// Errors.
// RUN: not python3 %rock_src/tools/rock_sweep.py --arch sm90 --list 2>&1 | FileCheck %s --check-prefix=BADARCH
// RUN: not python3 %rock_src/tools/rock_sweep.py --prepare %t/q 2>&1 | FileCheck %s --check-prefix=PREPCPU
// RUN: not python3 %rock_src/tools/rock_sweep.py --arch gfx942 --prepare %t/q 2>&1 | FileCheck %s --check-prefix=PREPGFX
// RUN: not python3 %rock_src/tools/rock_sweep.py --arch sm_90 --prepare %t/q --run-bundles %t/p 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not python3 %rock_src/tools/rock_sweep.py --runner %t/pass.sh 2>&1 | FileCheck %s --check-prefix=RUNNER
// RUN: mkdir -p %t/empty && not python3 %rock_src/tools/rock_sweep.py --run-bundles %t/empty 2>&1 | FileCheck %s --check-prefix=NOTPREP
// RUN: not python3 %rock_src/tools/rock_sweep.py --run-bundles %t/p --runner %t/none 2>&1 | FileCheck %s --check-prefix=NORUNNER

// PREP: Prepared: 4 bundles, Invalid: 0, Failed: 0 (compile) in {{.*}}p

// MANIFEST: {{^}}0	bundle		s00000.bundle	{{.*}}rock-gen --operation attention -t {{[a-z0-9]+}} --arch sm_90 {{.*}} | {{.*}}rock-run --compile-only -o s00000.bundle{{$}}
// MANIFEST-NEXT: {{^}}1	bundle		s00001.bundle	
// MANIFEST-NEXT: {{^}}2	bundle		s00002.bundle	
// MANIFEST-NEXT: {{^}}3	bundle		s00003.bundle	

// META: "seed": 3,
// META: "arch": "sm_90",
// META: "samples": 4,

// TAR: s00000.bundle
// TAR-NEXT: s00001.bundle
// TAR-NEXT: s00002.bundle
// TAR-NEXT: s00003.bundle

// CHECK-BUNDLE: launch

// RUNB: rock-sweep: seed 3, arch sm_90, 4 bundles, jobs 2, runner {{.*}}fake-rock-run-gpu
// RUNB: FAIL 1 (mismatch [0 1 1]): {{.*}}--compile-only -o s00001.bundle && rock-run-gpu s00001.bundle
// RUNB: Passed: 3, Invalid: 0, Failed: 1

// CSV: sample,seed,reason,command
// CSV-NEXT: 1,3,mismatch [0 1 1],{{.*}}--arch sm_90 {{.*}}&& rock-run-gpu s00001.bundle
// CSV-NOT: {{^}}{{[02-9]}},

// ALLPASS: Passed: 4, Invalid: 0, Failed: 0

// LIST: 0: /T/rock-gen --operation attention -t {{[a-z0-9]+}} --arch sm_90 -g
// LIST: 2: /T/rock-gen --operation attention -t {{[a-z0-9]+}} --arch sm_90 -g

// WMMA-COUNT-20: --arch gfx1100 {{.*}}--perf_config=attn:v3:{{(16|32|64|128),(16|32|64|128),(16|32|64|128|256),(8|16|32|64),(16|32|64),(16|32|64),16,}}

// GFXLIMIT: arch gfx942, splitkv limit 8589934592 bytes
// UNKNOWNLIMIT: arch gfx1100, splitkv limit 1610612736 bytes

// BADARCH: error: --arch sm90: expected cpu, sm_<N> or gfx<id>
// PREPCPU: error: --prepare compiles GPU bundles: give --arch sm_<N>
// PREPGFX: error: --prepare: rock-run writes bundles for NVIDIA targets only (sm_<N>), not gfx942
// BOTH: error: --prepare and --run-bundles are the two halves of one round trip: give one
// RUNNER: error: --runner needs --run-bundles
// NOTPREP: rock-sweep: error: {{.*}}empty is not a --prepare directory
// NORUNNER: rock-sweep: error: no runner at {{.*}}none
