#!/usr/bin/env python3
"""Writes the PTX text of every gpu.binary in a module printed after
rock-gpu-pipeline to OUTDIR/<binary name>.ptx, for ptxas in tests.
Usage: gpu_ptx.py IN.mlir OUTDIR. (Launching the kernels is rock-run-gpu's
job; this only unescapes the assembly strings.)"""
import os
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    found = re.findall(r'gpu\.binary @(\w+)\s+\[.*?assembly = "((?:[^"\\]|\\.)*)"', text)
    if not found:
        sys.exit("gpu_ptx.py: no gpu.binary with PTX in " + sys.argv[1])
    for name, body in found:
        ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda x: chr(int(x.group(1), 16)), body)
        ptx = ptx.replace('\\"', '"').replace('\\\\', '\\')
        with open(os.path.join(out, name + '.ptx'), 'w') as f:
            f.write(ptx)


main()
