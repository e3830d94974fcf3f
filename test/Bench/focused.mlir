// bench/run.py's selections: one section, one dtype, one causal setting,
// interleaved rounds; and its diagnostics for bad selections.
// RUN: rm -rf %t && /usr/bin/python3 %rock_src/bench/run.py --quick --repeats 1 --build %rock_obj_root --out %t --only prefill --dtypes bf16 --causal yes --rounds 2 | FileCheck %s
// RUN: /usr/bin/python3 -c "import json,sys; r=json.load(open('%t/results.json')); p=r['prefill']; sys.exit(0 if r['decode']==[] and r['compile']==[] and len(p)==1 and p[0]['dtype']=='bf16' and p[0]['causal'] and len(p[0]['rounds'])==2 and p[0]['rock']['verdict']=='[1 1 1]' and p[0]['peak_gflops']>=max(x['peak_gflops'] for x in p[0]['rounds']) else 1)"
// CHECK-NOT: decode {
// CHECK: prefill {"dtype": "bf16", "S": 128, "causal": true,
// CHECK-NOT: prefill {
// CHECK-NOT: compile
// CHECK: results in
// The report renders only the sections that ran.
// RUN: /usr/bin/python3 %rock_src/bench/report.py %t/results.json | FileCheck %s --check-prefix=REPORT
// REPORT-NOT: C-A paged
// REPORT: | bf16 | 128 | True | {{[0-9.]+}} |
// REPORT-NOT: Cold compile
// A decode row with rounds keeps the best rates and the median ratio.
// RUN: rm -rf %t.d && /usr/bin/python3 %rock_src/bench/run.py --quick --repeats 1 --build %rock_obj_root --out %t.d --only decode --batch 2 --seq-k 128 --rounds 3 | FileCheck %s --check-prefix=DEC
// DEC: decode {"dtype": "f32", "B": 2, "L": 128,{{.*}}"rock_vs_paged_probe_median"{{.*}}"rounds": [{{.*}}]
// DEC-NOT: prefill {
// RUN: not /usr/bin/python3 %rock_src/bench/run.py --quick --build %rock_obj_root --out %t.e --only decode,foo 2>&1 | FileCheck %s --check-prefix=ONLY
// ONLY: run.py: error: --only: unknown section(s) foo
// RUN: not /usr/bin/python3 %rock_src/bench/run.py --quick --build %rock_obj_root --out %t.e --batch 1,0 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: run.py: --batch: expected a comma list of positive integers, got '1,0'
// RUN: not /usr/bin/python3 %rock_src/bench/run.py --quick --build %rock_obj_root --out %t.e --seq-q 12x 2>&1 | FileCheck %s --check-prefix=SEQ
// SEQ: run.py: --seq-q: expected a comma list of positive integers, got '12x'
// RUN: not /usr/bin/python3 %rock_src/bench/run.py --quick --build %rock_obj_root --out %t.e --rounds 0 2>&1 | FileCheck %s --check-prefix=ROUNDS
// ROUNDS: run.py: error: --rounds: expected a positive integer
// RUN: not /usr/bin/python3 %rock_src/bench/run.py --quick --build %rock_obj_root --out %t.e --dtypes bf16,fp8 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: run.py: error: --dtypes: unknown dtype(s) fp8 (f32, bf16, f16, i8)
