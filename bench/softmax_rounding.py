#!/usr/bin/env python3
"""A numpy model of the 16-bit online softmax's rounding (no GPU needed).

It replays the kernel's arithmetic for one head: scores in f32 from bf16 /
f16 Q and K (drawn as bench/gpu/attention_bench.py draws them), the running
maximum in the exp2 domain, P = exp2(x log2 e - m) rounded to V's type for
P.V, the row sum of the unrounded P, O and l in f32, the output rounded to
V's type; and reports the relative error (Frobenius norm) against the f64
answer for the variants that docs/gpu-accel.md compares:

  eager           the maximum moves every tile (the default);
  lazy TAU        it moves only where a tile's exceeds it by more than TAU;
  fixed OFF       one maximum for the whole row, the true one plus OFF;
  fma N DEG       the exp2 of one score in N from the FMA-pipe polynomial of
                  degree DEG (rock.gpu_wgmma_exp2_fma's arithmetic).

Usage: softmax_rounding.py [--d 128] [--t bf16] [--keys-tile 128]
"""
import argparse

import numpy as np

L2E = np.float32(1.44269504)
MAGIC = np.float32(12582912.0)
COEF = {3: [0.0550087206, 0.242210463, 0.693282902],
        4: [0.00958283059, 0.0559063703, 0.240240991, 0.693124175]}


def bf16(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return r.astype(np.uint32).view(np.float32)


def f16(x):
    return np.asarray(x, np.float32).astype(np.float16).astype(np.float32)


def exp2_fma(x, deg):
    """The FMA-pipe exp2, operation for operation in f32."""
    x = np.maximum(x, np.float32(-127.0))
    t = (x + MAGIC).astype(np.float32)
    f = (x - (t - MAGIC)).astype(np.float32)
    q = np.float32(COEF[deg][0])
    for c in COEF[deg][1:]:
        q = (q * f + np.float32(c)).astype(np.float32)
    q = (q * f + np.float32(1.0)).astype(np.float32)
    s = ((t.view(np.int32).astype(np.int64) << 23) + 0x3F800000) & 0xFFFFFFFF
    return (q * s.astype(np.uint32).view(np.float32)).astype(np.float32)


def model(s, v, rnd, tile, lazy=None, fma=None):
    sq, sk = s.shape
    m = np.full((sq, 1), -np.inf, np.float32)
    l = np.zeros((sq, 1), np.float32)
    o = np.zeros((sq, v.shape[1]), np.float32)
    for j in range(0, sk, tile):
        x = s[:, j:j + tile]
        mt = (x.max(1, keepdims=True) * L2E).astype(np.float32)
        mn = np.maximum(m, mt) if lazy is None else \
            np.where(mt > m + np.float32(lazy), mt, m)
        c = np.exp2(m - mn).astype(np.float32)
        a = (x * L2E - mn).astype(np.float32)
        p = np.exp2(a).astype(np.float32)
        if fma is not None:
            pick = np.arange(a.shape[1]) % fma[0] == fma[0] - 1
            p[:, pick] = exp2_fma(a[:, pick], fma[1])
        l = l * c + p.sum(1, keepdims=True, dtype=np.float32)
        o = o * c + rnd(p) @ v[j:j + tile]
        m = mn
    return rnd(o / l)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--t", choices=("bf16", "f16"), default="bf16")
    ap.add_argument("--keys-tile", type=int, default=128)
    ap.add_argument("--sk", type=int, default=4096)
    ap.add_argument("--rows", type=int, default=256)
    args = ap.parse_args()
    rnd = bf16 if args.t == "bf16" else f16
    rng = np.random.default_rng(1)
    q = rnd(rng.standard_normal((args.rows, args.d)) * 0.3)
    k = rnd(rng.standard_normal((args.sk, args.d)) * 0.3)
    v = rnd(rng.standard_normal((args.sk, args.d)))
    s64 = q.astype(np.float64) @ k.astype(np.float64).T
    p64 = np.exp(s64 - s64.max(1, keepdims=True))
    ref = (p64 @ v) / p64.sum(1, keepdims=True)
    s = (q @ k.T).astype(np.float32)

    def err(o):
        return np.linalg.norm(o - ref) / np.linalg.norm(ref)

    tile = args.keys_tile
    print(f"{args.t} d {args.d}, {args.rows} rows x {args.sk} keys, "
          f"{tile}-key tiles")
    print(f"eager            {err(model(s, v, rnd, tile)):.4e}")
    for tau in (8, 4, 2):
        print(f"lazy {tau}           "
              f"{err(model(s, v, rnd, tile, lazy=tau)):.4e}")
    gm = (s.max(1, keepdims=True) * L2E).astype(np.float32)
    for off in (0.0, -0.3):
        p = np.exp2((s * L2E - (gm + np.float32(off))).astype(np.float32))
        o = rnd((rnd(p) @ v) / p.sum(1, keepdims=True, dtype=np.float32))
        print(f"fixed {off:+.1f}       {err(o):.4e}")
    for n in (4, 2, 1):
        for deg in (3, 4):
            print(f"fma 1/{n} degree {deg} "
                  f"{err(model(s, v, rnd, tile, fma=(n, deg))):.4e}")
    x = np.array([-np.inf, -200, -127, 0, 0.25, 8, np.nan], np.float32)
    print("exp2_fma(", x.tolist(), ") =", exp2_fma(x, 3).tolist())


if __name__ == "__main__":
    main()
