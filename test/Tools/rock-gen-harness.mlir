// The rock.harness attribute (docs/internals.md; on the module, or on @main
// when rock-gen also emits rocmlir-gen's host functions): every key, defaults,
// and harness flags recorded as given. MLIR prints dictionary keys sorted.
// RUN: rock-gen -p | FileCheck %s --check-prefix=DEFAULT
// RUN: rock-gen -p | rock-opt | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: module attributes {rock.harness = {arch = "", causal = false, comparator = "legacy", g = 1 : i64, head_dim_qk = 32 : i64, head_dim_v = 32 : i64, kernel_repeats = 1 : i64, num_heads_kv = 1 : i64, num_heads_q = 1 : i64, num_pages = 0 : i64, page_size = 0 : i64, paged = false, print_inputs = false, print_results = false, print_validation_results = false, print_verify_results = "summary", rand = "distinct", rand_max = 1.000000e+00 : f64, rand_max_int = 5 : i64, rand_min = 0.000000e+00 : f64, rand_min_int = -5 : i64, rand_type = "int", region_dtype = "f32", return_lse = false, reverse_grid = false, seq_len_k = 1024 : i64, seq_len_q = 1024 : i64, softmax_dtype = "f32", split_kv = 1 : i64, t = "f32", transK = false, transO = false, transQ = false, transV = false, verifier = "none", with_attn_bias = false, with_attn_scale = false}} {

// RUN: rock-gen -p -pv-strict -rand 7 -rand_type float -rand_min=-1 -rand_max 2.5 -rand_min_int -3 -rand_max_int 9 -RMS_threshold 0.015 -absDiff_threshold 0.02 -relDiff_threshold=0.5 -atol 1e-5 -kernel-repeats 3 -pr -pi=1 -pvr --print-verify-results=always --arch gfx942 -g 2 -current_seq_len=5 -causal -prefix_offset=1,-2 -sliding_window_size 64 -softmax_dtype bf16 --device-mem-bytes 68719476736 -t f16 --reverse_grid -perf_config attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,0 -schedule_version 2 --num_cu 80 --num_chiplets 1 -direct_to_lds_32b -direct_to_lds_128b=false -rand_side both -dev 0 -rand_type_int_for_inputs=0,1 -ph | FileCheck %s --check-prefix=FULL
// FULL: module attributes {mhal.arch = "gfx942", rock.device_mem_bytes = 68719476736 : i64, rock.num_cu = 80 : i64} {
// FULL: rock.attention {
// FULL-NEXT: qk =
// FULL-NEXT: currentSeqLen =
// FULL-NEXT: slidingWindowSize = 64
// FULL: perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,0"
// FULL-SAME: reverseGrid, softmaxType = bf16
// With -ph (or -pv) the harness is on @main, next to rocmlir-gen's host
// functions.
// FULL: func.func @main() attributes {rock.harness = {RMS_threshold = 1.500000e-02 : f64, absDiff_threshold = 2.000000e-02 : f64, arch = "gfx942", atol = 1.000000e-05 : f64, causal = true, comparator = "allclose", current_seq_len = array<i64: 5, 5>, g = 2 : i64, head_dim_qk = 32 : i64, head_dim_v = 32 : i64, kernel_repeats = 3 : i64, num_heads_kv = 1 : i64, num_heads_q = 1 : i64, num_pages = 0 : i64, page_size = 0 : i64, paged = false, perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0,0", prefix_offset = array<i64: 1, -2>, print_inputs = true, print_results = true, print_validation_results = true, print_verify_results = "always", rand = "7", rand_max = 2.500000e+00 : f64, rand_max_int = 9 : i64, rand_min = -1.000000e+00 : f64, rand_min_int = -3 : i64, rand_type = "float", region_dtype = "bf16", relDiff_threshold = 5.000000e-01 : f64, return_lse = false, reverse_grid = true, seq_len_k = 1024 : i64, seq_len_q = 1024 : i64, sliding_window_size = 64 : i64, softmax_dtype = "bf16", split_kv = 1 : i64, t = "f16", transK = false, transO = false, transQ = false, transV = false, verifier = "mlir-strict", with_attn_bias = false, with_attn_scale = false}} {

// Verifier spellings: -pv, -pv_with_mlir, --verifier=cpu|mlir all mean "mlir";
// -pv-f64 implies -pv-strict; --verifier=none; -rtol alone forces allclose.
// RUN: rock-gen -p -pv | FileCheck %s --check-prefix=MLIR
// RUN: rock-gen -p --pv_with_mlir | FileCheck %s --check-prefix=MLIR
// RUN: rock-gen -p --verifier=cpu | FileCheck %s --check-prefix=MLIR
// RUN: rock-gen -p -verifier mlir | FileCheck %s --check-prefix=MLIR
// MLIR: verifier = "mlir"
// RUN: rock-gen -p -pv -pv-f64 | FileCheck %s --check-prefix=STRICT
// RUN: rock-gen -p --verifier=mlir-strict | FileCheck %s --check-prefix=STRICT
// STRICT: verifier = "mlir-strict"
// RUN: rock-gen -p -pv=false --verifier=none | FileCheck %s --check-prefix=NONE
// NONE: verifier = "none"
// RUN: rock-gen -p -rtol 0.001 -rand none -rand_type=int | FileCheck %s --check-prefix=RTOL
// RTOL: comparator = "allclose"
// RTOL-SAME: rand = "none"
// RTOL-SAME: rtol = 1.000000e-03 : f64
// Paged geometry is recorded after derivation; -prc prints results.
// RUN: rock-gen -p -t f16 --paged-attention --num-pages 32 -prc | FileCheck %s --check-prefix=PAGED
// PAGED: num_pages = 32 : i64, page_size = 1024 : i64, paged = true
// PAGED-SAME: print_results = true
