"""Peers for rock's CPU benchmarks: unfused attention on BLAS (numpy over
OpenBLAS, torch's CPU matmul) and the SGEMM rate, timed in this process.

Each function returns the best wall time in seconds over `reps` runs after
one warm-up (the machines are shared: the best run is the one least disturbed
by other tenants; rock's kernel_time_min_ms is measured the same way). K/V are contiguous [B, Hkv, L, d]; GQA is handled by viewing the
queries as [B, Hkv, R, Sq, d] so K/V are read once per KV head.
"""
import os
import time

import numpy as np


def _best(fn, reps):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def sgemm_gflops(n=2048, reps=3):
    a = np.random.default_rng(0).random((n, n), dtype=np.float32)
    b = np.random.default_rng(1).random((n, n), dtype=np.float32)
    t = _best(lambda: a @ b, reps)
    return 2.0 * n ** 3 / t / 1e9


def numpy_attention(B, Hq, Hkv, Sq, L, d, causal=False, reps=3, dtype=np.float32):
    rng = np.random.default_rng(0)
    R = Hq // Hkv
    q = rng.random((B, Hkv, R * Sq, d), dtype=np.float32).astype(dtype)
    k = rng.random((B, Hkv, L, d), dtype=np.float32).astype(dtype)
    v = rng.random((B, Hkv, L, d), dtype=np.float32).astype(dtype)
    scale = np.float32(1.0 / np.sqrt(d))
    mask = None
    if causal:
        rows = np.repeat(np.arange(Sq), R)[:, None]
        mask = np.arange(L)[None, :] > rows

    def run():
        s = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
        if mask is not None:
            s = np.where(mask, np.float32(-np.inf), s)
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        return np.matmul(s, v)

    return _best(run, reps)


def torch_attention(B, Hq, Hkv, Sq, L, d, causal=False, reps=3, dtype="f32"):
    """torch's matmul + softmax composite (1.13 has no SDPA; where the
    version has one, scaled_dot_product_attention) at f32 or bf16, on all
    cores (torch otherwise starts with one thread on this VM)."""
    try:
        import torch
    except Exception:
        return None
    torch.set_num_threads(os.cpu_count() or 1)
    torch.manual_seed(0)
    R = Hq // Hkv
    dt = torch.bfloat16 if dtype == "bf16" else torch.float32
    q = torch.rand(B, Hkv, R * Sq, d).to(dt)
    k = torch.rand(B, Hkv, L, d).to(dt)
    v = torch.rand(B, Hkv, L, d).to(dt)
    scale = 1.0 / d ** 0.5
    mask = None
    if causal:
        rows = torch.arange(Sq).repeat_interleave(R)[:, None]
        mask = torch.arange(L)[None, :] > rows
    sdpa = getattr(torch.nn.functional, "scaled_dot_product_attention", None)

    def run():
        with torch.no_grad():
            if sdpa is not None and not causal:
                return sdpa(q, k, v)
            s = torch.matmul(q, k.transpose(-1, -2)) * scale
            if mask is not None:
                s = s.masked_fill(mask, float("-inf"))
            p = torch.softmax(s, dim=-1)
            return torch.matmul(p, v)

    return _best(run, reps)
