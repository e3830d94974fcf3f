#!/usr/bin/env python3
"""Runs the kernels of cases made by gpu_meta.py on a CUDA GPU (driver API
through ctypes, buffers from PyTorch) and compares with an f64 reference.
Each case dir holds meta.json, the PTX and case.json (the rock-gen problem:
t, g, hq, hkv, sq, sk, dqk, dv, causal, transK, split_kv, return_lse).
Usage: gpu_check.py CASEDIR... ; prints one line per case, exit 1 on a
mismatch. A debugging aid: the repository's runner is rock-run-gpu."""
import ctypes, json, os, sys
import torch

cu = ctypes.CDLL('libcuda.so.1')
def ck(r, what):
    if r != 0:
        raise RuntimeError('%s failed: %d' % (what, r))

DT = {'f32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16,
      'i8': torch.int8, 'i32': torch.int32}

def load(ptx_path, name, cache={}):
    key = (ptx_path, name)
    if key not in cache:
        mod = ctypes.c_void_p()
        data = open(ptx_path, 'rb').read() + b'\0'
        ck(cu.cuModuleLoadData(ctypes.byref(mod), data), 'cuModuleLoadData ' + ptx_path)
        fn = ctypes.c_void_p()
        ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), 'cuModuleGetFunction')
        cache[key] = fn
    return cache[key]

def run_func(d, f, bufs):
    allocs = {k: torch.zeros(int(torch.tensor(v['shape']).prod()), dtype=DT[v['dtype']], device='cuda')
              for k, v in f['allocs'].items()}
    env = dict(bufs); env.update(allocs)
    for l in f['launches']:
        fn = load(os.path.join(d, l['ptx']), l['kernel'])
        ptrs = [ctypes.c_uint64(env[o].data_ptr()) for o in l['operands']]
        arr = (ctypes.c_void_p * len(ptrs))(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in ptrs])
        g, b = l['grid'], l['block']
        ck(cu.cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], 0, None, arr, None), 'cuLaunchKernel')
    torch.cuda.synchronize()

def reference(c, q, k, v):
    B = c['g']; hq, hkv = c['hq'], c['hkv']; R = hq // hkv
    sq, sk, dqk, dv = c['sq'], c['sk'], c['dqk'], c['dv']
    Q = q.double().reshape(B * hq, sq, dqk)
    K = k.double().reshape(B * hkv, sk, dqk) if c.get('transK') else \
        k.double().reshape(B * hkv, dqk, sk).transpose(1, 2)
    V = v.double().reshape(B * hkv, sk, dv)
    Kq = K.repeat_interleave(R, 0); Vq = V.repeat_interleave(R, 0)
    s = Q @ Kq.transpose(1, 2)
    if c.get('causal'):
        i = torch.arange(sq)[:, None]; j = torch.arange(sk)[None, :]
        s = s.masked_fill(j > i, float('-inf'))
    m = s.amax(-1, keepdim=True)
    p = torch.exp(s - m)
    l = p.sum(-1, keepdim=True)
    o = (p @ Vq) / l
    lse = (m + torch.log(l)).squeeze(-1)
    return o, lse

def main():
    torch.cuda.init(); torch.zeros(1, device='cuda')
    bad = 0
    for d in sys.argv[1:]:
        meta = json.load(open(os.path.join(d, 'meta.json')))
        c = json.load(open(os.path.join(d, 'case.json')))
        gen = torch.Generator().manual_seed(1)
        f0 = meta['funcs'][0]
        bufs = {}
        host = []
        for i, a in enumerate(f0['args']):
            n = a['shape'][0]
            if i < 3:
                x = torch.randint(-3, 4, (n,), generator=gen).float() * (0.25 if a['dtype'] != 'i8' else 1)
                x = x.to(DT[a['dtype']])
            else:
                x = torch.full((n,), float('nan')).to(DT[a['dtype']]) if a['dtype'] != 'i8' else torch.zeros(n, dtype=torch.int8)
            host.append(x)
            bufs[a['name']] = x.cuda()
        run_func(d, f0, bufs)
        # rock_attention(q, k, v, [lse], out); rock_attention_combine(po, pl, o, [l])
        outs = [bufs[a['name']] for a in f0['args'][3:]]
        o_dev, lse_dev = outs[-1], (outs[0] if len(outs) > 1 else None)
        if len(meta['funcs']) > 1:  # user split: combine function
            f1 = meta['funcs'][1]
            cb = {f1['args'][0]['name']: o_dev, f1['args'][1]['name']: lse_dev}
            for a in f1['args'][2:]:
                cb[a['name']] = torch.full((a['shape'][0],), float('nan'), dtype=DT[a['dtype']], device='cuda')
            run_func(d, f1, cb)
            o_dev = cb[f1['args'][2]['name']]
            lse_dev = cb[f1['args'][3]['name']] if len(f1['args']) > 3 else None
        if c.get('time'):
            kv = (host[1].numel() * host[1].element_size() + host[2].numel() * host[2].element_size())
            for _ in range(3):
                run_func(d, f0, bufs)
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            ts = []
            for _ in range(10):
                e0.record(); run_func(d, f0, bufs); e1.record(); torch.cuda.synchronize()
                ts.append(e0.elapsed_time(e1) * 1e3)
            ts.sort()
            print('TIME %s: median %.1f us, min %.1f us, %.2f TB/s over K+V (%.0f MiB)' % (
                os.path.basename(d), ts[5], ts[0], kv / ts[5] / 1e6, kv / 2**20), flush=True)
            if c.get('time_only'):
                continue
        o_ref, lse_ref = reference(c, host[0], host[1], host[2])
        o = o_dev.double().cpu().reshape(o_ref.shape)
        err = (o - o_ref).abs().max().item()
        tol = {'f32': 1e-4, 'f16': 2e-2, 'bf16': 6e-2, 'i8': 6e-2}[c['t']]
        msg = '%s: max|O-ref| = %.3g' % (os.path.basename(d), err)
        ok = err <= tol
        if c.get('return_lse'):
            le = (lse_dev.double().cpu().reshape(lse_ref.shape) - lse_ref).abs().max().item()
            msg += ', max|LSE-ref| = %.3g' % le
            ok = ok and le <= 1e-3 * max(1, lse_ref.abs().max().item())
        print(('PASS ' if ok else 'FAIL ') + msg, flush=True)
        bad += not ok
    sys.exit(1 if bad else 0)

main()
