// REQUIRES: fuzz
// A few seconds of each libFuzzer target, seeded from the lit inputs: any
// crash, leak, sanitizer report or input over the time limit fails the run
// (libFuzzer exits non-zero). `make fuzz` runs them for longer.
// RUN: rm -rf %t && mkdir -p %t/pv %t/pipe %t/args %t/harness %t/seed-args %t/seed-h
// RUN: %fuzz_bin/rock-fuzz-parse-verify -max_total_time=4 -timeout=10 -close_fd_mask=3 %t/pv %rock_src/test/Dialect 2>&1 | FileCheck %s
// RUN: %fuzz_bin/rock-fuzz-pipeline -max_total_time=4 -timeout=10 -close_fd_mask=3 -max_len=16384 %t/pipe %rock_src/test/Passes 2>&1 | FileCheck %s
// RUN: printf -- '-t\nf16\n-seq_len_q\n3\n-seq_len_k\n17\n-head_dim_qk\n8\n-head_dim_v\n8\n-pv\n-split_kv\n2\n-return_lse\n' > %t/seed-args/1
// RUN: printf -- '-t\ni8\n-g\n2\n-num_heads_q\n4\n-num_heads_kv\n2\n-p\n-current_seq_len=3,9\n-causal\n--paged-attention\n--page-size\n64\n' > %t/seed-args/2
// RUN: %fuzz_bin/rock-fuzz-rock-gen-args -max_total_time=4 -timeout=10 -close_fd_mask=3 %t/args %t/seed-args 2>&1 | FileCheck %s
// RUN: printf '{t = "f16", g = 2 : i64, num_heads_q = 4 : i64, num_heads_kv = 2 : i64, seq_len_q = 3 : i64, seq_len_k = 16 : i64, head_dim_qk = 8 : i64, head_dim_v = 8 : i64, causal = true, return_lse = true, split_kv = 2 : i64, current_seq_len = [5, 16], rand = "distinct"}' > %t/seed-h/1
// RUN: printf '{t = "bf16", seq_len_q = 1 : i64, seq_len_k = 32 : i64, head_dim_qk = 8 : i64, head_dim_v = 8 : i64, paged = true, num_pages = 4 : i64, page_size = 64 : i64, sliding_window_size = 5 : i64, rand = "3"}' > %t/seed-h/2
// RUN: %fuzz_bin/rock-fuzz-harness -max_total_time=4 -timeout=10 -close_fd_mask=3 %t/harness %t/seed-h 2>&1 | FileCheck %s
// CHECK: Done {{[0-9]+}} runs in {{[0-9]+}} second(s)
