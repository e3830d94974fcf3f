#!/usr/bin/env python3
"""Runs one benchmark bundle a few times, for a profiler (ncu) to watch.

The GPU-machine side of a profile: the inputs are made as
attention_bench.py makes them for the case (same seed, same layouts, paged
tables), the kernel runs `--runs` times, nothing is timed or verified. Use
with Nsight Compute, e.g.

    ncu --clock-control none --section SpeedOfLight -k regex:rock -c 1 \\
        python3 profile_case.py --bundles DIR NAME VARIANT

NAME is the case's name in DIR/cases.json (e.g. S8192-c0 of the prefill
suite: give --suite), VARIANT one of its variants (dense, p16, dense-pp...).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_bench as ab  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--suite", default="prefill")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("name")
    ap.add_argument("variant")
    args = ap.parse_args()
    with open(os.path.join(args.bundles, "cases.json")) as f:
        cases = [c for c in json.load(f) if c["suite"] == args.suite and
                 c["name"] == args.name]
    if not cases or args.variant not in cases[0]["bundles"]:
        sys.exit(f"profile_case: no bundle for {args.suite} {args.name} "
                 f"{args.variant}")
    case = cases[0]
    ab.load_gpu_modules()
    torch = ab.torch
    B, Hq, Hkv, Sq, Sk, D = (case[x] for x in
                             ("B", "Hq", "Hkv", "Sq", "Sk", "D"))
    dt = ab.TORCH_DTYPES[case.get("t", "bf16")]
    q = (torch.randn(B, Hq, Sq, D, device="cuda") * 0.3).to(dt)
    k = (torch.randn(B, Hkv, Sk, D, device="cuda") * 0.3).to(dt)
    v = torch.randn(B, Hkv, Sk, D, device="cuda").to(dt)
    kern = ab.RockKernel(os.path.join(args.bundles,
                                      case["bundles"][args.variant]))
    sets = ab.rock_sets(kern, q, k, v, 1, case)
    for _ in range(args.runs):
        kern.run(sets, 0)
    torch.cuda.synchronize()
    print(f"profile_case: {args.suite} {args.name} {args.variant}: "
          f"{args.runs} runs")


if __name__ == "__main__":
    main()
