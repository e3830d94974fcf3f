"""The GPU attention benchmark's cases: one table for the compile side
(scripts/gpu-roundtrip.py prepare turns each (case, variant) into a
`rock-gen | rock-run --compile-only` bundle) and the device side
(attention_bench.py reads the cases.json that prepare writes next to the
bundles). No torch here.

Suites (bf16, d 128 unless named):
  decode   q 1, Hq 32 / Hkv 8, B {1, 8, 32} x L {8k, 32k, 128k};
  gqa      q 1 for each GQA ratio R = Hq / Hkv in {1, 4, 8, 16} at about
           1 GiB of K/V (and R 16 at 256 MiB), plus the long and the short
           rows of serving: R 4 B 2 L 256k, R 4 B 64 L 2k, R 8 B 1 L 128k;
  layout   prefill in both K layouts: B 4, Hq 32 / Hkv 8, S 2k, causal, and
           B 2, Hq 64 / Hkv 8, S 4k;
  prefill  B 2, Hq 64 / Hkv 8, Sq = Sk {4k, 8k, 16k}, causal and not;
  mtd      multi-token decode with a KV cache: q {8, 16} new tokens at the
           end of the cache (causal with prefix offset L - q, current
           length L - 1), Hq 32 / Hkv 8, B {8, 32} x L {8k, 32k};
  shapes   other prefill rows: MHA B 2 H 16 S 4k d 64; MHA B 2 H 16 S 4k
           d 256, causal and not; f16 B 2 Hq 64 / Hkv 8 S 8k, causal and
           not.
Variants (VARIANTS): dense (K as [keys][d], --transK), kmaj (rocMLIR's
default K layout [d][keys], no --transK) and paged (shuffled page table, 16
and 64 tokens a page); mtd and prefill are dense only. A variant may carry
modifiers after a dash (MODS: e.g. dense-simt is dense with the SIMT
schedule, rock-gen --module-attr rock.gpu_accel=false; -pf0 without the L2
prefetch of the tiles ahead); EXTRA lists the ones a run adds to a suite.
"""

ARCH = "sm_90"
D = 128
PAGES = (16, 64)  # tokens per page
SUITES = ("decode", "gqa", "layout", "prefill", "mtd", "shapes")
# Modifiers of a variant: extra rock-gen flags. mma: the mma.sync schedule
# (plain sm_90 PTX); nows / noov: the sm_90a prefill schedule without its
# producer warpgroup / without the softmax overlapping P·V; pp / sw128: with
# its consumer warpgroups in ping-pong (opt-in) / its tiles 128-byte
# swizzled (the default since run 8; sw32: the 32-byte swizzle); pa: paged
# K / V staged by page runs, pointers a tile ahead (decode, opt-in); fc /
# fc0: the internal split merged in the kernel / by the second launch
# (decode; by default for few rows and many partitions); tma / tma0: K and
# V staged by TMA (cp.async.bulk.tensor, always 128-byte swizzled; the
# default since run 9) / by cp.async;
# ptma / ptma0: paged K / V by TMA too, one copy per page
# (rock.gpu_wgmma_tma_paged; the default since run 11: 1.33-1.57x the
# cp.async form at S 8k) / by cp.async through the page pointers; pl1 /
# pl2: their page addresses by the producer's first warp, one a lane
# (rock.gpu_wgmma_tma_paged_lanes = 1) / also a tile ahead (= 2; opt-in).
# wide / wide0: the producer warpgroup and TMA also at d 256 (setmaxnreg
# 240 / 24; the default since run 11) / every thread copies there; pp0: no
# ping-pong (by rule above d 128 since run 11); k128 / k192 / k256: key
# tiles of that many keys where they fit 227 KiB; cw3 / cw2: three consumer
# warpgroups (192 rows, setmaxnreg 160 / 32; head dims up to 128, no
# per-row key limits; by rule at d <= 64 since run 11) / two.
# ov / ov0: K(t + 1) and V(t) copies in flight together (tensor-core decode
# and multi-token decode; by rule since run 11 for paged K / V and Sq·R >=
# 64, by rule since run 13 up to 16 queries, dense q-1 decode too, unless
# the K / V ring or K^T pairs are given; the perf_config field ovl=0 turns
# it off) / one copy in flight; fill: the internal split fills its waves
# with any partition count, not only powers of two (opt-in). pst / pst0:
# the persistent sm_90a prefill kernel (rock.gpu_wgmma_persistent; by rule
# since run 13 for causal problems; pst also non-causal): min(tiles, SMs)
# workgroups loop over the tiles in the same longest-first order, the K / V
# pipeline and Q's barriers carried across them (dense TMA K / V, two or
# three consumer warpgroups, d <= 128, no ping-pong; elsewhere the one-tile
# kernel) / the one-tile kernel everywhere. q2: that persistent form with
# two Q buffers (rock.gpu_wgmma_q_buffers = 2, opt-in): the next tile's Q
# loads while this one runs (no change where the form is off or has three
# consumer warpgroups). dyn: that persistent form's tiles from a global
# counter (rock.gpu_wgmma_dynamic, opt-in): each workgroup's first tile is
# its blockIdx.x, the next gridDim.x + atomicAdd(counter, 1), fetched by the
# producer as it issues a tile's last K / V (no change where the form is
# off: non-causal problems need pst too).
# st3 / st4 / st6: the K / V ring of that many slots (rock.gpu_accel_stages;
# tensor-core decode and multi-token decode, opt-in): the copies of tiles
# t + 1 .. t + N - 1 in flight while tile t is read, one wait and one
# barrier a tile, the largest key tile whose slots fit 48 KiB (d 128, q 1:
# st3 32-key tiles, 48 KiB, 4 workgroups an SM; st4 16-key, 36 KiB, 6;
# st6 16-key, 48 KiB, 4; the default K layout's padded K^T slots take
# 16-key tiles from st3). ktp: rocMLIR's default K layout (the kmaj
# variant) with its K^T tiles staged two at once into two slots (runs of
# 128 keys a d row; rock.gpu_accel_kt_pairs, opt-in, not with ov).
# kw2 / kw4: that many key warps on one partition (rock.gpu_accel_key_warps;
# one-warp decode rows, opt-in): warp w takes the partition's tiles t = w
# (mod W') into its own K / V slot (32-key tiles for kw2, 16 for kw4, 36
# KiB), the warps' (m, l, O) merged in workgroup memory; the split's
# partitions divided by W' (the same keys a warp, W' times fewer
# workgroups and partials).
# s8 / s16 / s32 /
# s128: the internal split forced to that many key partitions (the
# perf_config field split, rock.internal_split; merged in the kernel by the
# rule from 16 partitions, so s8 takes fc to be fused: one tree level);
# fan16 / fan32: the split merged in the kernel along a tree of that fan-in
# (rock.gpu_fused_fan; default 8, opt-in): B 1 decode's 32 partitions in one
# level at fan32 (32 -> 1), two at fan16 (32 -> 2 -> 1) against two at 8
# (32 -> 4 -> 1); elsewhere (no fused merge) the kernel unchanged;
# pdl / pdl0: the internal split's second launch (the combine) as a
# programmatic dependent launch (rock.gpu_pdl, sm_90; opt-in, not measured
# yet): the split kernel executes griddepcontrol.launch_dependents at its
# start, the combine griddepcontrol.wait before it reads the partials, and
# the bench launches the combine by cuLaunchKernelEx with programmatic
# stream serialization (the bundle's `pdl`) / the plain second launch.
# ws3 / ws4: three / four K / V stages in the sm_90a prefill schedule's
# producer form (rock.gpu_wgmma_stages, opt-in): the producer copies tile
# t + 2 (t + 3) while tile t is read, where the stages fit 227 KiB (d 128:
# three, 230512 bytes, not four; d 64: both; d 256: neither); elsewhere the
# two-stage kernel, unchanged.
# ef2 .. ef8: one score in N takes its exp2 on the FMA pipe in the sm_90a
# prefill schedule (rock.gpu_wgmma_exp2_fma, opt-in): a cubic (bf16 P) or
# quartic (f16 P) instead of the special-function unit's ex2.
# ref: no flags, the name of the same variant prepared from another build
# (the baseline of a default that changed, merged into one carry).
MODS = {"simt": "--module-attr rock.gpu_accel=false",
        "pf0": "--module-attr rock.gpu_accel_l2_prefetch=0",
        "cu66": "-num_cu 66", "cu264": "-num_cu 264",
        "mma": "-wgmma=off",
        "nows": "--module-attr rock.gpu_wgmma_producer=false",
        "noov": "--module-attr rock.gpu_wgmma_overlap=false",
        "pp": "--module-attr rock.gpu_wgmma_pingpong=true",
        "sw128": "--module-attr rock.gpu_wgmma_swizzle128=true",
        "tma": "--module-attr rock.gpu_wgmma_tma=true",
        "tma0": "--module-attr rock.gpu_wgmma_tma=false",
        "ptma": "--module-attr rock.gpu_wgmma_tma_paged=true",
        "ptma0": "--module-attr rock.gpu_wgmma_tma_paged=false",
        "pl1": "--module-attr rock.gpu_wgmma_tma_paged_lanes=1",
        "pl2": "--module-attr rock.gpu_wgmma_tma_paged_lanes=2",
        "sw32": "--module-attr rock.gpu_wgmma_swizzle128=false",
        "fc0": "--module-attr rock.gpu_fused_combine=false",
        "pa": "--module-attr rock.gpu_accel_page_ahead=true",
        "fc": "--module-attr rock.gpu_fused_combine=true",
        "fan8": "--module-attr rock.gpu_fused_fan=8",
        "fan16": "--module-attr rock.gpu_fused_fan=16",
        "fan32": "--module-attr rock.gpu_fused_fan=32",
        "wide": "--module-attr rock.gpu_wgmma_wide=true",
        "wide0": "--module-attr rock.gpu_wgmma_wide=false",
        "pp0": "--module-attr rock.gpu_wgmma_pingpong=false",
        "cw2": "--module-attr rock.gpu_wgmma_consumers=2",
        "k128": "--module-attr rock.gpu_wgmma_keys=128",
        "k192": "--module-attr rock.gpu_wgmma_keys=192",
        "k256": "--module-attr rock.gpu_wgmma_keys=256",
        "cw3": "--module-attr rock.gpu_wgmma_consumers=3",
        "ov": "--module-attr rock.gpu_accel_kv_overlap=true",
        "ov0": "--module-attr rock.gpu_accel_kv_overlap=false",
        "fill": "--module-attr rock.gpu_split_fill=true",
        "pst": "--module-attr rock.gpu_wgmma_persistent=true",
        "pst0": "--module-attr rock.gpu_wgmma_persistent=false",
        "q2": "--module-attr rock.gpu_wgmma_q_buffers=2",
        "dyn": "--module-attr rock.gpu_wgmma_dynamic=true",
        "dyn0": "--module-attr rock.gpu_wgmma_dynamic=false",
        "st3": "--module-attr rock.gpu_accel_stages=3",
        "st4": "--module-attr rock.gpu_accel_stages=4",
        "st6": "--module-attr rock.gpu_accel_stages=6",
        "ktp": "--module-attr rock.gpu_accel_kt_pairs=true",
        "kw1": "--module-attr rock.gpu_accel_key_warps=1",
        "kw2": "--module-attr rock.gpu_accel_key_warps=2",
        "kw4": "--module-attr rock.gpu_accel_key_warps=4",
        "s8": "--module-attr rock.internal_split=8",
        "s16": "--module-attr rock.internal_split=16",
        "s32": "--module-attr rock.internal_split=32",
        "s64": "--module-attr rock.internal_split=64",
        "s128": "--module-attr rock.internal_split=128",
        "pdl": "--module-attr rock.gpu_pdl=true",
        "pdl0": "--module-attr rock.gpu_pdl=false",
        "ws3": "--module-attr rock.gpu_wgmma_stages=3",
        "ws4": "--module-attr rock.gpu_wgmma_stages=4",
        "lazy": "--module-attr rock.gpu_wgmma_lazy_rescale=true",
        "ef2": "--module-attr rock.gpu_wgmma_exp2_fma=2",
        "ef3": "--module-attr rock.gpu_wgmma_exp2_fma=3",
        "ef4": "--module-attr rock.gpu_wgmma_exp2_fma=4",
        "ef6": "--module-attr rock.gpu_wgmma_exp2_fma=6",
        "ef8": "--module-attr rock.gpu_wgmma_exp2_fma=8",
        "ref": ""}
# Modified variants a run adds per suite ({} for the recorded tables).
EXTRA = {"prefill": ("dense-mma",)}


def _case(suite, name, B, Hq, Hkv, Sq, Sk, causal=False, prefix=None,
          csl=None, paged=True, kmaj=True, t="bf16", d=D):
    variants = ["dense"] + ([f"p{t}" for t in PAGES] if paged else []) + \
        (["kmaj"] if kmaj else [])
    variants += [v for v in EXTRA.get(suite, ())]
    return {"suite": suite, "name": name, "B": B, "Hq": Hq, "Hkv": Hkv,
            "Sq": Sq, "Sk": Sk, "D": d, "t": t, "causal": causal,
            "prefix": prefix, "csl": csl, "variants": variants}


def cases(suite):
    """The cases of `suite` (one of SUITES), in table order."""
    out = []
    if suite == "decode":
        for B in (1, 8, 32):
            for L in (8192, 32768, 131072):
                out.append(_case(suite, f"B{B}-L{L}", B, 32, 8, 1, L))
    elif suite == "gqa":
        for Hq, Hkv, B, L in ((32, 32, 8, 8192), (32, 8, 16, 16384),
                              (64, 8, 8, 32768), (128, 8, 4, 16384),
                              (32, 8, 2, 262144),
                              (32, 8, 64, 2048), (64, 8, 1, 131072)):
            out.append(_case(suite, f"R{Hq // Hkv}-B{B}-L{L}", B, Hq, Hkv,
                             1, L))
    elif suite == "layout":
        out.append(_case(suite, "B4-S2048-c1", 4, 32, 8, 2048, 2048,
                         causal=True, paged=False))
        out.append(_case(suite, "B2-S4096-c0", 2, 64, 8, 4096, 4096,
                         paged=False))
    elif suite == "prefill":
        for S in (4096, 8192, 16384):
            for causal in (False, True):
                out.append(_case(suite, f"S{S}-c{int(causal)}", 2, 64, 8,
                                 S, S, causal=causal, kmaj=False))
    elif suite == "mtd":
        for q in (8, 16):
            for B in (8, 32):
                for L in (8192, 32768):
                    out.append(_case(suite, f"q{q}-B{B}-L{L}", B, 32, 8, q,
                                     L, causal=True, prefix=L - q,
                                     csl=L - 1, paged=False, kmaj=False))
    elif suite == "shapes":
        out.append(_case(suite, "mha-B2-S4k-d64", 2, 16, 16, 4096, 4096,
                         paged=False, d=64))
        for causal in (False, True):
            out.append(_case(suite, f"mha-B2-S4k-d256-c{int(causal)}", 2, 16,
                             16, 4096, 4096, causal=causal, paged=False,
                             kmaj=False, d=256))
        for causal in (False, True):
            out.append(_case(suite, f"f16-B2-S8k-c{int(causal)}", 2, 64, 8,
                             8192, 8192, causal=causal, paged=False,
                             kmaj=False, t="f16"))
    else:
        raise ValueError(f"unknown suite {suite!r} (have {SUITES})")
    return out


def bundle_name(case, variant):
    """decode-p16-B8-L32768 and the like: suite, variant, shape."""
    return f"{case['suite']}-{variant}-{case['name']}"


def rock_gen_flags(case, variant):
    """rock-gen's flags for one bundle of `case` (no verifier: the device
    side checks against PyTorch)."""
    c = case
    base, *mods = variant.split("-")
    flags = (f"--operation attention -t {c.get('t', 'bf16')} -g {c['B']} "
             f"-num_heads_q {c['Hq']} -num_heads_kv {c['Hkv']} "
             f"-seq_len_q {c['Sq']} -seq_len_k {c['Sk']} "
             f"-head_dim_qk {c['D']} -head_dim_v {c['D']} "
             f"--arch {ARCH} -pv --verifier=none")
    if c["causal"]:
        flags += " -causal"
    if c["prefix"] is not None:
        flags += " -prefix_offset=" + ",".join([str(c["prefix"])] * c["B"])
    if c["csl"] is not None:
        flags += " -current_seq_len=" + ",".join([str(c["csl"])] * c["B"])
    for m in mods:
        flags += " " + MODS[m]
    if base == "dense":
        return flags + " --transK"
    if base == "kmaj":
        return flags
    tok = int(base[1:])
    return (flags + f" --paged-attention --num-pages {c['Hkv'] * c['Sk'] // tok}"
            f" --page-size {tok * c['D']}")
