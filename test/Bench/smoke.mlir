// The benchmark driver on tiny cases, so that it keeps working; it measures
// nothing worth reporting here.
// RUN: rm -rf %t && /usr/bin/python3 %rock_src/bench/run.py --quick --repeats 1 --build %rock_obj_root --out %t | FileCheck %s
// RUN: /usr/bin/python3 -c "import json,sys; r=json.load(open('%t/results.json')); sys.exit(0 if r['decode'][0].get('rock',{}).get('verdict')=='[1 1 1]' and all(p['rock'].get('verdict')=='[1 1 1]' for p in r['prefill']) and [p['dtype'] for p in r['prefill']]==['f32']*2+['bf16']*2 and r['peak']['fma_f32_gflops']>0 and r['prefill'][2]['rock_vs_peak']>0 and r['read_gbps']>0 and r['paged_read_gbps']['8192']>0 and r['decode'][0]['rock_vs_paged_probe']>0 and r['decode'][0]['rock_vs_pair_probe']>0 else 1)"
// CHECK: peak probe: {'fma_f32_gflops': {{[0-9.]+}}
// CHECK: paged read probe: {8192: {{[0-9.]+}}, 4096: {{[0-9.]+}}} GB/s
// CHECK: read probe: {{[0-9.]+}} GB/s
// CHECK: decode {{.*}}"rock_gbps"
// CHECK: prefill {{.*}}"rock_gflops"
// CHECK: prefill {"dtype": "bf16"{{.*}}"rock_gflops"
// CHECK: compile decode: {{[0-9.]+}} ms
// CHECK: results in
// The report renders the run.
// RUN: /usr/bin/python3 %rock_src/bench/report.py %t/results.json | FileCheck %s --check-prefix=REPORT
// REPORT: CPU flags (those rock's forms depend on): {{.*}}avx2
// REPORT: Peak probe (rock-peak-probe, JIT kernels, all cores): fma_f32_gflops
// REPORT: | bf16 | 128 | False | {{[0-9.]+}} | {{[0-9.]+}} ({{[a-z0-9_]+}}) |
