#!/usr/bin/env python3
"""Expand a rocMLIR-schema e2e TOML into rocMLIR-style lit files.

    expand-toml.py -i <toml> -d <outdir> [-s] [--raw] [--list]

Writes `<suite>_<t>.mlir` per suite test (with -s: `<suite>_<t>_<o>.mlir` per
combination), each starting with the "automatically generated" header and
holding `// RUN:` (excluded combinations: `// FIXME:`) and
`// CHECK_<suite>_<t>_<o>: [1 1 1]` lines, exactly as rocMLIR's generator
(e2e-configs/README.md).  rocMLIR TOMLs are rewritten for rock
(prefix rocmlir-gen -> rock-gen, execution pipeline -> `| rock-run |`, 7.4)
unless --raw is given.  --list prints the commands the lit format would run.
The expansion code is shared with the lit format (test/e2e/toml_expand.py).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "e2e"))
import toml_expand  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("-i", "--input", required=True, help="TOML file")
    ap.add_argument("-d", "--directory", help="output directory "
                    "(required unless --list)")
    ap.add_argument("-s", "--split", action="store_true",
                    help="one file per combination")
    ap.add_argument("--raw", action="store_true",
                    help="no rocMLIR->rock rewrite (byte-compatible with "
                    "rocMLIR's generator)")
    ap.add_argument("--list", action="store_true",
                    help="print the executed command of every combination")
    a = ap.parse_args(argv)
    try:
        spec = toml_expand.load(a.input)
        if a.list:
            for st in spec.suite_tests():
                for c in st.combos:
                    tag = "EXCLUDED " if c.excluded else ""
                    print(f"{st.suite}/{st.t}/{c.o}: {tag}"
                          f"{toml_expand.exec_command(spec, c)}")
            return 0
        if not a.directory:
            ap.error("-d is required")
        toml_expand.generate(spec, a.directory, split=a.split,
                             compat=not a.raw)
    except (toml_expand.TomlError, OSError) as e:
        print(f"expand-toml: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
