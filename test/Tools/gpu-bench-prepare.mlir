// REQUIRES: cuda-toolkit
// The compile half of the GPU attention benchmark (scripts/gpu-roundtrip.py
// prepare with bench/gpu/cases.py): a multi-token decode case and a paged
// prefill case become bundles, cases.json names them with their shapes and
// masks, ptxas.json holds registers / shared memory / spills per kernel, and
// attention_bench.py --render prints the tables of a recorded run with them.
// RUN: rm -rf %t && python3 %rock_src/scripts/gpu-roundtrip.py prepare --build %rock_obj_root --carry %t --no-pr --suites prefill,mtd --filter 'mtd-dense-q8-B8-L8192|prefill-p16-S4096-c1' --ptxas %ptxas -j 2 | FileCheck %s
// CHECK: 2 of 2 bundles compiled
// RUN: tar xzf %t/bundles.tar.gz -O bundles/bench/cases.json | FileCheck %s --check-prefix=CASES
// CASES: "suite": "prefill",
// CASES: "Sq": 4096,
// CASES: "causal": true,
// CASES: "p16": "prefill-p16-S4096-c1.bundle"
// CASES: "suite": "mtd",
// CASES: "prefix": 8184,
// CASES: "csl": 8191,
// CASES: "dense": "mtd-dense-q8-B8-L8192.bundle"
// RUN: python3 %rock_src/bench/gpu/attention_bench.py --render %rock_src/bench/gpu/results/accel-run2.json --ptxas %t/ptxas.json | FileCheck %s --check-prefix=TABLE
// TABLE: bf16 matmul 8192^3: 1606 µs = 685 TFLOP/s
// TABLE: | 4k | yes | 11.14 ms (49, 7%) | 11.84 ms (46, 94% of dense) |
// TABLE: | 8 | 8 | 8k | 256 | 283.8 (946, 20%) |
// TABLE: ptxas -v (-arch: each PTX's .target):
// TABLE: | prefill-p16-S4096-c1 | rock_attention_kernel #0 | {{[0-9]+}} | {{[0-9]+}} | 0 | 0 / 0 |
// TABLE: | mtd-dense-q8-B8-L8192 | rock_attention_kernel #1 | {{[0-9]+}} | 0 | 0 | 0 / 0 |
