// The benchmark driver on tiny cases, so that it keeps working; it measures
// nothing worth reporting here.
// RUN: rm -rf %t && /usr/bin/python3 %rock_src/bench/run.py --quick --repeats 1 --build %rock_obj_root --out %t | FileCheck %s
// RUN: /usr/bin/python3 -c "import json,sys; r=json.load(open('%t/results.json')); sys.exit(0 if r['decode'][0].get('rock',{}).get('verdict')=='[1 1 1]' and r['prefill'][0]['rock'].get('verdict')=='[1 1 1]' and r['read_gbps']>0 and r['paged_read_gbps']['8192']>0 and r['decode'][0]['rock_vs_paged_probe']>0 else 1)"
// CHECK: paged read probe: {8192: {{[0-9.]+}}, 4096: {{[0-9.]+}}} GB/s
// CHECK: read probe: {{[0-9.]+}} GB/s
// CHECK: decode {{.*}}"rock_gbps"
// CHECK: prefill {{.*}}"rock_gflops"
// CHECK: compile decode: {{[0-9.]+}} ms
// CHECK: results in
