#!/usr/bin/env python3
"""rock's error against the exact answer, beside PyTorch's, on the same inputs.

    bench/accuracy.py [--filter RE] cpu [--build build] [--md FILE]
    bench/accuracy.py prepare DIR [--build build]     # GPU bundles, here
    python3 DIR/accuracy.py gpu DIR [--runner PATH] [--md FILE]  # on the GPU

Each case is one rock-gen problem (f32, f16, bf16; integer or float random
inputs; with or without an elementwise scale and bias; a GQA prefill and a
GQA decode), run at rock's defaults: `cpu` with rock-run here, `gpu` with
rock-run-gpu on bundles that `prepare` compiled for sm_90. The run dumps its
inputs and output (rock-run --dump-dir); this script computes the exact
answer from the dumped inputs in float64 (numpy, two-pass softmax, written
here: it shares nothing with rock's reference) and each competitor's output
from the same inputs:

- cpu: Debian's torch (1.13) as a matmul + softmax composite in the input
  dtype (scores = q @ k^T, * scale, + bias, softmax, @ v). Torch 1.13 has no
  CPU f16 matmul: for f16 the composite runs its matmuls and softmax in f32
  and rounds every intermediate (scores, P, output) to f16, which is what an
  f16 composite with f32 accumulation computes.
- gpu: the same composite on the GPU, and torch's SDPA with each backend it
  runs (math, flash, cuDNN, memory-efficient; scale = 1). SDPA has no
  elementwise scale: the scale+bias rows have the composite only.

Errors are against the exact (unrounded) answer: RMS (sqrt(mean d^2) /
max|exact|, rock-run's RMS) and max |d|. The last column is rock's max error
over the best competitor's. Prints the table last.
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = {
    "prefill": "-g 1 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 256 "
               "-seq_len_k 256 -head_dim_qk 64 -head_dim_v 64",
    "decode": "-g 4 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 "
              "-seq_len_k 4096 -head_dim_qk 128 -head_dim_v 128",
}
DATA = {"int": "-rand 1", "float": "-rand 2 -rand_type float -rand_min -1 "
        "-rand_max 1"}


FILTER = None


def cases():
    for c in all_cases():
        if not FILTER or re.search(FILTER, c["name"]):
            yield c


def all_cases():
    for t in ("f32", "f16", "bf16"):
        for data in ("int", "float"):
            for sb in (False, True):
                for shape in SHAPES:
                    name = f"{t}-{data}-{'sb' if sb else 'plain'}-{shape}"
                    flags = (f"--operation attention -t {t} {SHAPES[shape]} "
                             f"{DATA[data]} -pv")
                    if sb:
                        flags += " --with-attn-scale --with-attn-bias"
                    yield dict(name=name, t=t, data=data, sb=sb, shape=shape,
                               flags=flags)


def load(d):
    cfg = json.load(open(os.path.join(d, "config.json")))
    get = lambda n: np.load(os.path.join(d, n + ".npy"))  # noqa: E731
    x = {n: get(n) for n in ("q", "k", "v", "out")}
    for n in ("scale", "bias"):
        if os.path.exists(os.path.join(d, n + ".npy")):
            x[n] = get(n)
    return cfg, x


def exact(cfg, x):
    """The f64 answer: q [B,Sq,D], k [Bkv,Sk,D], v [Bkv,Sk,Dv]."""
    for k in ("causal", "paged"):
        assert not cfg[k], f"{k} problems are not covered here"
    r = cfg["num_heads_q"] // cfg["num_heads_kv"]
    q = x["q"].astype(np.float64)
    k = np.repeat(x["k"].astype(np.float64), r, axis=0)
    v = np.repeat(x["v"].astype(np.float64), r, axis=0)
    s = q @ k.transpose(0, 2, 1)
    if "scale" in x:
        s = s * x["scale"].astype(np.float64)
    if "bias" in x:
        s = s + x["bias"].astype(np.float64)
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    return (p @ v) / p.sum(axis=-1, keepdims=True)


def errors(ref, got):
    d = np.abs(np.asarray(got, dtype=np.float64) - ref)
    return float(np.sqrt((d * d).mean()) / np.abs(ref).max()), float(d.max())


def torch_dtype(torch, t):
    return {"f32": torch.float32, "f16": torch.float16,
            "bf16": torch.bfloat16}[t]


def composite(torch, cfg, x, dev, emulate16=False):
    """matmul + softmax in the input dtype on device `dev`; with emulate16
    (torch 1.13's CPU has no f16 matmul) in f32, rounded to f16 after each
    step."""
    t = torch_dtype(torch, cfg["t"])
    ct = torch.float32 if emulate16 else t
    r = cfg["num_heads_q"] // cfg["num_heads_kv"]
    cast = lambda a: torch.from_numpy(a).to(dev).to(t).to(ct)  # noqa: E731
    rnd = (lambda a: a.to(t).to(ct)) if emulate16 else (lambda a: a)  # noqa
    q = cast(x["q"])
    k = cast(x["k"]).repeat_interleave(r, dim=0)
    v = cast(x["v"]).repeat_interleave(r, dim=0)
    s = rnd(q @ k.transpose(1, 2))
    if "scale" in x:
        s = rnd(s * cast(x["scale"]))
    if "bias" in x:
        s = rnd(s + cast(x["bias"]))
    p = rnd(torch.softmax(s, dim=-1))
    return rnd(p @ v).double().cpu().numpy()


def sdpa_variants(torch, cfg, x):
    """{backend: output} of torch SDPA on the GPU (plain problems only)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    t = torch_dtype(torch, cfg["t"])
    r = cfg["num_heads_q"] // cfg["num_heads_kv"]
    g = lambda a: torch.from_numpy(a).cuda().to(t).unsqueeze(0)  # noqa: E731
    q = g(x["q"])
    k = g(x["k"]).repeat_interleave(r, dim=1)
    v = g(x["v"]).repeat_interleave(r, dim=1)
    out = {}
    for name, be in (("math", SDPBackend.MATH),
                     ("flash", SDPBackend.FLASH_ATTENTION),
                     ("cudnn", SDPBackend.CUDNN_ATTENTION),
                     ("efficient", SDPBackend.EFFICIENT_ATTENTION)):
        try:
            with sdpa_kernel([be]):
                o = F.scaled_dot_product_attention(q, k, v, scale=1.0)
            torch.cuda.synchronize()
            out["sdpa-" + name] = o[0].double().cpu().numpy()
        except Exception as e:  # the backend does not take this problem
            out["sdpa-" + name] = str(e).splitlines()[0][:60]
    return out


def judge(case, d, peers):
    cfg, x = load(d)
    ref = exact(cfg, x)
    row = dict(case, rock=errors(ref, x["out"]), peers={})
    for name, o in peers(cfg, x).items():
        row["peers"][name] = errors(ref, o) if isinstance(o, np.ndarray) else o
    return row


def table(rows, machine):
    lines = [f"Machine: {machine}", "",
             "| dtype | data | scale+bias | shape | rock RMS / max | "
             "torch RMS / max (variant) | rock max / best torch max |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        ok = {k: v for k, v in r["peers"].items() if isinstance(v, tuple)}
        peer = " ".join(f"{v[0]:.2e} / {v[1]:.2e} ({k})"
                        for k, v in sorted(ok.items()))
        skipped = [k for k, v in r["peers"].items() if not isinstance(v, tuple)]
        if skipped:
            peer += f" [n/a: {', '.join(sorted(skipped))}]"
        best = min((v[1] for v in ok.values()), default=float("nan"))
        ratio = r["rock"][1] / best if best > 0 else float("nan")
        lines.append(f"| {r['t']} | {r['data']} | {'yes' if r['sb'] else 'no'}"
                     f" | {r['shape']} | {r['rock'][0]:.2e} / "
                     f"{r['rock'][1]:.2e} | {peer} | {ratio:.2f} |")
    return "\n".join(lines)


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def run_cpu(a):
    import torch
    gen = os.path.join(a.build, "bin", "rock-gen")
    run = os.path.join(a.build, "bin", "rock-run")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in cases():
            d = os.path.join(tmp, c["name"])
            p = subprocess.run(f"{gen} {c['flags']} | {run} --dump-dir {d}",
                               shell=True, capture_output=True, text=True)
            verdict = (p.stdout.strip().splitlines() or ["?"])[-1]
            if p.returncode != 0:
                sys.exit(f"{c['name']}: rock-run exit {p.returncode} "
                         f"{verdict} {p.stderr.strip()[-200:]}")
            f16 = c["t"] == "f16"
            rows.append(judge(c, d, lambda cfg, x: {
                ("torch f32-emulated f16" if f16 else "torch composite"):
                composite(torch, cfg, x, "cpu", emulate16=f16)}))
            print(f"{c['name']}: {verdict}", flush=True)
    machine = (f"CPU {cpu_model()}, torch {torch.__version__} "
               f"({torch.get_num_threads()} threads), rock-run")
    return rows, machine


def prepare(a):
    gen = os.path.join(a.build, "bin", "rock-gen")
    run = os.path.join(a.build, "bin", "rock-run")
    out = os.path.abspath(a.dir)
    os.makedirs(os.path.join(out, "bundles"), exist_ok=True)
    for c in cases():
        b = os.path.join(out, "bundles", c["name"] + ".bundle")
        subprocess.run(f"{gen} {c['flags']} --arch sm_90 | {run} "
                       f"--compile-only -o {b}", shell=True, check=True)
    shutil.copy(os.path.abspath(__file__), out)
    print(f"{out}: {len(list(cases()))} bundles")
    return 0


def run_gpu(a):
    import torch
    runner = a.runner or os.path.join(a.dir, "rock-run-gpu")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in cases():
            b = os.path.join(a.dir, "bundles", c["name"] + ".bundle")
            d = os.path.join(tmp, c["name"])
            p = subprocess.run([runner, b, "--dump-dir", d],
                               capture_output=True, text=True)
            verdict = (p.stdout.strip().splitlines() or ["?"])[-1]
            print(f"{c['name']}: {verdict} (exit {p.returncode})", flush=True)
            if p.returncode != 0:
                continue

            def peers(cfg, x):
                o = {"torch composite": composite(torch, cfg, x, "cuda")}
                if "scale" not in x and "bias" not in x:
                    o.update(sdpa_variants(torch, cfg, x))
                return o
            rows.append(judge(c, d, peers))
    machine = (f"GPU {torch.cuda.get_device_name(0)}, torch "
               f"{torch.__version__}, rock-run-gpu")
    return rows, machine


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("cpu")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--md")
    p = sub.add_parser("prepare")
    p.add_argument("dir")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p = sub.add_parser("gpu")
    p.add_argument("dir")
    p.add_argument("--runner")
    p.add_argument("--md")
    ap.add_argument("--filter", help="regex on the case names")
    a = ap.parse_args()
    global FILTER
    FILTER = a.filter
    if a.cmd == "prepare":
        return prepare(a)
    rows, machine = run_cpu(a) if a.cmd == "cpu" else run_gpu(a)
    text = table(rows, machine)
    if a.md:
        with open(a.md, "w") as f:
            f.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
