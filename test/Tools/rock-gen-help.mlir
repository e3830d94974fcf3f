// rock-gen --help is printed from the flag table (tools/rock_gen_flags.c):
// its sections and lines, and every spelling it names is one rock-gen reads.

// RUN: rock-gen --help | FileCheck %s --check-prefix=HELP --match-full-lines --strict-whitespace
// (With --strict-whitespace a pattern starts right after the colon.)
// HELP:usage: rock-gen --operation attention [flags] [-o FILE]
// HELP-NEXT:Generates a rock.attention kernel module (docs/user-guide.md §2).
// HELP-NEXT:Problem: -t f32|f16|bf16|i8 -g N -num_heads_q N -num_heads_kv N
// HELP-NEXT:  -seq_len_q N -seq_len_k N -head_dim_qk N -head_dim_v N (-p: 1024/32)
// HELP-NEXT:  -causal -current_seq_len=a,b -prefix_offset=a,b -sliding_window_size N
// HELP-NEXT:  -split_kv N -return_lse --with-attn-scale --with-attn-bias
// HELP-NEXT:  --transQ --transK --transV --transO --transBias -softmax_dtype T --rocmlir-region
// HELP-NEXT:  --paged-attention --num-pages N --page-size N -perf_config S
// HELP-NEXT:  --reverse_grid --device-mem-bytes N
// HELP-NEXT:Harness: -pv -pv-strict --verifier=V -ph -rand R -rand_type T -rand_min/-rand_max
// HELP-NEXT:  -rand_min_int/-rand_max_int -RMS_threshold -absDiff_threshold
// HELP-NEXT:  -relDiff_threshold --comparator -atol -rtol -pr -pi -pvr
// HELP-NEXT:  --print-verify-results -kernel-repeats N --arch A
// HELP-NEXT:rocmlir-gen spellings (docs/rocmlir-compat.md): -last_valid_kv_index,
// HELP-NEXT:  -sliding_window_look_back, -causal_look_back, -causal=N, -seq_len,
// HELP-NEXT:  -head_dim, -num_heads, --apply-bufferization-pipeline, -mfma=on|off,
// HELP-NEXT:  -fut, --clone-harness, -pv_with_gpu, -x2
// HELP-NEXT:Tuning (docs/tuning.md): --perf-db FILE|none -v --emit-tuning-key
// HELP-NEXT:  --emit-tuning-space[=quick|full]
// HELP-NEXT:Schedule switches (docs/gpu.md): --module-attr NAME=ATTR (repeatable; e.g.
// HELP-NEXT:  rock.gpu_accel=false, rock.gpu_accel_warps=8)

// A spelling in --help that the parser does not know is an "unknown flag".
// RUN: sh -c 'for f in $(rock-gen --help | grep -oE -- "(^|[ (/])--?[A-Za-z][-A-Za-z0-9_]*" | sed "s|^[ (/]||"); do echo "flag $f"; rock-gen $f 2>&1 >/dev/null | grep "unknown flag"; done; true' | FileCheck %s --check-prefix=SPELLED --implicit-check-not=unknown
// SPELLED: flag --operation
// SPELLED: flag --with-attn-scale
// SPELLED: flag -rand_min
// SPELLED-NEXT: flag -rand_max
// SPELLED: flag -last_valid_kv_index
// SPELLED: flag -num_heads
// SPELLED: flag --emit-tuning-space
