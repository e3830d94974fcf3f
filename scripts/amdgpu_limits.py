#!/usr/bin/env python3
"""Checks the resource use an AMD code object records in its metadata against
the hardware's per-kernel limits. Reads `llvm-readelf --notes X.hsaco` on
stdin; prints one line per kernel:
  NAME: vgpr V/VMAX agpr A/AMAX sgpr S/SMAX lds L/LMAX scratch P spills VS/SS wave W: ok
and exits 1 if any count is above its limit (the line then ends in
`over: FIELD...`) or if no kernel is found.

Limits (per wave for registers, per workgroup for LDS): gfx908 256 VGPRs +
256 AGPRs; gfx90a / gfx94x / gfx950 512 unified VGPRs (AGPRs included);
gfx10+ 256 VGPRs, no AGPRs; SGPRs 108 on gfx9 (102 addressable + VCC,
FLAT_SCRATCH, XNACK_MASK), 106 from gfx10; LDS 64 KiB, 160 KiB on gfx950."""
import re
import sys


def limits(chip):
    m = re.match(r'gfx(\d+?)([0-9a-f]{2})$', chip)
    major = int(m.group(1)) if m else 0
    lds = 163840 if chip == 'gfx950' else 65536
    if chip == 'gfx908':
        return dict(vgpr=256, agpr=256, sgpr=108, lds=lds)
    if major == 9:
        return dict(vgpr=512, agpr=256, sgpr=108, lds=lds)
    return dict(vgpr=256, agpr=0, sgpr=106, lds=lds)


def main():
    text = sys.stdin.read()
    t = re.search(r'amdhsa\.target:\s+\'?amdgcn-amd-amdhsa--(gfx[0-9a-f]+)', text)
    if not t:
        print('amdgpu_limits.py: no amdhsa.target in the notes', file=sys.stderr)
        return 1
    lim = limits(t.group(1))
    kernels = re.split(r'\n  - \.', text.split('amdhsa.kernels:', 1)[-1])
    bad, n = False, 0
    for k in kernels:
        k = '.' + k
        name = re.search(r'\.name:\s+(\S+)', k)
        if not name:
            continue
        n += 1

        def f(key):
            m = re.search(r'\.' + key + r':\s+(\d+)', k)
            return int(m.group(1)) if m else 0
        use = dict(vgpr=f('vgpr_count'), agpr=f('agpr_count'),
                   sgpr=f('sgpr_count'), lds=f('group_segment_fixed_size'))
        over = [key for key in use if use[key] > lim[key]]
        bad = bad or bool(over)
        print('%s: vgpr %d/%d agpr %d/%d sgpr %d/%d lds %d/%d scratch %d '
              'spills %d/%d wave %d: %s' % (
                  name.group(1), use['vgpr'], lim['vgpr'], use['agpr'],
                  lim['agpr'], use['sgpr'], lim['sgpr'], use['lds'],
                  lim['lds'], f('private_segment_fixed_size'),
                  f('vgpr_spill_count'), f('sgpr_spill_count'),
                  f('wavefront_size'),
                  'over: ' + ' '.join(over) if over else 'ok'))
    if n == 0:
        print('amdgpu_limits.py: no kernel in the notes', file=sys.stderr)
        return 1
    return 1 if bad else 0


sys.exit(main())
