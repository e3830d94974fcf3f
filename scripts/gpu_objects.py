#!/usr/bin/env python3
"""Writes the objects of every gpu.binary in an MLIR module to files:
OUTDIR/<binary>.<ext>, ext = ptx (assembly), cubin / hsaco (bin, by target),
bc (offload) or fatbin; a name seen again (split-input-file output) gets
_1, _2, ... before the extension. Usage: gpu_objects.py IN.mlir OUTDIR. Prints one line
per file written; exits 1 if the module holds no gpu.binary."""
import os
import re
import sys

OBJ = re.compile(r'#gpu\.object<#(\w+)\.target<[^>]*>,\s*(?:properties = \{[^}]*\},\s*)?'
                 r'(?:kernels = #gpu\.kernel_table<.*?>,\s*)?(assembly|bin|offload|fatbin) = "')


def mlir_string(text, i):
    """Decodes the MLIR string literal starting at text[i] (after the quote);
    returns (bytes, index after the closing quote)."""
    out = bytearray()
    while True:
        c = text[i]
        if c == '"':
            return bytes(out), i + 1
        if c == '\\':
            n = text[i + 1]
            if n in '"\\':
                out.append(ord(n))
                i += 2
            elif n == 'n':
                out.append(10)
                i += 2
            elif n == 't':
                out.append(9)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out.extend(c.encode())
            i += 1


def main():
    text = open(sys.argv[1]).read()
    outdir = sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    n = 0
    seen = {}
    for b in re.finditer(r'gpu\.binary @(\w+)', text):
        m = OBJ.search(text, b.end())
        if not m:
            continue
        data, _ = mlir_string(text, m.end())
        vendor, fmt = m.group(1), m.group(2)
        ext = {'assembly': 'ptx' if vendor == 'nvvm' else 's',
               'bin': 'cubin' if vendor == 'nvvm' else 'hsaco',
               'offload': 'bc', 'fatbin': 'fatbin'}[fmt]
        name = b.group(1)
        k = seen.get(name, 0)
        seen[name] = k + 1
        path = os.path.join(outdir, name + ('_%d' % k if k else '') + '.' + ext)
        with open(path, 'wb') as f:
            f.write(data)
        print(path)
        n += 1
    if n == 0:
        print('gpu_objects.py: no gpu.binary in ' + sys.argv[1], file=sys.stderr)
        sys.exit(1)


main()
