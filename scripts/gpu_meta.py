#!/usr/bin/env python3
"""Extracts from a module after rock-gpu-pipeline what a launcher needs: the
host functions' arguments, their gpu.launch_func ops (kernel, grid, block,
operands as host arguments or scratch allocations) and the PTX of each
gpu.binary. Usage: gpu_meta.py IN.mlir OUTDIR (writes meta.json, *.ptx)."""
import json, os, re, sys

def main():
    text = open(sys.argv[1]).read()
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    binaries = {}
    for m in re.finditer(r'gpu\.binary @(\w+)\s+\[(.*?)assembly = "((?:[^"\\]|\\.)*)"', text):
        ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda x: chr(int(x.group(1), 16)), m.group(3))
        ptx = ptx.replace('\\"', '"').replace('\\\\', '\\')
        fn = m.group(1) + '.ptx'
        open(os.path.join(out, fn), 'w').write(ptx)
        binaries[m.group(1)] = fn
    funcs = []
    for fm in re.finditer(r'func\.func @(\w+)\((.*?)\)(?: attributes \{[^}]*\})? \{\n(.*?)\n  \}', text, re.S):
        name, sig, body = fm.groups()
        args = []
        for a in re.finditer(r'%(\w+): memref<([0-9x]+)x(\w+)>', sig):
            args.append({'name': a.group(1), 'shape': [int(v) for v in a.group(2).split('x')], 'dtype': a.group(3)})
        consts = {c.group(1): int(c.group(2)) for c in re.finditer(r'%(\w+) = arith\.constant (-?\d+) : index', body)}
        allocs = {}
        for a in re.finditer(r'%(\w+) = memref\.alloc\(\)(?: \{[^}]*\})? : memref<([0-9x]+)x(\w+)>', body):
            allocs[a.group(1)] = {'shape': [int(v) for v in a.group(2).split('x')], 'dtype': a.group(3)}
        launches = []
        for l in re.finditer(r'gpu\.launch_func\s+@(\w+)::@(\w+) blocks in \(%(\w+), %(\w+), %(\w+)\) threads in \(%(\w+), %(\w+), %(\w+)\)\s+args\((.*?)\)\n', body):
            ops = [o.split(':')[0].strip().lstrip('%') for o in re.split(r',\s*(?=%)', l.group(9))]
            launches.append({'module': l.group(1), 'kernel': l.group(2), 'ptx': binaries[l.group(1)],
                             'grid': [consts[l.group(i)] for i in (3, 4, 5)],
                             'block': [consts[l.group(i)] for i in (6, 7, 8)],
                             'operands': ops})
        funcs.append({'name': name, 'args': args, 'allocs': allocs, 'launches': launches})
    json.dump({'funcs': funcs}, open(os.path.join(out, 'meta.json'), 'w'), indent=1)

main()
