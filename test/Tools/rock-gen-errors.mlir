// Every rock-gen error is one "rock-gen: error:" line on stderr and exit 2.
// RUN: not rock-gen -foo 1 2>&1 | FileCheck %s --check-prefix=NOT
// NOT: {{^}}rock-gen: error: unknown flag '-foo'{{$}}
// RUN: sh -c 'rock-gen -foo 1 2>&1; echo rc=$?' | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{^}}rock-gen: error: unknown flag '-foo'{{$}}
// UNKNOWN-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen --operation conv -p 2>&1; echo rc=$?' | FileCheck %s --check-prefix=OPERATION
// OPERATION: {{^}}rock-gen: error: unsupported operation 'conv'{{$}}
// OPERATION-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -seq_len_q 4 -head_dim_qk 4 -head_dim_v 4 2>&1; echo rc=$?' | FileCheck %s --check-prefix=MISSING
// MISSING: {{^}}rock-gen: error: missing -seq_len_k (or use -p){{$}}
// MISSING-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -g 2>&1; echo rc=$?' | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: {{^}}rock-gen: error: missing value for -g{{$}}
// NOVALUE-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -g x 2>&1; echo rc=$?' | FileCheck %s --check-prefix=BADINT
// BADINT: {{^}}rock-gen: error: invalid integer 'x' for -g{{$}}
// BADINT-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -causal=maybe 2>&1; echo rc=$?' | FileCheck %s --check-prefix=BADBOOL
// BADBOOL: {{^}}rock-gen: error: invalid boolean 'maybe' for -causal=maybe{{$}}
// BADBOOL-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -t f64 2>&1; echo rc=$?' | FileCheck %s --check-prefix=DTYPE
// DTYPE: {{^}}rock-gen: error: unsupported data type 'f64' for -t{{$}}
// DTYPE-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -split_kv 2 2>&1; echo rc=$?' | FileCheck %s --check-prefix=SPLIT
// SPLIT: {{^}}rock-gen: error: -split_kv 2 requires -return_lse (flash decoding needs LSE output){{$}}
// SPLIT-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -num_heads_q 3 -num_heads_kv 2 2>&1; echo rc=$?' | FileCheck %s --check-prefix=GQA
// GQA: {{^}}rock-gen: error: -num_heads_q (3) must be a multiple of -num_heads_kv (2){{$}}
// GQA-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -prefix_offset=1 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PREFIX
// PREFIX: {{^}}rock-gen: error: -prefix_offset requires -causal{{$}}
// PREFIX-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -g 3 -current_seq_len=1,2 2>&1; echo rc=$?' | FileCheck %s --check-prefix=LISTLEN
// LISTLEN: {{^}}rock-gen: error: -current_seq_len must have 1 or G (3) values, got 2{{$}}
// LISTLEN-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p -g 3 -causal -prefix_offset=1,2,3,4 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PREFIXLEN
// PREFIXLEN: {{^}}rock-gen: error: -prefix_offset must have 1 or G (3) values, got 4{{$}}
// PREFIXLEN-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -current_seq_len=-1 2>&1; echo rc=$?' | FileCheck %s --check-prefix=NEGCSL
// NEGCSL: {{^}}rock-gen: error: -current_seq_len values must be non-negative, got -1{{$}}
// NEGCSL-NEXT: {{^}}rc=2
// Negative prefix offsets are allowed.
// RUN: rock-gen -p -causal -prefix_offset=-3 | FileCheck %s --check-prefix=NEGPREFIX
// NEGPREFIX: prefix_offset = array<i64: -3>

// RUN: sh -c 'rock-gen -p -seq_len_k 1024 -t f16 --paged-attention --num-pages 32 --page-size 512 2>&1; echo rc=$?' | FileCheck %s --check-prefix=GEOMETRY
// GEOMETRY: {{^}}rock-gen: error: numPages * pageSize must equal numHeadsKV * seqLenK * headDim{{$}}
// GEOMETRY-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p -t f16 --paged-attention --num-pages 3 2>&1; echo rc=$?' | FileCheck %s --check-prefix=GEOMETRY
// RUN: sh -c 'rock-gen -seq_len_q 4 -head_dim_qk 4 -head_dim_v 4 --paged-attention --num-pages 3 2>&1; echo rc=$?' | FileCheck %s --check-prefix=TWOOF
// TWOOF: {{^}}rock-gen: error: paged attention needs two of --num-pages, --page-size and -seq_len_k{{$}}
// TWOOF-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -seq_len_q 16 -seq_len_k 16 -head_dim_qk 4 -head_dim_v 4 -t f16 --paged-attention --num-pages 16 --page-size 4 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PAGESIZE
// PAGESIZE: {{^}}rock-gen: error: --page-size 4 must be a multiple of 8 for f16 (a 128-bit access must not straddle a page){{$}}
// PAGESIZE-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -seq_len_q 16 -seq_len_k 16 -head_dim_qk 8 -head_dim_v 8 -t i8 --paged-attention --num-pages 16 --page-size 8 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PAGESIZEI8
// PAGESIZEI8: {{^}}rock-gen: error: --page-size 8 must be a multiple of 16 for i8 (a 128-bit access must not straddle a page){{$}}
// PAGESIZEI8-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p -head_dim_v 64 --paged-attention --num-pages 32 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PAGEDDIM
// PAGEDDIM: {{^}}rock-gen: error: paged attention requires -head_dim_qk == -head_dim_v (got 32 and 64){{$}}
// PAGEDDIM-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -perf_config attn:v3:32,32,32 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PERFCOUNT
// PERFCOUNT: {{^}}rock-gen: error: invalid perf_config 'attn:v3:32,32,32': attn:v3 needs 12 or 13 integers, got 3{{$}}
// PERFCOUNT-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p --perf_config=attn:v3:-48,32,32,8,32,32,16,4,1,1,0,0,0 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PERFPOW2
// PERFPOW2: {{^}}rock-gen: error: invalid perf_config 'attn:v3:-48,32,32,8,32,32,16,4,1,1,0,0,0': mPerBlockG0 must be in [1, 65536], got -48{{$}}
// PERFPOW2-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p --perf_config=attn:v3:32,32,0,8,32,32,16,4,1,1,0,0,0 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PERFN
// PERFN: {{^}}rock-gen: error: invalid perf_config {{.*}}: nPerBlockG0 must be in [1, 65536], got 0{{$}}
// PERFN-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p --perf_config=gemm:32,32 2>&1; echo rc=$?' | FileCheck %s --check-prefix=PERFKIND
// PERFKIND: {{^}}rock-gen: error: invalid perf_config 'gemm:32,32': expected attn:v3:, attn:v2:, attn:v1:, v2:, v1: or a comma-separated list of integers{{$}}
// PERFKIND-NEXT: {{^}}rc=2
// Older attn:v1/v2 strings are accepted and recorded as they are.
// RUN: rock-gen -p -perf_config attn:v2:64,64,32,8,32,32,16,4 | FileCheck %s --check-prefix=PERFV2
// PERFV2: perf_config = "attn:v2:64,64,32,8,32,32,16,4"
// Tiles that are not powers of two, 12-field attn:v3, and the gemm-style
// v2: and bare lists of older rocMLIR TOMLs.
// RUN: rock-gen -p -perf_config attn:v3:64,64,192,32,32,96,16,8,1,1,2,0,1 | FileCheck %s --check-prefix=PERFNP2
// PERFNP2: perf_config = "attn:v3:64,64,192,32,32,96,16,8,1,1,2,0,1"
// RUN: rock-gen -p -perf_config attn:v3:32,32,32,8,32,32,16,4,1,1,0,0 | FileCheck %s --check-prefix=PERF12
// PERF12: perf_config = "attn:v3:32,32,32,8,32,32,16,4,1,1,0,0"
// RUN: rock-gen -p -perf_config v2:32,64,32,32,32,4,1,1,1 | FileCheck %s --check-prefix=PERFOLDV2
// PERFOLDV2: perf_config = "v2:32,64,32,32,32,4,1,1,1"
// RUN: rock-gen -p -perf_config 32,64,32,32,32,4,1,1 | FileCheck %s --check-prefix=PERFBARE
// PERFBARE: perf_config = "32,64,32,32,32,4,1,1"

// RUN: sh -c 'rock-gen -p --verifier=clone 2>&1; echo rc=$?' | FileCheck %s --check-prefix=CLONE
// CLONE: {{^}}rock-gen: error: clone validation is not compatible with kernel generation{{$}}
// CLONE-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p --verifier=tpu 2>&1; echo rc=$?' | FileCheck %s --check-prefix=VERIFIER
// VERIFIER: {{^}}rock-gen: error: unknown verifier 'tpu'{{$}}
// VERIFIER-NEXT: {{^}}rc=2

// RUN: sh -c 'rock-gen -p -seq_len_q -5 2>&1; echo rc=$?' | FileCheck %s --check-prefix=NEGSIZE
// NEGSIZE: {{^}}rock-gen: error: -seq_len_q must be positive, got -5{{$}}
// NEGSIZE-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p -head_dim_v 0 2>&1; echo rc=$?' | FileCheck %s --check-prefix=ZEROSIZE
// ZEROSIZE: {{^}}rock-gen: error: -head_dim_v must be positive, got 0{{$}}
// ZEROSIZE-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p -split_kv 0 2>&1; echo rc=$?' | FileCheck %s --check-prefix=SPLITZERO
// SPLITZERO: {{^}}rock-gen: error: -split_kv must be positive{{$}}
// SPLITZERO-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p -sliding_window_size=-1 2>&1; echo rc=$?' | FileCheck %s --check-prefix=WINDOW
// WINDOW: {{^}}rock-gen: error: -sliding_window_size must not be negative (0 disables it){{$}}
// WINDOW-NEXT: {{^}}rc=2
// -sliding_window_size 0 means no window.
// RUN: rock-gen -p -sliding_window_size 0 | FileCheck %s --check-prefix=NOWINDOW
// NOWINDOW-NOT: sliding
// RUN: sh -c 'rock-gen -p -softmax_dtype i8 2>&1; echo rc=$?' | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: {{^}}rock-gen: error: unsupported data type 'i8' for -softmax_dtype{{$}}
// SOFTMAX-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p extra 2>&1; echo rc=$?' | FileCheck %s --check-prefix=POSITIONAL
// POSITIONAL: {{^}}rock-gen: error: an input module ('extra') is read only with --emit-tuning-key{{$}}
// POSITIONAL-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p --comparator=exact 2>&1; echo rc=$?' | FileCheck %s --check-prefix=COMPARATOR
// COMPARATOR: {{^}}rock-gen: error: invalid value 'exact' for --comparator=exact (legacy or allclose){{$}}
// COMPARATOR-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p -rand -2 2>&1; echo rc=$?' | FileCheck %s --check-prefix=RAND
// RAND: {{^}}rock-gen: error: invalid value '-2' for -rand{{$}}
// RAND-NEXT: {{^}}rc=2
// RUN: rock-gen --help | FileCheck %s --check-prefix=HELP
// HELP: usage: rock-gen --operation attention

// A GPU target name is checked: sm_<digits>[a] or gfx<id>.
// RUN: sh -c 'rock-gen -p --arch sm_9x 2>&1; echo rc=$?' | FileCheck %s --check-prefix=BADARCH
// BADARCH: {{^}}rock-gen: error: invalid --arch 'sm_9x': expected cpu, sm_<digits>[a] or gfx<id>{{$}}
// BADARCH-NEXT: {{^}}rc=2
// Numbers are read as LLVM's option parser reads them: no leading blank or
// '+'; tolerances must be non-negative numbers; a repeated flag warns (the
// last value wins, as with rocmlir-gen).
// RUN: not rock-gen -t f32 -seq_len_q " 5" -seq_len_k 4 -head_dim_qk 2 -head_dim_v 2 2>&1 | FileCheck %s --check-prefix=BLANK
// BLANK: rock-gen: error: invalid integer ' 5' for -seq_len_q
// RUN: not rock-gen -t f32 -seq_len_q +5 -seq_len_k 4 -head_dim_qk 2 -head_dim_v 2 2>&1 | FileCheck %s --check-prefix=PLUS
// PLUS: rock-gen: error: invalid integer '+5' for -seq_len_q
// RUN: not rock-gen -p -rand_min " 1" 2>&1 | FileCheck %s --check-prefix=FBLANK
// FBLANK: rock-gen: error: invalid number ' 1' for -rand_min
// RUN: not rock-gen -p -pv -rtol -1 2>&1 | FileCheck %s --check-prefix=RTOL
// RTOL: rock-gen: error: -rtol must be a non-negative number, got '-1'
// RUN: not rock-gen -p -pv -relDiff_threshold=-0.5 2>&1 | FileCheck %s --check-prefix=REL
// REL: rock-gen: error: -relDiff_threshold=-0.5 must be a non-negative number, got '-0.5'
// RUN: not rock-gen -p -pv -RMS_threshold nan 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: rock-gen: error: -RMS_threshold must be a non-negative number, got 'nan'
// RUN: rock-gen -t f32 -seq_len_q 2 -seq_len_q 3 -seq_len_k 4 -head_dim_qk 2 -head_dim_v 2 -pv 2>&1 >/dev/null | FileCheck %s --check-prefix=DUP
// RUN: rock-gen -t f32 -seq_len_q 2 -seq_len_q 3 -seq_len_k 4 -head_dim_qk 2 -head_dim_v 2 -pv 2>/dev/null | FileCheck %s --check-prefix=LAST
// DUP: rock-gen: warning: -seq_len_q given more than once; the last value wins
// LAST: seq_len_q = 3 : i64

// --module-attr: a rock.* name and an attribute in MLIR's syntax.
// RUN: sh -c 'rock-gen -p --module-attr foo=1 2>&1; echo rc=$?' | FileCheck %s --check-prefix=MATTR
// MATTR: {{^}}rock-gen: error: --module-attr takes NAME=ATTR with NAME rock.<name>, got 'foo=1'{{$}}
// MATTR-NEXT: {{^}}rc=2
// RUN: sh -c 'rock-gen -p --module-attr rock.gpu_accel 2>&1; echo rc=$?' | FileCheck %s --check-prefix=MATTREQ
// MATTREQ: {{^}}rock-gen: error: --module-attr takes NAME=ATTR with NAME rock.<name>, got 'rock.gpu_accel'{{$}}
// RUN: sh -c 'rock-gen -p --module-attr "rock.x-y=1" 2>&1; echo rc=$?' | FileCheck %s --check-prefix=MATTRNAME
// MATTRNAME: {{^}}rock-gen: error: --module-attr: invalid attribute name 'rock.x-y'{{$}}
// RUN: sh -c 'rock-gen -p --module-attr "rock.gpu_accel=[1" 2>&1; echo rc=$?' | FileCheck %s --check-prefix=MATTRVAL
// MATTRVAL: rock-gen: error: --module-attr: cannot parse '[1' as an attribute (for rock.gpu_accel){{$}}
// MATTRVAL-NEXT: {{^}}rc=2
// RUN: rock-gen -p --module-attr rock.gpu_accel=false --module-attr rock.gpu_accel_warps=2 | FileCheck %s --check-prefix=MATTROK
// MATTROK: module attributes {{{.*}}rock.gpu_accel = false{{.*}}rock.gpu_accel_warps = 2 : i64
