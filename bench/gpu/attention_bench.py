#!/usr/bin/env python3
"""GPU attention benchmark (runs on the GPU machine; torch and cupy there).

The cases come from bench/gpu/cases.py through the cases.json that
scripts/gpu-roundtrip.py prepare writes next to the bundles. Per case it
times, in one process on one GPU:
  - rock's kernels from their bundles (`rock-run --compile-only`): dense
    (K as [keys][d]) and, where the case has them, paged with a shuffled
    page table (16 and 64 tokens a page);
  - PyTorch SDPA peers on contiguous KV (enable_gqa=True, scale 1 like
    rock.attention): cuDNN and flash, plus the efficient backend for
    prefill;
  - decode (q 1) only: a streaming read probe (MLIR-generated PTX, 16-byte
    loads) over the same number of bytes;
  - prefill only: a bf16 matmul (8192^3, torch.matmul) once per run, the
    rate each prefill row is given as a percentage of.
Every timing: CUDA events around groups of back-to-back launches captured
in a CUDA graph after a warm-up, median (and best) of the groups, L2 kept
cold by rotating among input copies whose total is >= 4x the L2. Long
calls (prefill) take fewer, shorter groups (time_groups). Inputs are random
(never zeros). Each output (rock's and the peers') is compared with f32
SDPA on the same inputs and mask (relative L2 error; for large cases on
one KV group of the last batch).

Bundle format: runtime/bundle.h. Usage:
  attention_bench.py --bundles DIR [--suites decode,prefill,mtd]
                     [--probe read_probe.ptx] [--ptxas ptxas.json]
                     [--json OUT.json]
  attention_bench.py --render OUT.json [--ptxas ptxas.json]
"""

import argparse
import ctypes
import json
import math
import os
import struct
import sys
import tempfile
import warnings

# torch, cupy and numpy exist on the GPU machine; --render needs none.
cupy = np = torch = F = SDPBackend = sdpa_kernel = causal_lower_right = None
TORCH_DTYPES = {}

warnings.filterwarnings("ignore", category=DeprecationWarning)
# SDPA explains each backend it skips; the rows record what ran.
warnings.filterwarnings("ignore", category=UserWarning)
L2_BYTES = 60 * 1024 * 1024
PEAK = 4.8e12
WARMUP, GROUPS = 3, 15
# Decode cases are timed in turn (class Interleaved) where every variant's
# input copies fit this together; the larger ones one after the other.
INTERLEAVE_BYTES = 16 << 30
MATMUL_N = 8192


def load_gpu_modules():
    global cupy, np, torch, F, SDPBackend, sdpa_kernel, TORCH_DTYPES
    global causal_lower_right
    import cupy as _cupy
    import numpy as _np
    import torch as _torch
    import torch.nn.functional as _F
    from torch.nn.attention import SDPBackend as _B, sdpa_kernel as _k
    from torch.nn.attention.bias import causal_lower_right as _clr
    cupy, np, torch, F, SDPBackend, sdpa_kernel = _cupy, _np, _torch, _F, \
        _B, _k
    causal_lower_right = _clr
    TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16,
                    "f32": torch.float32, "i64": torch.int64,
                    "i32": torch.int32, "i8": torch.int8}


# ---------------------------------------------------------------------------
# Bundles

def read_bundle(path):
    """The bundle at `path` (runtime/bundle.h) as a dict: harness (key ->
    list of words), objects, funcs (args, scratch, launches) and meta."""
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
            fn = {"args": [], "scratch": [], "tmaps": [], "launches": []}
            funcs[fd[1]] = fn
        elif kw == "arg":
            fn["args"].append((fd[2], int(fd[3])))
        elif kw == "scratch":
            # (bytes, zeroed): `scratch N zero` starts at zero (rock.zero_init:
            # arrival counters the kernels put back), else uninitialised
            fn["scratch"].append((int(fd[1]), fd[2:] == ["zero"]))
        elif kw == "tensor_map":
            # tensor_map I arg A DTYPE offset O rank R dims .. strides ..
            # box .. swizzle S (runtime/bundle.h)
            r = int(fd[8])
            # (`pool A`: a map over the page pool of page table A)
            fn["tmaps"].append({
                "arg": int(fd[3]), "pool": fd[2] == "pool",
                "dtype": fd[4], "offset": int(fd[6]),
                "dims": [int(x) for x in fd[10:10 + r]],
                "strides": [int(x) for x in fd[11 + r:10 + 2 * r]],
                "box": [int(x) for x in fd[11 + 2 * r:11 + 3 * r]],
                "swizzle": int(fd[12 + 3 * r])})
        elif kw == "launch":
            fn["launches"].append({
                "object": int(fd[1]), "kernel": fd[2],
                "grid": tuple(int(x) for x in fd[4:7]),
                "block": tuple(int(x) for x in fd[8:11]),
                "smem": int(fd[12]), "pdl": fd[13:14] == ["pdl"],
                "params": []})
        elif kw == "param":
            fn["launches"][-1]["params"].append((fd[1], int(fd[2])))
        elif kw in ("arch", "compile_ms"):
            meta[kw] = fd[1]
        elif kw == "end":
            break
    return {"harness": harness, "objects": objects, "funcs": funcs,
            "meta": meta}


# CUtensorMapDataType, CUtensorMapSwizzle (cuda.h)
TMAP_DTYPES = {"f16": 6, "f32": 7, "bf16": 9}
TMAP_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
_cuda = None


def libcuda():
    """The driver library (ctypes), loaded once."""
    global _cuda
    if _cuda is None:
        _cuda = ctypes.CDLL("libcuda.so.1")
        _cuda.cuTensorMapEncodeTiled.restype = ctypes.c_int
    return _cuda


class LaunchAttr(ctypes.Structure):
    """CUlaunchAttribute: an id, padding to 8 bytes, a 64-byte value."""
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("value", ctypes.c_uint64 * 8)]


class LaunchConfig(ctypes.Structure):
    """CUlaunchConfig (cuLaunchKernelEx)."""
    _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(LaunchAttr)),
                ("num_attrs", ctypes.c_uint)]


# CUlaunchAttributeID: the launch may overlap the kernel before it in its
# stream, the kernel resolving the dependency by griddepcontrol.wait
PROGRAMMATIC_STREAM_SERIALIZATION = 6
PARAM_CTYPES = {"arg": ctypes.c_uint64, "scratch": ctypes.c_uint64,
                "tmap": ctypes.c_uint64, "i64": ctypes.c_int64,
                "i32": ctypes.c_int32, "f32": ctypes.c_uint32}


def launch_pdl(k, la, vals, stream):
    """Launches cupy kernel `k` as the programmatic dependent launch `la`
    (the bundle's `pdl`: cuLaunchKernelEx with programmatic stream
    serialization, as runtime/gpu_run.c does) on `stream`; `vals` are the
    parameter values in order (an f32 as its bits). Under a CUDA graph
    capture the dependency becomes a programmatic edge (CUDA 12.3+).
    Returns the driver's result (0: launched)."""
    held = [PARAM_CTYPES[kind](v) for (kind, _), v in zip(la["params"], vals)]
    params = (ctypes.c_void_p * max(len(held), 1))(
        *[ctypes.cast(ctypes.pointer(h), ctypes.c_void_p) for h in held])
    attr = LaunchAttr(id=PROGRAMMATIC_STREAM_SERIALIZATION)
    attr.value[0] = 1  # programmaticStreamSerializationAllowed
    cfg = LaunchConfig((ctypes.c_uint * 3)(*la["grid"]),
                       (ctypes.c_uint * 3)(*la["block"]), la["smem"],
                       ctypes.c_void_p(stream), ctypes.pointer(attr), 1)
    fn = getattr(k, "kernel", k).ptr  # a cupy RawKernel's CUfunction
    return libcuda().cuLaunchKernelEx(ctypes.byref(cfg), ctypes.c_void_p(fn),
                                      params, None)


PDL_FAILED = []  # cuLaunchKernelEx results that made pdl launches plain


def encode_tensor_map(m, base):
    """The 128 bytes of CUtensorMap `m` (a bundle tensor_map) over device
    address `base` + its offset, from the driver's cuTensorMapEncodeTiled
    (tiled, no interleave, L2 promotion 256 B, zeros out of bounds), as
    runtime/gpu_run.c encodes it."""
    _cuda = libcuda()
    u64, u32 = ctypes.c_uint64, ctypes.c_uint32
    r = len(m["dims"])
    raw = (ctypes.c_ubyte * 192)()
    at = (ctypes.addressof(raw) + 63) & ~63  # CUtensorMap is 64-byte aligned
    esize = {"f16": 2, "bf16": 2, "f32": 4}[m["dtype"]]
    rc = _cuda.cuTensorMapEncodeTiled(
        ctypes.c_void_p(at), ctypes.c_int(TMAP_DTYPES[m["dtype"]]), u32(r),
        ctypes.c_void_p(base + m["offset"] * esize),
        (u64 * r)(*m["dims"]), (u64 * max(r - 1, 1))(*m["strides"]),
        (u32 * r)(*m["box"]), (u32 * r)(*([1] * r)), ctypes.c_int(0),
        ctypes.c_int(TMAP_SWIZZLE[m["swizzle"]]), ctypes.c_int(3),
        ctypes.c_int(0))
    if rc != 0:
        raise RuntimeError(f"cuTensorMapEncodeTiled failed ({rc})")
    return ctypes.string_at(at, 128)


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
            scratch = [(torch.zeros if z else torch.empty)(
                max(n, 1), dtype=torch.uint8, device="cuda")
                for n, z in fn["scratch"]]
            self.funcs[fname] = (fn, kernels, scratch)
        self.maps = {}  # (function, map, argument address) -> device bytes
        self.pool_of = {}  # page table address -> its pool's address

    def h(self, key, default=None):
        v = self.b["harness"].get(key)
        return default if v is None else v[0]

    def h_list(self, key):
        """A harness list (count, then values), e.g. current_seq_len."""
        v = self.b["harness"].get(key, ["0"])
        return [int(x) for x in v[1:1 + int(v[0])]]

    def tensor_map(self, fname, i, args):
        """The device copy of tensor map i of `fname` for these args
        (encoded once per argument address: call prepare_maps before a
        graph capture)."""
        m = self.funcs[fname][0]["tmaps"][i]
        key = (fname, i, args[m["arg"]].data_ptr())
        if key not in self.maps:
            # a pool map runs over the table's pool, whose address follows
            # the map at byte 128 (runtime/gpu_run.c, docs/gpu-runner.md)
            base = self.pool_of[key[2]] if m["pool"] else key[2]
            blob = encode_tensor_map(m, base) + struct.pack("<Q", base) + \
                bytes(56)
            self.maps[key] = torch.frombuffer(bytearray(blob),
                                              dtype=torch.uint8).cuda()
        return self.maps[key]

    def prepare_maps(self, sets):
        for st in sets:
            for i in range(len(self.funcs["rock_attention"][0]["tmaps"])):
                self.tensor_map("rock_attention", i, st["kernel"])
        torch.cuda.synchronize()

    def launch(self, fname, args):
        fn, kernels, scratch = self.funcs[fname]
        for la, k in zip(fn["launches"], kernels):
            vals = []
            for kind, v in la["params"]:
                if kind == "arg":
                    vals.append(np.uint64(args[v].data_ptr()))
                elif kind == "scratch":
                    vals.append(np.uint64(scratch[v].data_ptr()))
                elif kind == "tmap":
                    vals.append(np.uint64(
                        self.tensor_map(fname, v, args).data_ptr()))
                elif kind == "i64":
                    vals.append(np.int64(v))
                elif kind == "i32":
                    vals.append(np.int32(v))
                else:
                    vals.append(np.frombuffer(struct.pack("<I", v),
                                              dtype=np.float32)[0])
            if la["pdl"]:
                # (an f32 as its bits; cupy's current stream, the one k()
                # would use: torch's current stream under capture())
                bits = [v if kind == "f32" else int(x)
                        for (kind, v), x in zip(la["params"], vals)]
                rc = 1 if PDL_FAILED else launch_pdl(
                    k, la, bits, cupy.cuda.get_current_stream().ptr)
                if rc == 0:
                    continue
                if not PDL_FAILED:
                    # as rock-run-gpu: a plain launch (the wait a no-op)
                    print(f"pdl: cuLaunchKernelEx error {rc}: programmatic "
                          f"dependent launches run as plain launches",
                          file=sys.stderr)
                    PDL_FAILED.append(rc)
            k(la["grid"], la["block"], tuple(vals), shared_mem=la["smem"])

    def user_split(self):
        return "rock_attention_combine" in self.funcs and \
            int(self.h("split_kv", "1")) > 1

    def run(self, sets, i):
        self.launch("rock_attention", sets[i]["kernel"])
        if self.user_split():
            self.launch("rock_attention_combine", sets[i]["combine"])


# ---------------------------------------------------------------------------
# Timing

def one_call_ms(fn, i=0):
    """The time of one call fn(i) after a first one (CUDA events)."""
    start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
    fn(i)
    torch.cuda.synchronize()
    start.record()
    fn(i)
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop)


def capture(fn, per, copies):
    """`per` back-to-back calls fn(j % copies) captured into a CUDA graph:
    (replay, mode, graph). Falls back to eager launches (mode "eager") if
    capture fails."""
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            with cupy.cuda.ExternalStream(
                    torch.cuda.current_stream().cuda_stream):
                for j in range(per):
                    fn(j % copies)
        return graph.replay, "graph", graph
    except Exception:
        torch.cuda.synchronize()

        def replay():
            for j in range(per):
                fn(j % copies)
        return replay, "eager", None


def replay_ms(replay, per, groups):
    """Sorted ms of one call over `groups` replays (events around each)."""
    start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
    times = []
    for _ in range(groups):
        start.record()
        replay()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / per)
    return sorted(times)


def n_groups(est):
    """Timed groups for a call of `est` ms: GROUPS under 2 ms, else 5 (3
    above 50 ms), so a 0.5 s prefill costs seconds, not minutes."""
    return GROUPS if est < 2 else 5 if est < 50 else 3


def graph_of(fn, copies):
    """fn warmed up and captured for timing: (est ms of one call, calls per
    replay, replay, mode, graph). Short calls (< 2 ms): WARMUP warm-up
    calls, groups of max(8, copies) calls, one replay before timing. Longer
    calls: no warm-up, groups of `copies` calls."""
    est = one_call_ms(fn)
    short = est < 2
    per = max(8, copies) if short else copies
    for w in range(WARMUP if short else 0):
        fn(w % copies)
    torch.cuda.synchronize()
    replay, mode, graph = capture(fn, per, copies)
    if short:
        replay()
    torch.cuda.synchronize()
    return est, per, replay, mode, graph


def time_groups(fn, copies):
    """Median and best ms of one call of fn(i), and the mode, rotating i over
    `copies` input sets. The calls are captured into a CUDA graph (so that
    Python's launch overhead is not measured); each group is one replay
    between two events (graph_of, n_groups). Falls back to eager launches
    (marked) if capture fails."""
    est, per, replay, mode, graph = graph_of(fn, copies)
    times = replay_ms(replay, per, n_groups(est))
    del graph
    return times[len(times) // 2], times[0], mode


class Interleaved:
    """The calls of one case, timed in turn rather than one after the other
    (prefill suites): each entry's graph is captured as time_groups does,
    then every round replays each entry once between its own two events,
    the entries' order rotating from round to round. A clock or thermal
    drift over the case then reaches every entry alike, instead of the
    entries timed last (in run 17 two byte-identical d 256 kernels, timed
    one after the other in one process, read 0.86 and 0.95 ms)."""

    def __init__(self):
        self.entries = []

    def add(self, key, fn, copies, row, finish=None):
        """Times fn(i) under row[key + "_us"] / "_mode" / "_best_us";
        finish() runs after the timing (then the entry's memory may go)."""
        self.entries.append((key, fn, copies, row, finish))

    def run(self):
        runs, kept, long_ms = [], [], 0.0
        for key, fn, copies, row, finish in self.entries:
            try:
                est, per, replay, mode, graph = graph_of(fn, copies)
            except Exception as e:
                row[key + "_error"] = str(e).splitlines()[0][:200]
                continue
            long_ms = max(long_ms, est)
            kept.append((key, fn, copies, row, finish))
            runs.append((replay, per, mode, graph, []))
        self.entries = kept
        groups = n_groups(long_ms)
        start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
        for g in range(groups):
            for j in range(len(runs)):
                replay, per, _, _, times = runs[(g + j) % len(runs)]
                start.record()
                replay()
                stop.record()
                stop.synchronize()
                times.append(start.elapsed_time(stop) / per)
        for (key, _, _, row, finish), (_, _, mode, _, times) in zip(
                self.entries, runs):
            times.sort()
            row[key + "_us"] = 1e3 * times[len(times) // 2]
            row[key + "_best_us"] = 1e3 * times[0]
            row[key + "_mode"] = mode + ", interleaved"
            if finish:
                finish()
        self.entries = []
        torch.cuda.empty_cache()


def n_copies(nbytes):
    return max(1, min(64, math.ceil(4 * L2_BYTES / max(nbytes, 1))))


# ---------------------------------------------------------------------------
# Masks and the reference

def last_keys(case):
    """Per query row, the last visible key (docs/semantics.md §3), or None
    when every key is visible."""
    Sq, Sk = case["Sq"], case["Sk"]
    if not case["causal"] and case["csl"] is None:
        return None
    last = torch.full((Sq,), Sk - 1, dtype=torch.int64, device="cuda")
    if case["csl"] is not None:
        last.clamp_(max=case["csl"])
    if case["causal"]:
        rows = torch.arange(Sq, device="cuda") + (case["prefix"] or 0)
        last = torch.minimum(last, rows)
    return last


def visible(last, r0, r1, Sk):
    """Boolean [r1 - r0, Sk] mask of rows r0..r1 (True = visible)."""
    keys = torch.arange(Sk, device="cuda")
    return keys[None, :] <= last[r0:r1, None]


def reference(q, k, v, last):
    """f32 SDPA (scale 1, GQA, boolean mask from `last`), a few batches and
    query rows at a time to bound memory."""
    B, Hq, Sq, D = q.shape
    Sk = k.shape[2]
    out = torch.empty(q.shape, dtype=torch.float32, device="cuda")
    per_b = max(1, (4 << 30) // (2 * k[0].numel() * 4))
    rows = max(1, min(Sq, (2 << 30) // (min(per_b, B) * Hq * Sk * 4)))
    for b0 in range(0, B, per_b):
        bs = slice(b0, b0 + per_b)
        kf, vf = k[bs].float(), v[bs].float()
        for r0 in range(0, Sq, rows):
            r1 = min(Sq, r0 + rows)
            mask = None if last is None else visible(last, r0, r1, Sk)
            out[bs, :, r0:r1] = F.scaled_dot_product_attention(
                q[bs, :, r0:r1].float(), kf, vf, attn_mask=mask, scale=1.0,
                enable_gqa=True)
    return out


def check_slice(case):
    """(batches, q heads, kv heads) whose outputs are checked: all of them
    for small cases, one KV group of the last batch when the f32 reference
    of the whole would cost more than the kernels."""
    B, Hq, Hkv = case["B"], case["Hq"], case["Hkv"]
    if B * Hq * case["Sq"] * case["Sk"] <= 1 << 31:
        return slice(0, B), slice(0, Hq), slice(0, Hkv)
    R = Hq // Hkv
    return slice(B - 1, B), slice(Hq - R, Hq), slice(Hkv - 1, Hkv)


def rel_err(o, ref):
    return float((o.float() - ref).norm() / ref.norm())


# ---------------------------------------------------------------------------
# rock's kernels

def rock_sets(kern, q, k, v, copies, case):
    """Argument tensors per copy for bundle `kern`, in rock-gen's kernel
    order: Q, K (or its page table), V (or its page table), [current
    lengths], [prefix offsets], [LSE], out. Q, K and V rotate over the
    copies; LSE / out are NaN-filled and shared."""
    fn = kern.b["funcs"]["rock_attention"]
    paged = kern.h("paged") == "1"
    transk = kern.h("transK") == "1"
    B, Hkv, L, D = k.shape
    ps = int(kern.h("page_size", "0"))
    extra = []
    for key in ("current_seq_len", "prefix_offset"):
        vals = kern.h_list(key)
        if vals:
            extra.append(torch.tensor(vals, dtype=torch.int32,
                                      device="cuda"))
    nin = 3 + len(extra)
    if int(kern.h("with_attn_scale", "0")) or \
            int(kern.h("with_attn_bias", "0")):
        raise ValueError("elementwise inputs are not benchmarked")
    outs = [torch.full((n,), float("nan"), dtype=TORCH_DTYPES[t],
                       device="cuda") for t, n in fn["args"][nin:]]
    sets = []
    for c in range(copies):
        qq, kk, vv = (x if c == 0 else x.clone() for x in (q, k, v))
        args, keep = [qq.reshape(-1)], []
        if paged:
            for cache in (kk, vv):
                # head-major [B][Hkv][L][D] cut into pages of ps elements;
                # logical page j goes to pool slot perm[j].
                pages = cache.reshape(-1, ps)
                perm = torch.randperm(pages.shape[0], device="cuda")
                pool = torch.empty_like(pages)
                pool[perm] = pages
                table = pool.data_ptr() + perm.to(torch.int64) * (
                    ps * cache.element_size())
                keep.append(pool)
                table = table.contiguous()
                kern.pool_of[table.data_ptr()] = pool.data_ptr()
                args.append(table)
        else:
            kd = kk.reshape(B * Hkv, L, D)
            if not transk:
                kd = kd.transpose(1, 2).contiguous()
            keep.append(kd)
            args += [kd.reshape(-1), vv.reshape(-1)]
        sets.append({"kernel": args + extra + outs, "keep": keep})
    if "rock_attention_combine" in kern.funcs:
        cargs = kern.b["funcs"]["rock_attention_combine"]["args"]
        final = [torch.full((n,), float("nan"), dtype=TORCH_DTYPES[t],
                            device="cuda") for t, n in cargs[2:]]
        lsep = outs[-2] if len(outs) >= 2 else None
        for st in sets:
            st["combine"] = [outs[-1], lsep, final[0], final[1]]
    return sets


def rock_output(kern, sets):
    if kern.user_split():
        return sets[0]["combine"][2]
    return sets[0]["kernel"][-1]


def relaunch_err(kern, sets, q, ref, sel):
    """The error of one more launch after the timed ones, into a NaN-filled
    output: state a kernel keeps in its scratch between launches (the
    zero_init tile counters of rock.gpu_wgmma_dynamic) must be as the first
    launch found it, else this launch's output differs."""
    rock_output(kern, sets).fill_(float("nan"))
    kern.run(sets, 0)
    torch.cuda.synchronize()
    return rel_err(rock_output(kern, sets).reshape(q.shape)[sel[0], sel[1]],
                   ref)


def run_rock(args, case, variant, q, k, v, ref, sel, copies, row,
             timer=None):
    path = os.path.join(args.bundles, case["bundles"][variant])
    try:
        kern = RockKernel(path)
        row[variant + "_compile_ms"] = float(kern.b["meta"]["compile_ms"])
        sets = rock_sets(kern, q, k, v, copies, case)
        kern.prepare_maps(sets)
        kern.run(sets, 0)
        torch.cuda.synchronize()
        o = rock_output(kern, sets).reshape(q.shape)
        row[variant + "_err"] = rel_err(o[sel[0], sel[1]], ref)

        def after():
            row[variant + "_err_after"] = relaunch_err(kern, sets, q, ref,
                                                       sel)
            sets.clear()
        if timer is not None:
            timer.add(variant, lambda i: kern.run(sets, i), copies, row, after)
            return
        med, best, mode = time_groups(lambda i: kern.run(sets, i), copies)
        row[variant + "_us"], row[variant + "_mode"] = 1e3 * med, mode
        row[variant + "_best_us"] = 1e3 * best
        after()
    except Exception as e:
        row[variant + "_error"] = str(e).splitlines()[0][:200]
    torch.cuda.empty_cache()


# ---------------------------------------------------------------------------
# Peers

def peer_masks(case, last):
    """SDPA mask arguments equal to the case's mask: (label, kwargs). A
    backend that refuses one gets the next: a boolean mask (cuDNN,
    efficient), PyTorch's lower-right causal bias (flash; it dispatches by
    itself, so it comes after the mask the backend was asked for), and last
    no mask ("none", so a timing always exists; its error shows what it
    computed)."""
    if last is None:
        return [("-", {})]
    if case["Sq"] == case["Sk"] and case["prefix"] in (None, 0) and \
            case["csl"] is None:
        return [("causal", {"is_causal": True})]
    masks = [("bool", {"attn_mask": visible(last, 0, case["Sq"],
                                            case["Sk"])})]
    if bool((last == case["Sk"] - case["Sq"] +
             torch.arange(case["Sq"], device="cuda")).all()):
        masks.append(("lower-right", {"attn_mask": causal_lower_right(
            case["Sq"], case["Sk"])}))
    return masks + [("none", {})]


_DECODE_PEERS = (("cudnn", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION"))
_PREFILL_PEERS = _DECODE_PEERS + (("efficient", "EFFICIENT_ATTENTION"),)
PEERS = {"decode": _DECODE_PEERS, "gqa": _DECODE_PEERS, "mtd": _DECODE_PEERS,
         "prefill": _PREFILL_PEERS, "layout": _PREFILL_PEERS,
         "shapes": _DECODE_PEERS}
# Suites whose rows read K/V once per q-1 step (the probe reads as much).
DECODE_SUITES = ("decode", "gqa")
PREFILL_SUITES = ("prefill", "layout", "shapes")


def peer_call(backend, qs, sets, kw):
    """fn(i): SDPA on copy i under `backend` (the backend chosen at each
    call, so that a graph captured later replays the same kernels)."""
    def fn(i):
        with sdpa_kernel(getattr(SDPBackend, backend)):
            F.scaled_dot_product_attention(qs[i], *sets[i], scale=1.0,
                                           enable_gqa=True, **kw)
    return fn


def run_peers(case, q, k, v, last, ref, sel, copies, row, timer=None):
    """Times each SDPA backend of the suite on contiguous KV. A backend that
    refuses enable_gqa for prefill gets K/V expanded to Hq heads (label
    "expanded KV"; prefill's K/V are small next to its Q and out)."""
    qs = [q] + [q.clone() for _ in range(copies - 1)]
    kvs = [(k, v)] + [(k.clone(), v.clone()) for _ in range(copies - 1)]
    tries = [(label, kw, False) for label, kw in peer_masks(case, last)]
    if case["suite"] in PREFILL_SUITES:
        tries += [(label + ", expanded KV", kw, True)
                  for label, kw, _ in tries]
    R = case["Hq"] // case["Hkv"]
    for name, backend in PEERS[case["suite"]]:
        errors = []
        for label, kw, expand in tries:
            try:
                sets = [(x.repeat_interleave(R, 1), y.repeat_interleave(R, 1))
                        for x, y in kvs] if expand else kvs
                with sdpa_kernel(getattr(SDPBackend, backend)):
                    o = F.scaled_dot_product_attention(
                        q, *sets[0], scale=1.0, enable_gqa=True, **kw)
                    row[name + "_err"] = rel_err(o[sel[0], sel[1]], ref)
                    del o
                    fn = peer_call(backend, qs, sets, kw)
                    row[name + "_mask"] = label
                    if timer is not None:
                        timer.add(name, fn, copies, row)
                        break
                    med, _, mode = time_groups(fn, copies)
                row[name + "_us"], row[name + "_mode"] = 1e3 * med, mode
                break
            except Exception as e:  # a backend may refuse a shape or mask
                errors.append(f"{label}: {str(e).splitlines()[0][:160]}")
            finally:
                if timer is None:
                    sets = None
                    torch.cuda.empty_cache()
        else:
            row[name + "_us"] = None
        if errors:
            row[name + "_error"] = "; ".join(errors)


def read_probe(probe, kv_bytes, copies, row):
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
    # Give the probe's buffers back to the driver before rock's variants run:
    # left in PyTorch's cache, the first variant's outputs landed in them and
    # that variant alone read 12 % slower at 16 GiB of K / V (run 13).
    del bufs
    torch.cuda.empty_cache()


def matmul_rate():
    """bf16 matmul TFLOP/s (MATMUL_N^3, torch.matmul, random inputs), timed
    like everything else after ~0.5 s of the same products. Its median is
    the sustained rate of back-to-back products (the best group is ~15 %
    above it on the H200)."""
    n = MATMUL_N
    a = torch.randn(n, n, device="cuda").to(torch.bfloat16)
    b = torch.randn(n, n, device="cuda").to(torch.bfloat16)
    c = torch.empty(n, n, dtype=torch.bfloat16, device="cuda")
    for _ in range(300):  # ~0.5 s: lets the clocks leave idle first
        torch.matmul(a, b, out=c)
    med, best, mode = time_groups(lambda i: torch.matmul(a, b, out=c), 1)
    return {"suite": "matmul", "n": n, "us": 1e3 * med, "best_us": 1e3 * best,
            "mode": mode, "tflops": 2 * n**3 / (med * 1e-3) / 1e12}


# ---------------------------------------------------------------------------
# Cases

def flops(case):
    f = 4 * case["B"] * case["Hq"] * case["Sq"] * case["Sk"] * case["D"]
    return f / 2 if case["causal"] and case["Sq"] == case["Sk"] else f


def kv_bytes(case):
    return 2 * case["B"] * case["Hkv"] * case["Sk"] * case["D"] * 2


def run_case(args, case, probe, results):
    B, Hq, Hkv, Sq, Sk, D = (case[x] for x in
                             ("B", "Hq", "Hkv", "Sq", "Sk", "D"))
    torch.manual_seed(B * 1000003 + Sk * 31 + Sq)
    dt = TORCH_DTYPES[case.get("t", "bf16")]
    q = (torch.randn(B, Hq, Sq, D, device="cuda") * 0.3).to(dt)
    k = (torch.randn(B, Hkv, Sk, D, device="cuda") * 0.3).to(dt)
    v = torch.randn(B, Hkv, Sk, D, device="cuda").to(dt)
    kvb = kv_bytes(case)
    alg_bytes = kvb + 2 * B * Hq * Sq * D * 2
    copies = n_copies(alg_bytes)
    last = last_keys(case)
    sel = check_slice(case)
    ref = reference(q[sel[0], sel[1]], k[sel[0], sel[2]], v[sel[0], sel[2]],
                    last)
    row = {"suite": case["suite"], "name": case["name"], "B": B, "Hq": Hq,
           "Hkv": Hkv, "Sq": Sq, "L": Sk, "D": D, "t": case.get("t", "bf16"),
           "causal": case["causal"],
           "bytes": alg_bytes, "kv_bytes": kvb, "flops": flops(case),
           "copies": copies, "bundles": case["bundles"],
           "checked": "all" if sel[0].stop - sel[0].start == B and
           sel[1].stop - sel[1].start == Hq else "last batch, last KV group"}
    timer = Interleaved() if args.interleave and (
        case["suite"] in PREFILL_SUITES or
        copies * alg_bytes * (len(case["variants"]) + 2) <= INTERLEAVE_BYTES) \
        else None
    run_peers(case, q, k, v, last, ref, sel, copies, row, timer)
    if case["suite"] in DECODE_SUITES and probe is not None:
        read_probe(probe, kvb, copies, row)
    for variant in case["variants"]:
        if variant in case["bundles"]:
            run_rock(args, case, variant, q, k, v, ref, sel, copies, row,
                     timer)
        else:
            row[variant + "_error"] = "no bundle"
    if timer is not None:
        timer.run()
    results.append(row)
    print(json.dumps(row), flush=True)


# ---------------------------------------------------------------------------
# Tables

def fmt_gbs(row, key, nbytes):
    us = row.get(key + "_us")
    if us is None:
        return "-"
    gbs = nbytes / (us * 1e-6) / 1e9
    return f"{us:.1f} ({gbs:.0f}, {100 * gbs * 1e9 / PEAK:.0f}%)"


def errors(row, keys):
    return ", ".join(f"{v}={row[v + '_err']:.1e}" for v in keys
                     if row.get(v + "_err") is not None)


def failures(row, keys):
    return "; ".join(f"{v}: {row[v + '_error']}" for v in keys
                     if row.get(v + "_error") and row.get(v + "_us") is None)


def row_variants(results):
    """rock's variants of `results`, in first-seen order."""
    keys = []
    for r in results:
        for b in r.get("bundles", {}):
            if b not in keys:
                keys.append(b)
    return keys


def decode_table(results):
    rock = row_variants(results)
    keys = tuple(rock) + ("cudnn", "flash")
    lines = ["cells: µs (GB/s over algorithmic bytes, % of 4.8 TB/s)",
             "| R | B | L | KV MiB | probe µs (GB/s) | " +
             " | ".join(f"rock {v}" for v in rock) + " | cuDNN | flash | "
             "% of probe: " + " / ".join(rock) + " / cuDNN | errors |",
             "|" + "---|" * (len(keys) + 7)]
    for r in results:
        if r.get("probe_us"):
            probe_gbs = r["probe_bytes"] / (r["probe_us"] * 1e-6) / 1e9
            probe_eq = r["probe_us"] * r["bytes"] / r["probe_bytes"]
            probe = f"{r['probe_us']:.1f} ({probe_gbs:.0f})"
            pct = " / ".join(f"{100 * probe_eq / r[v + '_us']:.0f}%"
                             if r.get(v + "_us") else "-"
                             for v in tuple(rock) + ("cudnn",))
        else:
            probe, pct = "-", "-"
        lines.append(
            f"| {r['Hq'] // r['Hkv']} | {r['B']} | {r['L'] // 1024}k | "
            f"{r.get('kv_bytes', r['bytes']) / 2**20:.0f} | "
            f"{probe} | " + " | ".join(fmt_gbs(r, v, r["bytes"])
                                       for v in keys) +
            f" | {pct} | {errors(r, keys)} {failures(r, keys)}|")
    return lines


def ratio(r, a, b):
    """r[a] / r[b] of two timings, or None."""
    if r.get(a + "_us") and r.get(b + "_us"):
        return r[a + "_us"] / r[b + "_us"]
    return None


def goal_table(results):
    """The goals of the decode work, one line per decode row: % of 4.8 TB/s
    (dense, paged), paged and default-layout over dense, rock's slowest
    variant over cuDNN; ERR when an output is off (rel. L2 > 1e-2)."""
    lines = ["| suite | R | B | L | KV MiB | dense µs | dense % | p16 % | "
             "p64 % | p16/dense | p64/dense | kmaj/dense | cuDNN µs | "
             "worst rock/cuDNN | check |", "|" + "---|" * 15]
    for r in results:
        if r.get("suite") not in DECODE_SUITES:
            continue
        pct = {}
        for v in ("dense", "p16", "p64"):
            us = r.get(v + "_us")
            pct[v] = f"{100 * r['bytes'] / (us * 1e-6) / PEAK:.0f}" \
                if us else "-"
        rel = {v: ratio(r, v, "dense") for v in ("p16", "p64", "kmaj")}
        rock = [v for v in r.get("bundles", {}) if "-" not in v]
        worst = max((ratio(r, v, "cudnn") or 0) for v in rock) \
            if rock else 0
        bad = [v for v in rock if (r.get(v + "_err") or 1) > 1e-2]
        f = lambda x: f"{x:.3f}" if x else "-"  # noqa: E731
        lines.append(
            f"| {r['suite']} | {r['Hq'] // r['Hkv']} | {r['B']} | "
            f"{r['L'] // 1024}k | {r['kv_bytes'] / 2**20:.0f} | "
            f"{r.get('dense_us', 0):.1f} | {pct['dense']} | {pct['p16']} | "
            f"{pct['p64']} | {f(rel['p16'])} | {f(rel['p64'])} | "
            f"{f(rel['kmaj'])} | {r.get('cudnn_us') or 0:.1f} | {f(worst)} | "
            f"{'ERR ' + ','.join(bad) if bad else 'ok'} |")
    return lines


def fmt_tflops(row, key, ref_tflops, base=None):
    us = row.get(key + "_us")
    if us is None:
        return "-"
    tf = row["flops"] / (us * 1e-6) / 1e12
    pct = f"{100 * row[base + '_us'] / us:.0f}% of dense" \
        if base and row.get(base + "_us") else \
        f"{100 * tf / ref_tflops:.0f}%" if ref_tflops else "-"
    mask = row.get(key + "_mask")
    mask = f", {mask}" if mask not in (None, "-", "causal") else ""
    return f"{us / 1e3:.2f} ms ({tf:.0f}, {pct}{mask})"


def prefill_table(results, mm):
    rate = mm["tflops"] if mm else None
    rock = row_variants(results)
    peers = ("cudnn", "flash", "efficient")
    keys = tuple(rock) + peers
    lines = ["cells: ms (TFLOP/s, % of the matmul rate; other rock "
             "variants: % of rock dense's rate)",
             "| B | S | causal | " + " | ".join(f"rock {v}" for v in rock) +
             " | cuDNN | flash | efficient | errors (checked) |",
             "|" + "---|" * (len(keys) + 4)]
    for r in results:
        cells = [fmt_tflops(r, v, rate, None if v == "dense" else "dense")
                 for v in rock]
        cells += [fmt_tflops(r, p, rate) for p in peers]
        lines.append(f"| {r['B']} | {r['L'] // 1024}k | "
                     f"{'yes' if r['causal'] else 'no'}"
                     f" | " + " | ".join(cells) +
                     f" | {errors(r, keys)} ({r['checked']}) "
                     f"{failures(r, keys)}|")
    return lines


def shapes_table(results, mm):
    """prefill_table for rows of several dtypes and head dims."""
    rate = mm["tflops"] if mm else None
    rock = row_variants(results)
    peers = ("cudnn", "flash")
    keys = tuple(rock) + peers
    lines = ["cells: ms (TFLOP/s, % of the matmul rate; other rock "
             "variants: % of rock dense's rate)",
             "| shape | t | d | causal | " +
             " | ".join(f"rock {v}" for v in rock) +
             " | cuDNN | flash | errors (checked) |",
             "|" + "---|" * (len(keys) + 5)]
    for r in results:
        cells = [fmt_tflops(r, v, rate, None if v == "dense" else "dense")
                 for v in rock]
        cells += [fmt_tflops(r, p, rate) for p in peers]
        lines.append(f"| B{r['B']} Hq{r['Hq']} Hkv{r['Hkv']} S{r['L']} | "
                     f"{r.get('t', 'bf16')} | {r.get('D', 128)} | "
                     f"{'yes' if r['causal'] else 'no'} | " +
                     " | ".join(cells) +
                     f" | {errors(r, keys)} ({r['checked']}) "
                     f"{failures(r, keys)}|")
    return lines


def mtd_table(results):
    keys = ("dense", "cudnn", "flash")
    lines = ["cells: µs (GB/s over the K+V bytes, % of 4.8 TB/s)",
             "| q | B | L | KV MiB | rock | cuDNN | flash | errors | "
             "peer masks |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        masks = ", ".join(f"{p} {r[p + '_mask']}" for p in keys[1:]
                          if r.get(p + "_mask"))
        lines.append(
            f"| {r['Sq']} | {r['B']} | {r['L'] // 1024}k | "
            f"{r['kv_bytes'] / 2**20:.0f} | " +
            " | ".join(fmt_gbs(r, v, r["kv_bytes"]) for v in keys) +
            f" | {errors(r, keys)} {failures(r, keys)}| {masks} |")
    return lines


def ptxas_table(results, ptxas):
    lines = ["| bundle | kernel | registers | shared B | stack B | "
             "spill stores / loads B |", "|---|---|---|---|---|---|"]
    seen = set()
    for r in results:
        for b in r.get("bundles", {}).values():
            if b in seen or b not in ptxas:
                continue
            seen.add(b)
            for k in ptxas[b]:
                if "error" in k:
                    lines.append(f"| {b} | ptxas failed: {k['error']} |||||")
                    continue
                lines.append(f"| {b[:-7]} | {k['kernel']} #{k['object']} | "
                             f"{k.get('regs')} | {k.get('smem')} | "
                             f"{k.get('stack')} | {k.get('spill_st')} / "
                             f"{k.get('spill_ld')} |")
    return lines


def tuned_table(results):
    """Heuristic against tuned (the `+tuned` bundles, perf DB entries) for
    the rows that have a tuned bundle."""
    lines = ["| suite | case | variant | heuristic µs | tuned µs | tuned / "
             "heuristic |", "|---|---|---|---|---|---|"]
    for r in results:
        for v in [b[:-6] for b in r.get("bundles", {}) if
                  b.endswith("+tuned")]:
            h, t = r.get(v + "_us"), r.get(v + "+tuned_us")
            ratio = f"{t / h:.3f}" if h and t else "-"
            lines.append(f"| {r.get('suite', 'decode')} | {r.get('name')} | "
                         f"{v} | {h and f'{h:.1f}' or '-'} | "
                         f"{t and f'{t:.1f}' or '-'} | {ratio} |")
    return lines if len(lines) > 2 else []


def tables(results, ptxas):
    out = []
    mm = next((r for r in results if r.get("suite") == "matmul"), None)
    if mm:
        best = 2 * mm["n"]**3 / (mm["best_us"] * 1e-6) / 1e12
        out.append(f"bf16 matmul {mm['n']}^3: {mm['us']:.0f} µs = "
                   f"{mm['tflops']:.0f} TFLOP/s (median; best group "
                   f"{mm['best_us']:.0f} µs = {best:.0f}; {mm['mode']})")
    for suite, fn in (("decode", decode_table), ("gqa", decode_table),
                      ("layout", lambda rs: prefill_table(rs, mm)),
                      ("prefill", lambda rs: prefill_table(rs, mm)),
                      ("shapes", lambda rs: shapes_table(rs, mm)),
                      ("mtd", mtd_table)):
        rows = [r for r in results if r.get("suite", "decode") == suite]
        if rows:
            out += ["", f"{suite}:"] + fn(rows)
    tuned = tuned_table(results)
    if tuned:
        out += ["", "heuristic and tuned (perf DB):"] + tuned
    rows = [r for r in results
            if r.get("suite") in ("prefill", "shapes", "mtd")]
    if ptxas and rows:
        out += ["", "ptxas -v (-arch: each PTX's .target):"] + \
            ptxas_table(rows, ptxas)
    if any(r.get("suite") in DECODE_SUITES for r in results):
        out += ["", "goals (decode rows):"] + goal_table(results)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", help="directory with cases.json and the "
                    "bundles")
    ap.add_argument("--suites", default="decode",
                    help="comma-separated: decode,gqa,layout,prefill,mtd")
    ap.add_argument("--probe", help="read probe PTX (decode)")
    ap.add_argument("--ptxas", help="ptxas.json from prepare")
    ap.add_argument("--render", help="print the tables of a --json file")
    ap.add_argument("--json")
    ap.add_argument("--no-interleave", dest="interleave",
                    action="store_false",
                    help="time every case's calls one after the other "
                    "(default: in turn, class Interleaved, for the "
                    "prefill suites and the decode cases whose copies "
                    "fit INTERLEAVE_BYTES)")
    args = ap.parse_args()
    ptxas = {}
    if args.ptxas and os.path.exists(args.ptxas):
        with open(args.ptxas) as f:
            ptxas = json.load(f)
    if args.render:
        with open(args.render) as f:
            print(tables(json.load(f), ptxas))
        return 0
    if not args.bundles:
        ap.error("--bundles is required")
    with open(os.path.join(args.bundles, "cases.json")) as f:
        cases = json.load(f)
    suites = args.suites.split(",")
    cases = [c for c in cases if c["suite"] in suites]
    if not cases:
        ap.error(f"no case of {args.suites} in {args.bundles}/cases.json")
    load_gpu_modules()
    probe = None
    if args.probe and any(x in DECODE_SUITES for x in suites):
        probe = cupy.RawModule(path=args.probe).get_function("read_probe")
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__},"
          f" cudnn {torch.backends.cudnn.version()}", flush=True)
    results = []
    if any(x in PREFILL_SUITES for x in suites):
        results.append(matmul_rate())
        print(json.dumps(results[-1]), flush=True)
    for case in cases:
        run_case(args, case, probe, results)
        torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(tables(results, ptxas))


if __name__ == "__main__":
    sys.exit(main())
