#!/usr/bin/env python3
"""Runs rock-accel-gemm's PTX (scripts/accel_gemm_make.sh: gemm_<elt>_<nk|kn>.ptx,
A 64x128, B 64x128 [n][k] or 128x64 [k][n], C 64x64, one workgroup of 128
threads) on a CUDA GPU and compares C with an f64 (f16 / bf16: max error
<= 1e-5 of max|C|) or exact integer (i8) reference computed on the host.
Usage: accel_gemm_check.py DIR (needs torch and cupy); exit 1 on a mismatch."""
import glob, os, sys
import numpy as np
import torch, cupy
M, N, K = 64, 64, 128
ok = True
torch.manual_seed(1)
for path in sorted(glob.glob(os.path.join(sys.argv[1], 'gemm_*.ptx'))):
    elt, lay = os.path.basename(path)[5:-4].split('_')
    dt = {'f16': torch.float16, 'bf16': torch.bfloat16, 'i8': torch.int8}[elt]
    if elt == 'i8':
        a = torch.randint(-128, 128, (M, K), dtype=torch.int8)
        b = torch.randint(-128, 128, (N, K) if lay == 'nk' else (K, N), dtype=torch.int8)
        c = torch.zeros(M, N, dtype=torch.int32)
    else:
        a = torch.randn(M, K).to(dt)
        b = torch.randn((N, K) if lay == 'nk' else (K, N)).to(dt)
        c = torch.zeros(M, N, dtype=torch.float32)
    ref = a.double() @ (b.double().T if lay == 'nk' else b.double())
    da, db, dc = a.cuda(), b.cuda(), c.cuda()
    mod = cupy.RawModule(path=path)
    k = mod.get_function('gemm_kernel')
    k((1, 1, 1), (128, 1, 1), (np.uint64(da.data_ptr()), np.uint64(db.data_ptr()), np.uint64(dc.data_ptr())))
    cupy.cuda.Device().synchronize()
    got = dc.cpu().double()
    err = (got - ref).abs().max().item()
    scale = ref.abs().max().item()
    tol = 0.0 if elt == 'i8' else 1e-5 * scale
    good = err <= tol
    ok &= good
    print('%-5s %s: max|C-ref| %.3g (max|ref| %.3g, tol %.3g) %s' % (elt, lay, err, scale, tol, 'PASS' if good else 'FAIL'))
    if not good:
        bad = ((got - ref).abs() > tol).nonzero()[:8].tolist()
        print('   first wrong (row, col):', bad)
sys.exit(0 if ok else 1)
