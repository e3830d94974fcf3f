#!/usr/bin/env python3
"""GPU decode benchmark (runs on the GPU machine; torch and cupy there).

For each case (bf16, Hq 32 / Hkv 8, d 128, q 1, B x L) it times, in one
process on one GPU:
  - rock's kernels from their bundles (`rock-run --compile-only`): paged with
    a shuffled page table (page 16 and 64 tokens) and contiguous KV;
  - a streaming read probe (MLIR-generated PTX, 16-byte loads) over the same
    number of bytes;
  - PyTorch SDPA with the cuDNN and the flash backends (contiguous KV,
    enable_gqa=True, scale 1 like rock.attention).
Every timing: CUDA events around groups of back-to-back launches after a
warm-up, median (and best) of the groups, L2 kept cold by rotating among
input copies whose total is >= 4x the L2. Inputs are random (never zeros).
Each rock run's output is compared with SDPA's (relative L2 error).

Bundle format: runtime/bundle.h. Usage:
  decode_bench.py --bundles DIR --probe read_probe.ptx [--json OUT.json]
"""

import argparse
import json
import math
import os
import re
import struct
import sys
import tempfile
import warnings

# torch, cupy and numpy exist on the GPU machine; --render needs none.
cupy = np = torch = F = SDPBackend = sdpa_kernel = None


def load_gpu_modules():
    global cupy, np, torch, F, SDPBackend, sdpa_kernel, TORCH_DTYPES
    import cupy as _cupy
    import numpy as _np
    import torch as _torch
    import torch.nn.functional as _F
    from torch.nn.attention import SDPBackend as _B, sdpa_kernel as _k
    cupy, np, torch, F, SDPBackend, sdpa_kernel = _cupy, _np, _torch, _F, \
        _B, _k
    TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16,
                    "f32": torch.float32, "i64": torch.int64,
                    "i32": torch.int32, "i8": torch.int8}

HQ, HKV, D = 32, 8, 128
warnings.filterwarnings("ignore", category=DeprecationWarning)
L2_BYTES = 60 * 1024 * 1024
PEAK = 4.8e12
WARMUP, GROUPS = 3, 15


# ---------------------------------------------------------------------------
# Bundles

def read_bundle(path):
    with open(path, "rb") as f:
        data = f.read()
    pos, harness, objects, funcs, fn = 0, {}, [], {}, None
    meta = {}
    while pos < len(data):
        end = data.index(b"\n", pos)
        line = data[pos:end].decode()
        pos = end + 1
        fd = line.split()
        if not fd:
            continue
        kw = fd[0]
        if kw == "harness":
            harness[fd[1]] = fd[2:]
        elif kw == "object":
            size = int(fd[4])
            objects.append({"name": fd[2], "format": fd[3],
                            "data": data[pos:pos + size]})
            pos += size + 1
        elif kw == "function":
            fn = {"args": [], "scratch": [], "launches": []}
            funcs[fd[1]] = fn
        elif kw == "arg":
            fn["args"].append((fd[2], int(fd[3])))
        elif kw == "scratch":
            fn["scratch"].append(int(fd[1]))
        elif kw == "launch":
            fn["launches"].append({
                "object": int(fd[1]), "kernel": fd[2],
                "grid": tuple(int(x) for x in fd[4:7]),
                "block": tuple(int(x) for x in fd[8:11]),
                "smem": int(fd[12]), "params": []})
        elif kw == "param":
            fn["launches"][-1]["params"].append((fd[1], int(fd[2])))
        elif kw in ("arch", "compile_ms"):
            meta[kw] = fd[1]
        elif kw == "end":
            break
    return {"harness": harness, "objects": objects, "funcs": funcs,
            "meta": meta}


TORCH_DTYPES = {}


class RockKernel:
    """A loaded bundle: its modules and launches, ready to run."""

    def __init__(self, path):
        self.b = read_bundle(path)
        self.modules = []
        for o in self.b["objects"]:
            suffix = ".ptx" if o["format"] == "ptx" else ".cubin"
            fdesc, name = tempfile.mkstemp(suffix=suffix)
            os.write(fdesc, o["data"])
            os.close(fdesc)
            self.modules.append(cupy.RawModule(path=name))
        self.funcs = {}
        for fname, fn in self.b["funcs"].items():
            kernels = []
            for la in fn["launches"]:
                k = self.modules[la["object"]].get_function(la["kernel"])
                if la["smem"] > 48 * 1024:
                    k.max_dynamic_shared_size_bytes = la["smem"]
                kernels.append(k)
            scratch = [torch.empty(max(n, 1), dtype=torch.uint8,
                                   device="cuda") for n in fn["scratch"]]
            self.funcs[fname] = (fn, kernels, scratch)

    def h(self, key, default=None):
        v = self.b["harness"].get(key)
        return default if v is None else v[0]

    def launch(self, fname, args):
        fn, kernels, scratch = self.funcs[fname]
        for la, k in zip(fn["launches"], kernels):
            vals = []
            for kind, v in la["params"]:
                if kind == "arg":
                    vals.append(np.uint64(args[v].data_ptr()))
                elif kind == "scratch":
                    vals.append(np.uint64(scratch[v].data_ptr()))
                elif kind == "i64":
                    vals.append(np.int64(v))
                elif kind == "i32":
                    vals.append(np.int32(v))
                else:
                    vals.append(np.frombuffer(struct.pack("<I", v),
                                              dtype=np.float32)[0])
            k(la["grid"], la["block"], tuple(vals), shared_mem=la["smem"])

    def run(self, sets, i):
        self.launch("rock_attention", sets[i]["kernel"])
        if "rock_attention_combine" in self.funcs and \
                int(self.h("split_kv", "1")) > 1:
            self.launch("rock_attention_combine", sets[i]["combine"])


# ---------------------------------------------------------------------------
# Timing

def time_groups(fn, copies):
    """Median and best ms of one call of fn(i), rotating i over `copies`
    input sets. The calls are captured into a CUDA graph (so that Python's
    launch overhead is not measured) of max(8, copies) calls; each group is
    one replay between two events. Falls back to eager launches (marked) if
    capture fails."""
    per = max(8, copies)
    for w in range(WARMUP):
        fn(w % copies)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            with cupy.cuda.ExternalStream(
                    torch.cuda.current_stream().cuda_stream):
                for j in range(per):
                    fn(j % copies)
        replay, mode = graph.replay, "graph"
    except Exception:
        torch.cuda.synchronize()
        graph = None

        def replay():
            for j in range(per):
                fn(j % copies)
        mode = "eager"
    replay()
    torch.cuda.synchronize()
    times = []
    start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
    for _ in range(GROUPS):
        start.record()
        replay()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / per)
    times.sort()
    del graph
    return times[len(times) // 2], times[0], mode


def n_copies(nbytes):
    return max(1, min(64, math.ceil(4 * L2_BYTES / max(nbytes, 1))))


# ---------------------------------------------------------------------------
# Cases

def rock_sets(kern, q, k, v, copies):
    """Argument tensors per copy for bundle `kern` (kernel order from the
    harness: Q, K or K page table, V or V page table, [LSE], out)."""
    fn = kern.b["funcs"]["rock_attention"]
    paged = kern.h("paged") == "1"
    transk = kern.h("transK") == "1"
    b, L = q.shape[0], k.shape[2]
    ps = int(kern.h("page_size", "0"))
    # LSE / out: NaN-filled, shared by all copies.
    outs = [torch.full((n,), float("nan"), dtype=TORCH_DTYPES[t],
                       device="cuda") for t, n in fn["args"][3:]]
    sets = []
    for c in range(copies):
        kk = k if c == 0 else k.clone()
        vv = v if c == 0 else v.clone()
        args, keep = [q.reshape(-1)], []
        if paged:
            for cache in (kk, vv):
                # head-major [B][Hkv][L][D] cut into pages of ps elements;
                # logical page j goes to pool slot perm[j].
                pages = cache.reshape(-1, ps)
                perm = torch.randperm(pages.shape[0], device="cuda")
                pool = torch.empty_like(pages)
                pool[perm] = pages
                table = pool.data_ptr() + perm.to(torch.int64) * (ps * 2)
                keep.append(pool)
                args.append(table.contiguous())
        else:
            kd = kk.reshape(b * HKV, L, D)
            if not transk:
                kd = kd.transpose(1, 2).contiguous()
            keep.append(kd)
            args += [kd.reshape(-1), vv.reshape(-1)]
        sets.append({"kernel": args + outs, "keep": keep})
    if "rock_attention_combine" in kern.funcs:
        cargs = kern.b["funcs"]["rock_attention_combine"]["args"]
        final = [torch.full((n,), float("nan"), dtype=TORCH_DTYPES[t],
                            device="cuda") for t, n in cargs[2:]]
        lsep = outs[-2] if len(outs) >= 2 else None
        for st in sets:
            st["combine"] = [outs[-1], lsep, final[0], final[1]]
    return sets


def reference(q, k, v):
    """f32 SDPA (scale 1, GQA), a few batches at a time to bound memory."""
    out = torch.empty(q.shape, dtype=torch.float32, device="cuda")
    per = max(1, (4 << 30) // (2 * k[0].numel() * 4))
    for b0 in range(0, q.shape[0], per):
        sl = slice(b0, b0 + per)
        out[sl] = F.scaled_dot_product_attention(
            q[sl].float(), k[sl].float(), v[sl].float(), scale=1.0,
            enable_gqa=True)
    return out


def rock_output(kern, sets):
    if "rock_attention_combine" in kern.funcs and \
            int(kern.h("split_kv", "1")) > 1:
        return sets[0]["combine"][2]
    return sets[0]["kernel"][-1]


def run_case(args, B, L, probe, results):
    torch.manual_seed(B * 1000003 + L)
    q = (torch.randn(B, HQ, 1, D, device="cuda") * 0.3).to(torch.bfloat16)
    k = (torch.randn(B, HKV, L, D, device="cuda") * 0.3).to(torch.bfloat16)
    v = torch.randn(B, HKV, L, D, device="cuda").to(torch.bfloat16)
    kv_bytes = 2 * B * HKV * L * D * 2
    alg_bytes = kv_bytes + 2 * B * HQ * D * 2
    copies = n_copies(kv_bytes)
    ref = reference(q, k, v)
    row = {"B": B, "L": L, "bytes": alg_bytes, "copies": copies}

    # PyTorch SDPA, contiguous KV.
    ks = [k] + [k.clone() for _ in range(copies - 1)]
    vs = [v] + [v.clone() for _ in range(copies - 1)]
    for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION),
                          ("flash", SDPBackend.FLASH_ATTENTION)):
        try:
            with sdpa_kernel(backend):
                o = F.scaled_dot_product_attention(
                    q, k, v, scale=1.0, enable_gqa=True)
                row[name + "_err"] = float((o.float() - ref).norm() /
                                           ref.norm())
                med, _, mode = time_groups(
                    lambda i: F.scaled_dot_product_attention(
                        q, ks[i], vs[i], scale=1.0, enable_gqa=True),
                    copies)
                row[name + "_us"], row[name + "_mode"] = 1e3 * med, mode
        except Exception as e:  # a backend may refuse a shape
            row[name + "_us"] = None
            row[name + "_error"] = str(e).splitlines()[0][:200]
    del ks, vs

    # Read probe over the KV bytes.
    n32 = kv_bytes // 4
    threads = 1024 * 256
    n32 -= n32 % (32 * threads)
    bufs = [torch.randint(-2**31, 2**31 - 1, (n32,), dtype=torch.int32,
                          device="cuda") for _ in range(copies)]
    sink = torch.zeros(4, dtype=torch.int32, device="cuda")
    med, _, row["probe_mode"] = time_groups(
        lambda i: probe((1024,), (256,), (np.uint64(bufs[i].data_ptr()),
                                          np.int64(n32),
                                          np.uint64(sink.data_ptr()))),
        copies)
    row["probe_us"] = 1e3 * med
    row["probe_bytes"] = n32 * 4
    del bufs

    # rock's kernels.
    for variant in ("dense", "p16", "p64"):
        path = os.path.join(args.bundles, f"decode-{variant}-B{B}-L{L}.bundle")
        if not os.path.exists(path):
            row[variant + "_error"] = "no bundle"
            continue
        try:
            kern = RockKernel(path)
            row[variant + "_compile_ms"] = float(kern.b["meta"]["compile_ms"])
            sets = rock_sets(kern, q, k, v, copies)
            kern.run(sets, 0)
            torch.cuda.synchronize()
            o = rock_output(kern, sets).float().reshape(B, HQ, 1, D)
            row[variant + "_err"] = float((o - ref).norm() / ref.norm())
            med, best, mode = time_groups(lambda i: kern.run(sets, i),
                                          copies)
            row[variant + "_us"], row[variant + "_mode"] = 1e3 * med, mode
            row[variant + "_best_us"] = 1e3 * best
            del sets
        except Exception as e:
            row[variant + "_error"] = str(e).splitlines()[0][:200]
        torch.cuda.empty_cache()
    results.append(row)
    print(json.dumps(row), flush=True)


def fmt(row, key):
    us = row.get(key + "_us")
    if us is None:
        return "-"
    gbs = row["bytes"] / (us * 1e-6) / 1e9
    return f"{us:.1f} ({gbs:.0f}, {100 * gbs * 1e9 / PEAK:.0f}%)"


def table(results):
    lines = ["| B | L | KV MiB | probe µs (GB/s) | rock dense | rock p16 | "
             "rock p64 | cuDNN | flash | % of probe: dense / p16 / p64 / "
             "cuDNN | errors |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        probe_gbs = r["probe_bytes"] / (r["probe_us"] * 1e-6) / 1e9
        probe_eq = r["probe_us"] * r["bytes"] / r["probe_bytes"]
        pct = " / ".join(f"{100 * probe_eq / r[v + '_us']:.0f}%"
                         if r.get(v + "_us") else "-"
                         for v in ("dense", "p16", "p64", "cudnn"))
        errs = ", ".join(f"{v}={r[v + '_err']:.1e}" for v in
                         ("dense", "p16", "p64", "cudnn", "flash")
                         if r.get(v + "_err") is not None)
        lines.append(
            f"| {r['B']} | {r['L'] // 1024}k | {r['bytes'] / 2**20:.0f} | "
            f"{r['probe_us']:.1f} ({probe_gbs:.0f}) | {fmt(r, 'dense')} | "
            f"{fmt(r, 'p16')} | {fmt(r, 'p64')} | {fmt(r, 'cudnn')} | "
            f"{fmt(r, 'flash')} | {pct} | {errs} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles")
    ap.add_argument("--probe")
    ap.add_argument("--render", help="print the table of a --json file")
    ap.add_argument("--json")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--lengths", default="8192,32768,131072")
    args = ap.parse_args()
    if args.render:
        with open(args.render) as f:
            print(table(json.load(f)))
        return 0
    if not args.bundles or not args.probe:
        ap.error("--bundles and --probe are required")
    load_gpu_modules()
    probe = cupy.RawModule(path=args.probe).get_function("read_probe")
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__},"
          f" cudnn {torch.backends.cudnn.version()}", flush=True)
    results = []
    for B in [int(x) for x in args.batches.split(",")]:
        for L in [int(x) for x in args.lengths.split(",")]:
            run_case(args, B, L, probe, results)
            torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("cells: µs (GB/s over algorithmic bytes, % of 4.8 TB/s)")
    print(table(results))


if __name__ == "__main__":
    sys.exit(main())
