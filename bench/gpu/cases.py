"""The GPU attention benchmark's cases: one table for the compile side
(scripts/gpu-roundtrip.py prepare turns each (case, variant) into a
`rock-gen | rock-run --compile-only` bundle) and the device side
(attention_bench.py reads the cases.json that prepare writes next to the
bundles). No torch here.

Suites (all bf16, d 128):
  decode   q 1, Hq 32 / Hkv 8, B {1, 8, 32} x L {8k, 32k, 128k};
  prefill  B 2, Hq 64 / Hkv 8, Sq = Sk {4k, 8k, 16k}, causal and not;
  mtd      multi-token decode with a KV cache: q {8, 16} new tokens at the
           end of the cache (causal with prefix offset L - q, current
           length L - 1), Hq 32 / Hkv 8, B {8, 32} x L {8k, 32k}.
Variants: dense (K as [keys][d], --transK) and paged (shuffled page table,
16 and 64 tokens a page); mtd is dense only.
"""

ARCH = "sm_90"
D = 128
PAGES = (16, 64)  # tokens per page
SUITES = ("decode", "prefill", "mtd")


def _case(suite, name, B, Hq, Hkv, Sq, Sk, causal=False, prefix=None,
          csl=None, paged=True):
    variants = ["dense"] + ([f"p{t}" for t in PAGES] if paged else [])
    return {"suite": suite, "name": name, "B": B, "Hq": Hq, "Hkv": Hkv,
            "Sq": Sq, "Sk": Sk, "D": D, "causal": causal, "prefix": prefix,
            "csl": csl, "variants": variants}


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
                                 S, S, causal=causal))
    elif suite == "mtd":
        for q in (8, 16):
            for B in (8, 32):
                for L in (8192, 32768):
                    out.append(_case(suite, f"q{q}-B{B}-L{L}", B, 32, 8, q,
                                     L, causal=True, prefix=L - q,
                                     csl=L - 1, paged=False))
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
    flags = (f"--operation attention -t bf16 -g {c['B']} "
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
    if variant == "dense":
        return flags + " --transK"
    tok = int(variant[1:])
    return (flags + f" --paged-attention --num-pages {c['Hkv'] * c['Sk'] // tok}"
            f" --page-size {tok * c['D']}")
