#!/usr/bin/env python3
"""Runs rock-accel-gemm's PTX (scripts/accel_gemm_make.sh: DIR/gemms.txt lists
file arch elt layout M N K BM BN threads mode; A [M][K], B [N][K] (nk) or
[K][N] (kn), C [M][N], a grid of (N/BN, M/BM) workgroups) on a CUDA GPU and
compares C with an f64 (f16 / bf16: max error <= 1e-5 of max|C|) or exact
integer (i8, exact in f64) reference (torch on the GPU in f64: not the
kernel's path). Kernels of mode `time` are also timed with CUDA events (median of 20
launches after 3 warm-ups) against torch.matmul of the same operands and
type in the same run. Usage: accel_gemm_check.py DIR (needs torch and cupy);
exit 1 on a mismatch."""
import os, sys
import numpy as np
import torch, cupy
ok = True
torch.manual_seed(1)


def median_ms(fn, n=20):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    return sorted(ts)[n // 2]


for line in open(os.path.join(sys.argv[1], 'gemms.txt')):
    f, arch, elt, lay, M, N, K, bm, bn, threads, mode = line.split()
    M, N, K, bm, bn, threads = map(int, (M, N, K, bm, bn, threads))
    dt = {'f16': torch.float16, 'bf16': torch.bfloat16, 'i8': torch.int8}[elt]
    bshape = (N, K) if lay == 'nk' else (K, N)
    if elt == 'i8':
        a = torch.randint(-128, 128, (M, K), dtype=torch.int8, device='cuda')
        b = torch.randint(-128, 128, bshape, dtype=torch.int8, device='cuda')
        c = torch.zeros(M, N, dtype=torch.int32, device='cuda')
        # f64 is exact here (|C| <= 2^14 K < 2^53) and has a CUDA matmul.
        ref = a.double() @ (b.double().T if lay == 'nk' else b.double())
    else:
        a = torch.randn(M, K, device='cuda').to(dt)
        b = torch.randn(bshape, device='cuda').to(dt)
        c = torch.zeros(M, N, dtype=torch.float32, device='cuda')
        ref = a.double() @ (b.double().T if lay == 'nk' else b.double())
    k = cupy.RawModule(path=os.path.join(sys.argv[1], f)).get_function('gemm_kernel')
    grid, block = (N // bn, M // bm, 1), (threads, 1, 1)
    args = (np.uint64(a.data_ptr()), np.uint64(b.data_ptr()), np.uint64(c.data_ptr()))
    launch = lambda: k(grid, block, args)
    launch()
    torch.cuda.synchronize()
    got = c.double()
    err = (got - ref).abs().max().item()
    scale = ref.abs().max().item()
    tol = 0.0 if elt == 'i8' else 1e-5 * scale
    good = err <= tol
    ok &= good
    print('%-6s %-4s %s %dx%dx%d (blocks %dx%d, %d threads): max|C-ref| %.3g (max|ref| %.3g, tol %.3g) %s'
          % (arch, elt, lay, M, N, K, bm, bn, threads, err, scale, tol, 'PASS' if good else 'FAIL'))
    if not good:
        bad = ((got - ref).abs() > tol).nonzero()[:8].tolist()
        print('   first wrong (row, col):', bad)
    if mode == 'time':
        flops = 2.0 * M * N * K
        bt = b.T if lay == 'nk' else b
        ms = median_ms(launch)
        tms = median_ms(lambda: torch.matmul(a, bt))
        print('   time: rock-accel-gemm %.3f ms = %.1f TFLOP/s; torch.matmul (%s, same run) %.3f ms = %.1f TFLOP/s'
              % (ms, flops / ms / 1e9, elt, tms, flops / tms / 1e9))
sys.exit(0 if ok else 1)
