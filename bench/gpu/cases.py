"""The GPU attention benchmark's cases: one table for the compile side
(scripts/gpu-roundtrip.py prepare turns each (case, variant) into a
`rock-gen | rock-run --compile-only` bundle) and the device side
(attention_bench.py reads the cases.json that prepare writes next to the
bundles). No torch here.

Suites (bf16, d 128 unless named):
  decode   q 1, Hq 32 / Hkv 8, B {1, 8, 32} x L {8k, 32k, 128k};
  prefill  B 2, Hq 64 / Hkv 8, Sq = Sk {4k, 8k, 16k}, causal and not;
  mtd      multi-token decode with a KV cache: q {8, 16} new tokens at the
           end of the cache (causal with prefix offset L - q, current
           length L - 1), Hq 32 / Hkv 8, B {8, 32} x L {8k, 32k};
  shapes   other prefill shapes: causal B 4 Hq 32 / Hkv 8 S 2k; MHA B 2
           H 16 S 4k d 64; MHA B 2 H 16 S 4k d 256, causal and not; f16
           B 2 Hq 64 / Hkv 8 S 8k, causal and not.
Variants: dense (K as [keys][d], --transK), paged (shuffled page table,
16 and 64 tokens a page), kdef (rocMLIR's default K layout, [d][keys]),
mma (dense with -wgmma=off: the mma.sync schedule, plain sm_90 PTX), noov
(dense with rock.gpu_wgmma_overlap = false) and nows (dense with
rock.gpu_wgmma_producer = false: no producer warpgroup); mtd is dense
only.
"""

ARCH = "sm_90"
D = 128
PAGES = (16, 64)  # tokens per page
SUITES = ("decode", "prefill", "mtd", "shapes")


def _case(suite, name, B, Hq, Hkv, Sq, Sk, causal=False, prefix=None,
          csl=None, paged=True, t="bf16", d=D, extra=()):
    variants = ["dense"] + ([f"p{t}" for t in PAGES] if paged else [])
    return {"suite": suite, "name": name, "B": B, "Hq": Hq, "Hkv": Hkv,
            "Sq": Sq, "Sk": Sk, "D": d, "t": t, "causal": causal,
            "prefix": prefix, "csl": csl, "variants": variants + list(extra)}


def cases(suite):
    """The cases of `suite` (one of SUITES), in table order."""
    out = []
    if suite == "decode":
        for B in (1, 8, 32):
            for L in (8192, 32768, 131072):
                out.append(_case(suite, f"B{B}-L{L}", B, 32, 8, 1, L))
    elif suite == "prefill":
        for S in (4096, 8192, 16384):
            for causal in (False, True):
                out.append(_case(suite, f"S{S}-c{int(causal)}", 2, 64, 8,
                                 S, S, causal=causal, extra=("mma", "nows")))
    elif suite == "mtd":
        for q in (8, 16):
            for B in (8, 32):
                for L in (8192, 32768):
                    out.append(_case(suite, f"q{q}-B{B}-L{L}", B, 32, 8, q,
                                     L, causal=True, prefix=L - q,
                                     csl=L - 1, paged=False))
    elif suite == "shapes":
        ab = ("kdef", "mma")
        out.append(_case(suite, "gqa-B4-S2k-c1", 4, 32, 8, 2048, 2048,
                         causal=True, paged=False, extra=ab))
        out.append(_case(suite, "mha-B2-S4k-d64", 2, 16, 16, 4096, 4096,
                         paged=False, d=64, extra=ab))
        for causal in (False, True):
            out.append(_case(suite, f"mha-B2-S4k-d256-c{int(causal)}", 2, 16,
                             16, 4096, 4096, causal=causal, paged=False,
                             d=256, extra=("mma",)))
        for causal in (False, True):
            out.append(_case(suite, f"f16-B2-S8k-c{int(causal)}", 2, 64, 8,
                             8192, 8192, causal=causal, paged=False,
                             t="f16"))
    else:
        raise ValueError(f"unknown suite {suite!r} (have {SUITES})")
    return out


def post_filter(variant):
    """A shell filter between rock-gen and rock-run for `variant`, or "":
    noov / nows set the module attribute rock.gpu_wgmma_overlap /
    rock.gpu_wgmma_producer to false."""
    attr = {"noov": "rock.gpu_wgmma_overlap",
            "nows": "rock.gpu_wgmma_producer"}.get(variant)
    if attr:
        return ("sed 's/^module attributes {/module attributes "
                f"{{{attr} = false, /'")
    return ""


def bundle_name(case, variant):
    """decode-p16-B8-L32768 and the like: suite, variant, shape."""
    return f"{case['suite']}-{variant}-{case['name']}"


def rock_gen_flags(case, variant):
    """rock-gen's flags for one bundle of `case` (no verifier: the device
    side checks against PyTorch)."""
    c = case
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
    if variant in ("dense", "noov", "nows"):
        return flags + " --transK"
    if variant == "mma":
        return flags + " --transK -wgmma=off"
    if variant == "kdef":
        return flags
    tok = int(variant[1:])
    return (flags + f" --paged-attention --num-pages {c['Hkv'] * c['Sk'] // tok}"
            f" --page-size {tok * c['D']}")
