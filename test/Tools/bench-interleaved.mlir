// bench/gpu/attention_bench.py's Interleaved (the prefill suites' timing):
// every round replays each entry once, the order rotating, so a drift over
// the run reaches equal entries alike; timed one after the other
// (time_groups) they differ. A fake torch (no GPU) keeps the clock.
// RUN: python3 %S/Inputs/bench_interleaved.py %rock_src/bench/gpu | FileCheck %s
// CHECK: interleaved a/b 1.0{{[0-2][0-9]*$}}
// CHECK-NEXT: interleaved c/a 1.9{{[0-9]+$}}
// CHECK-NEXT: modes graph, interleaved | graph, interleaved
// CHECK-NEXT: finished ['a', 'b'] entries left 0
// CHECK-NEXT: replays abc then abcbcacab of 45
// CHECK-NEXT: one after the other a/b 0.9{{[0-9]+$}}
// CHECK-NEXT: error {'x_error': 'division by zero'}
