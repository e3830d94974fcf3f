#!/usr/bin/env python3
"""Runs a directory of rocMLIR lit test files against rock, unchanged but for
the tool names, and counts what passes.

    scripts/run-rocmlir-lit.py DIR [--build build] [--arch gfx942] [-v]

Fetches nothing: DIR holds copies of rocMLIR's test files (e.g. its
mlir/test/Dialect/Rock and mlir/test/rocmlir-gen attention tests). For each
file every RUN line is run in a shell with `rocmlir-gen` read as `rock-gen`,
`rocmlir-opt` as `rock-opt`, `%s` the file, `%arch` --arch, `%t` a scratch
path, and rock's and LLVM's tools first on PATH. What cannot be the same is
counted apart, not as a failure:
  - RUN lines that pipe into rocmlir-driver, xmir-runner or mlir-cpu-runner
    (rocMLIR's own pipelines): "driver";
  - RUN lines whose rock-opt runs a rocMLIR pass rock has not (an option
    starting with -rock- that rock-opt does not know): "pass"; for those
    the script still checks that the file's input parses and verifies
    ("input ok").
Files run with -verify-diagnostics are checked case by case: a case is a
`// -----` chunk (with -split-input-file) or one top-level func.func with the
comments above it; only cases holding rock.attention or
rock.gridwise_attention_accel run (the others are rocMLIR ops rock has not).
Prints one line per file and the totals; -v shows the first lines of each
failure. Exit status 0 when nothing that runs fails.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ATTENTION = re.compile(r"rock\.(attention|gridwise_attention_accel)\b")
DRIVER = re.compile(r"\b(rocmlir-driver|xmir-runner|mlir-cpu-runner)\b")


def run_lines(text):
    """The RUN commands of a lit file, continuation lines joined."""
    cmds, cur = [], None
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        cur = part if cur is None else cur + " " + part
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        cmds.append(cur.strip())
        cur = None
    return cmds


def substitute(cmd, path, arch, tmp):
    cmd = re.sub(r"\brocmlir-gen\b", "rock-gen", cmd)
    cmd = re.sub(r"\brocmlir-opt\b", "rock-opt", cmd)
    cmd = cmd.replace("%arch", arch).replace("%t", tmp).replace("%s", path)
    return cmd.replace("%%", "%")


def known_passes(rock_opt):
    out = subprocess.run([rock_opt, "--help"], capture_output=True, text=True)
    return set(re.findall(r"^\s+(--?rock-[\w-]+)", out.stdout, re.M))


def unknown_rock_pass(cmd, passes):
    for opt in re.findall(r"(?<![\w-])(--?rock-[\w-]+)", cmd):
        if "--" + opt.lstrip("-") not in passes:
            return opt
    return None


def shell(cmd, env, cwd):
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], env=env, cwd=cwd,
                       capture_output=True, text=True)
    return p.returncode == 0, (p.stdout + p.stderr)


def cases(text, split):
    """The -verify-diagnostics cases of a file, with its top-level aliases."""
    if split:
        return [c for c in re.split(r"^// -----.*$", text, flags=re.M)]
    aliases = "".join(l + "\n" for l in text.splitlines()
                      if re.match(r"^#[\w$.-]+\s*=", l))
    lines, chunks, cur, depth = text.splitlines(), [], [], 0
    for line in lines:
        if depth == 0 and re.match(r"^#[\w$.-]+\s*=", line):
            continue
        cur.append(line)
        depth += line.count("{") - line.count("}")
        if depth == 0 and re.match(r"^}\s*$", line):
            chunks.append("\n".join(cur) + "\n")
            cur = []
    return [aliases + c for c in chunks]


def check_file(path, args, env, passes):
    text = open(path).read()
    res = {"pass": 0, "fail": 0, "driver": 0, "rockpass": 0, "input": None,
           "skipped": 0, "notes": []}
    tmpdir = tempfile.mkdtemp(prefix="rocmlir-lit-")
    for i, raw in enumerate(run_lines(text)):
        tmp = os.path.join(tmpdir, "t%d" % i)
        if DRIVER.search(raw):
            res["driver"] += 1
            continue
        cmd = substitute(raw, path, args.arch, tmp)
        missing = unknown_rock_pass(cmd, passes)
        if missing:
            res["rockpass"] += 1
            ok, out = shell("rock-opt %s %s > /dev/null" % (
                "-split-input-file" if "split-input-file" in raw else "",
                path), env, tmpdir)
            res["input"] = ok if res["input"] in (None, True) else False
            res["notes"].append("RUN %d: %s is a rocMLIR pass" % (i + 1,
                                                                  missing))
            continue
        if "verify-diagnostics" in raw:
            split = "split-input-file" in raw
            for k, c in enumerate(cases(text, split)):
                if not ATTENTION.search(c):
                    res["skipped"] += 1
                    continue
                case = os.path.join(tmpdir, "case%d_%d.mlir" % (i, k))
                open(case, "w").write(c)
                ccmd = substitute(raw.replace("-split-input-file", ""), case,
                                  args.arch, tmp)
                ok, out = shell(ccmd, env, tmpdir)
                res["pass" if ok else "fail"] += 1
                if not ok:
                    res["notes"].append("RUN %d case %d: %s" % (
                        i + 1, k + 1, out.strip().splitlines()[:3]))
            continue
        ok, out = shell(cmd, env, tmpdir)
        res["pass" if ok else "fail"] += 1
        if not ok:
            lines = [l for l in out.splitlines() if "error" in l][:2]
            res["notes"].append("RUN %d: %s" % (i + 1, lines))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--build", default="build")
    ap.add_argument("--arch", default="gfx942")
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    bindir = os.path.abspath(os.path.join(args.build, "bin"))
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + args.llvm_bin + os.pathsep + env["PATH"]
    passes = known_passes(os.path.join(bindir, "rock-opt"))
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(args.dir)
                   for f in fs if f.endswith(".mlir"))
    tot = {"pass": 0, "fail": 0, "driver": 0, "rockpass": 0, "skipped": 0}
    for f in files:
        r = check_file(os.path.abspath(f), args, env, passes)
        for k in tot:
            tot[k] += r[k]
        extra = []
        if r["driver"]:
            extra.append("%d rocmlir-driver" % r["driver"])
        if r["rockpass"]:
            extra.append("%d rocMLIR pass, input %s" % (
                r["rockpass"], "parses and verifies" if r["input"] else
                "FAILS to parse or verify"))
        if r["skipped"]:
            extra.append("%d non-attention cases" % r["skipped"])
        print("%s: %d/%d passed%s" % (
            os.path.relpath(f, args.dir), r["pass"], r["pass"] + r["fail"],
            " (" + ", ".join(extra) + ")" if extra else ""))
        if args.v:
            for n in r["notes"]:
                print("    " + n)
    print("total: %d/%d passed (%d rocmlir-driver, %d rocMLIR-pass RUN lines "
          "not applicable, %d non-attention cases skipped)" % (
              tot["pass"], tot["pass"] + tot["fail"], tot["driver"],
              tot["rockpass"], tot["skipped"]))
    return 1 if tot["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
