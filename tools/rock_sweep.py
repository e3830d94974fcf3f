#!/usr/bin/env python3
"""rock-sweep: randomized attention sweeps through rock-gen | rock-run.

Modelled on rocMLIR's attentionSweeps.py (docs/user-guide.md §4).

Sampling (8.1).  One PRNG: Python's random.Random(seed) (Mersenne Twister),
`coin` = `rng.random() < 0.5`, `randint`/`choice` as in the random module.
Per sample, in this order:
  1. g = randint(1, 256); maxSeq = max(1, min(16384, 4096 // g))
  2. use_kvcache = coin; seq_k = randint(1, maxSeq);
     seq_q = 1 if use_kvcache else randint(1, maxSeq);
     use_kvcache => current_seq_len = [randint(0, seq_k-1) for each g]
  3. coin => Hq = Hkv = 1; else redraw Hq = 2**randint(1,6),
     Hkv = 2**randint(1,6) until Hq > Hkv and Hq % Hkv == 0
  4. return_lse = coin; split_kv = choice(1,2,...,128) if return_lse else 1
  5. dtype = choice(f32, f16, bf16, i8); head_dim_qk, head_dim_v =
     randint(1, 1024); coins: scale, bias, transQ, transK, transV, transO,
     causal
  6. perf config attn:v3: 13 draws (mfma or wmma table; splitK drawn
     from {1})
Paged samples (--paged-fraction, ours) use a second PRNG per draw,
Random("rock-sweep-paged:<seed>:<draw>"), so the stream above is the same
whatever the fraction: paged => head_dim_v = head_dim_qk rounded up to a
multiple of 128/elemBits, page size a random multiple of 128/elemBits that
divides Hkv*seq_k*head_dim, num_pages = Hkv*seq_k*head_dim / page_size.

Input data (--data, ours): "pattern" (default) keeps rock-gen's -rand
distinct pattern; "int", "float" and "mixed" give every sample random
inputs, -rand <seed> with integers in [-5, 5) or (-rand_type float) floats
in [-1, 1), "mixed" choosing per sample.  The seed and the choice come
from a third PRNG per draw, Random("rock-sweep-data:<seed>:<draw>"), so
the problems drawn are the same whatever --data says.  Every sample runs
at rock's default gates for relDiff and absDiff (docs/semantics.md §8)
with -pv: the reference knows the type the region computes in.

Filters: max(seq_q, seq_k)*g <= 4096 ("tokens"), the split-KV memory
prefilter of 8.2 ("splitkv-extra-bytes"), and with --max-flops (ours) an
estimate 2*G*Hq*Sq*Sk*(Dqk+Dv) ("flops").  Rejected draws are replaced.

Loop: test `samples` configurations; while passed + failed < samples, draw
max(2*remaining, jobs) more and test them.  Outcome per sample: pass (the
last [x y z] line of rock-run's stdout is [1 1 1] and it exits 0), invalid
(rock-gen exits 2 with a perf_config or split-KV guard error), fail (anything
else: mismatch, crash, timeout, no verdict, other rock-gen error).

RMS policy (8.3), always passed explicitly: no attention scale and
head_dim_qk > 64 -> 0.15; else bf16 -> 0.01; else 0.005.

Sharding: --shard i/n tests the draws whose index (among all accepted draws
of the seed) is i mod n; shards of one seed are disjoint and their union is
what one unsharded run draws first.

Small machines (ours): --max-g, --max-tokens, --max-head-dim,
--max-heads-log2 shrink the sampling ranges and --max-flops filters heavy
draws; --small sets 8 / 512 / 128 / 3 / 2e8 (a few seconds per sample on a
2-core CPU).  Defaults are rocMLIR's (256 / 4096 / 1024 / 6 / none).

GPU targets (--arch sm_<N> | gfx<id>; default cpu).  The ranges are
rocMLIR's defaults (--max-* and --small still shrink them), the
perf-config table is WMMA's on gfx11 / gfx12, and the split-KV prefilter
is rocMLIR's GPU rule: device memory / 8,
clamped to [1, 8] GiB (GPU_MEMORY_GIB below; 1.5 GiB for an unknown
target).  No GPU is needed here: the sweep is a round trip.
  rock-sweep --arch sm_90 --prepare DIR [sampling flags]
compiles every sample (`rock-gen ... --arch sm_90 | rock-run --compile-only
-o`) into DIR/bundles.tar.gz, with DIR/manifest.tsv (index, outcome,
reason, bundle, command: a rock-gen rejection of the perf config is
Invalid and is replaced as in a run; a compile error is a failure), this
script and the rock-run-gpu found with the tools.  On the GPU machine,
  rock-sweep --run-bundles DIR [--runner PATH] [-j N] [--log-failures CSV]
runs every bundle with the runner (default DIR/rock-run-gpu), judges its
output as rock-run's, adds the failures of the prepare step and prints the
same summary (exit status as below).

Exit status: 0 when nothing failed, 1 on any failure, 2 on usage errors.
"""

import argparse
import concurrent.futures
import csv
import datetime
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

DTYPES = ("f32", "f16", "bf16", "i8")
SPLITS = (1, 2, 4, 8, 16, 32, 64, 128)
OUT_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i8": 2}
K_ELEM_BITS = {"f32": 32, "f16": 16, "bf16": 16, "i8": 8}
CPU_SPLITKV_LIMIT = 1536 * 1024 * 1024  # 1.5 GiB (8.2, on CPU)
_TRIPLE = re.compile(r"^\s*\[([01]) ([01]) ([01])\]\s*$")
# rock-gen's exit-2 messages that make a sample "Invalid" (8.4): a rejected
# perf config or the split-KV guard.  Other exit-2 errors (bad flags,
# invalid problems) are failures: the driver produced a bad command.
_INVALID = re.compile(r"perf[_ ]?config|splitKV requires|split-KV guard",
                      re.IGNORECASE)

MFMA = {
    "mPerBlockG0": (16, 32, 64, 128, 256),
    "mPerBlockG1": (16, 32, 64, 128, 256),
    "nPerBlockG0": (16, 32, 64, 128, 256),
    "kpackPerBlock": (8, 16, 32, 64),
    "mPerWave": (16, 32, 64, 128, 256),
    "nPerWave": (16, 32, 64, 128, 256),
    "mnPerXdl": (4, 16, 32),
    "kpack": (4, 8, 16),
    "splitKFactor": (1,),
    "scheduleVersion": (1, 2),
    "outputSwizzle": (0, 1, 2),
    "wavesPerEU": (0, 1, 2, 4, 8),
    "forceUnroll": (0, 1),
}
WMMA = dict(MFMA)
WMMA.update({
    "mPerBlockG0": (16, 32, 64, 128),
    "mPerBlockG1": (16, 32, 64, 128),
    "mPerWave": (16, 32, 64),
    "nPerWave": (16, 32, 64),
    "mnPerXdl": (16,),
    "wavesPerEU": (0, 1, 2, 4, 8, 16),
})


# ---------------------------------------------------------------------------
# Sampling

class Limits:
    def __init__(self, a):
        self.max_g = a.max_g
        self.max_tokens = a.max_tokens
        self.max_head_dim = a.max_head_dim
        self.max_heads_log2 = a.max_heads_log2
        self.max_flops = a.max_flops
        self.splitkv_limit = a.splitkv_extra_bytes_limit
        self.paged_fraction = a.paged_fraction
        self.data = a.data
        self.table = WMMA if a.codepath == "wmma" else MFMA


def draw_sample(rng, lim):
    """One draw in the order of the module docstring (consumes `rng`
    identically for any result)."""
    coin = lambda: rng.random() < 0.5  # noqa: E731
    s = {}
    g = rng.randint(1, lim.max_g)
    max_seq = max(1, min(16384, lim.max_tokens // g))
    s["g"] = g
    kv = coin()
    s["seq_len_k"] = rng.randint(1, max_seq)
    s["seq_len_q"] = 1 if kv else rng.randint(1, max_seq)
    s["current_seq_len"] = ([rng.randint(0, s["seq_len_k"] - 1)
                             for _ in range(g)] if kv else None)
    if coin():
        hq = hkv = 1
    else:
        while True:
            hq = 2 ** rng.randint(1, lim.max_heads_log2)
            hkv = 2 ** rng.randint(1, lim.max_heads_log2)
            if hq > hkv and hq % hkv == 0:
                break
    s["num_heads_q"], s["num_heads_kv"] = hq, hkv
    s["return_lse"] = coin()
    s["split_kv"] = rng.choice(SPLITS) if s["return_lse"] else 1
    s["t"] = rng.choice(DTYPES)
    s["head_dim_qk"] = rng.randint(1, lim.max_head_dim)
    s["head_dim_v"] = rng.randint(1, lim.max_head_dim)
    for k in ("scale", "bias", "transQ", "transK", "transV", "transO",
              "causal"):
        s[k] = coin()
    s["perf_config"] = "attn:v3:" + ",".join(
        str(rng.choice(vals)) for vals in lim.table.values())
    s["paged"] = False
    return s


def make_paged(s, prng):
    """Turns `s` into a consistent paged configuration (docs/user-guide.md §2.4)."""
    m = 128 // K_ELEM_BITS[s["t"]]
    d = max(m, -(-s["head_dim_qk"] // m) * m)
    s["head_dim_qk"] = s["head_dim_v"] = d
    total = s["num_heads_kv"] * s["seq_len_k"] * d
    divs = set()
    k = 1
    while k * k <= total:
        if total % k == 0:
            divs.update((k, total // k))
        k += 1
    cands = sorted(d for d in divs if d % m == 0)
    ps = prng.choice(cands)
    s["paged"] = True
    s["page_size"] = ps
    s["num_pages"] = total // ps


def draw_data(drng, kind):
    """The input flags of one sample (--data; see the module docstring)."""
    if kind == "pattern":
        return []
    if kind == "mixed":
        kind = drng.choice(("int", "float"))
    f = ["-rand", str(drng.randint(1, 2**31 - 1))]
    if kind == "float":
        f += ["-rand_type", "float", "-rand_min", "-1", "-rand_max", "1"]
    return f


def split_extra_bytes(s):
    lse = 4 if s["return_lse"] else 0
    return ((s["split_kv"] - 1) * s["g"] * s["num_heads_q"] * s["seq_len_q"]
            * (s["head_dim_v"] * OUT_BYTES[s["t"]] + lse))


def flops(s):
    return (2 * s["g"] * s["num_heads_q"] * s["seq_len_q"] * s["seq_len_k"]
            * (s["head_dim_qk"] + s["head_dim_v"]))


def filter_reason(s, lim):
    if max(s["seq_len_q"], s["seq_len_k"]) * s["g"] > lim.max_tokens:
        return "tokens"
    if split_extra_bytes(s) > lim.splitkv_limit:
        return "splitkv-extra-bytes"
    if lim.max_flops and flops(s) > lim.max_flops:
        return "flops"
    return None


def accepted_stream(seed, lim, filtered):
    """Yields (index, sample) for every accepted draw; counts rejects."""
    rng = random.Random(seed)
    draw = idx = 0
    while True:
        s = draw_sample(rng, lim)
        prng = random.Random(f"rock-sweep-paged:{seed}:{draw}")
        draw += 1
        if lim.paged_fraction > 0 and prng.random() < lim.paged_fraction:
            make_paged(s, prng)
        s["data"] = draw_data(random.Random(f"rock-sweep-data:{seed}:{draw}"),
                              lim.data)
        why = filter_reason(s, lim)
        if why:
            filtered[why] = filtered.get(why, 0) + 1
            continue
        yield idx, s
        idx += 1


# ---------------------------------------------------------------------------
# Commands

def rms_threshold(s):
    if not s["scale"] and s["head_dim_qk"] > 64:
        return "0.15"
    if s["t"] == "bf16":
        return "0.01"
    return "0.005"


def gen_flags(s, arch="cpu"):
    """rock-gen flags, spelled like rocMLIR's sweep driver."""
    b = lambda v: "True" if v else "False"  # noqa: E731
    f = ["--operation", "attention", "-t", s["t"], "--arch", arch,
         "-g", str(s["g"]),
         "-seq_len_q", str(s["seq_len_q"]), "-seq_len_k", str(s["seq_len_k"]),
         "-head_dim_qk", str(s["head_dim_qk"]),
         "-head_dim_v", str(s["head_dim_v"]),
         "-num_heads_q", str(s["num_heads_q"]),
         "-num_heads_kv", str(s["num_heads_kv"]),
         f"-with-attn-scale={b(s['scale'])}",
         f"-with-attn-bias={b(s['bias'])}",
         f"-transQ={b(s['transQ'])}", f"-transK={b(s['transK'])}",
         f"-transV={b(s['transV'])}", f"-transO={b(s['transO'])}",
         f"-causal={b(s['causal'])}",
         f"-return_lse={b(s['return_lse'])}",
         f"-split_kv={s['split_kv']}"]
    if s["current_seq_len"] is not None:
        f.append("-last_valid_kv_index=" +
                 ",".join(map(str, s["current_seq_len"])))
    if s["paged"]:
        f += ["--paged-attention=True", f"--num-pages={s['num_pages']}",
              f"--page-size={s['page_size']}"]
    f.append(f"--perf_config={s['perf_config']}")
    f += s.get("data", [])
    f += ["-RMS_threshold", rms_threshold(s), "-pv"]
    return f


def command_line(gen, run, s, extra, arch="cpu"):
    """The shell command of sample `s`; `run` is rock-run's argv."""
    return " ".join([shlex.quote(gen)] + gen_flags(s, arch) + extra +
                    ["|"] + [shlex.quote(x) for x in run])


# ---------------------------------------------------------------------------
# Execution

def _run(argv, inp, timeout):
    """Runs argv in its own session; returns (rc, out, err, timed_out)."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(inp, timeout=timeout)
        return p.returncode, out, err, False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = p.communicate()
        return p.returncode, out, err, True


def judge_run(rc, out, err, timed_out, before=""):
    """Judges one rock-run (or rock-run-gpu) result from its exit status and
    output: (outcome, reason, text) with outcome pass|fail; `before` is
    prepended to the text (rock-gen's stderr)."""
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    text = before + out + err
    if timed_out:
        return "fail", "timeout", text
    verdict = None
    for line in out.splitlines():
        if _TRIPLE.match(line):
            verdict = line.strip()
    if verdict is None:
        if rc is not None and rc < 0:
            return "fail", f"rock-run crash (signal {-rc})", text
        rerr = next((ln.strip() for ln in err.splitlines() if ln.strip()), "")
        why = f"no verdict (rock-run exit {rc}"
        return "fail", why + (f": {rerr[:160]})" if rerr else ")"), text
    if verdict != "[1 1 1]":
        return "fail", f"mismatch {verdict}", text
    if rc != 0:
        return "fail", f"rock-run exit {rc}", text
    return "pass", "", text


def run_sample(gen, run, s, extra, timeout, arch="cpu", compile_only=False):
    """Runs `gen ... | run` (`run` is rock-run's argv) for sample `s`;
    returns (outcome, reason, text) with outcome pass|invalid|fail. With
    `compile_only`, pass means that rock-run exited 0 (a bundle written)."""
    start = time.time()
    tmo = timeout if timeout and timeout > 0 else None
    rc, mod, err, to = _run([gen] + gen_flags(s, arch) + extra, b"", tmo)
    gerr = err.decode("utf-8", "replace")
    if to:
        return "fail", "timeout (rock-gen)", gerr
    first = next((ln.strip() for ln in gerr.splitlines() if ln.strip()),
                 f"rock-gen exit {rc}")
    if rc == 2 and _INVALID.search(gerr):
        return "invalid", first, gerr
    if rc == 2:
        return "fail", f"rock-gen exit 2: {first}", gerr
    if rc != 0:
        if rc < 0:
            return "fail", f"rock-gen crash (signal {-rc})", gerr
        return "fail", f"rock-gen exit {rc}: {first}", gerr
    if tmo is not None:
        tmo = max(0.1, tmo - (time.time() - start))
    rc, out, err, to = _run(run, mod, tmo)
    if not compile_only:
        return judge_run(rc, out, err, to, gerr)
    text = gerr + out.decode("utf-8", "replace") + err.decode("utf-8",
                                                              "replace")
    if to:
        return "fail", "timeout (compile)", text
    if rc != 0:
        rerr = next((ln.strip() for ln in err.decode("utf-8", "replace")
                     .splitlines() if ln.strip()), "")
        return "fail", f"compile failed (rock-run exit {rc}: {rerr[:160]})", \
            text
    return "pass", "", text


class Progress:
    def __init__(self, total, quiet, tty):
        self.total = total
        self.quiet = quiet
        self.tty = tty
        self.done = 0
        self.counts = {"pass": 0, "invalid": 0, "fail": 0}
        self.lock = threading.Lock()

    def line(self, msg):
        if self.quiet:
            return
        with self.lock:
            if self.tty:
                sys.stderr.write("\r\033[K")
            print(msg, flush=True)
            self._bar()

    def update(self, outcome, msg):
        with self.lock:
            self.done += 1
            self.counts[outcome] += 1
        if self.quiet:
            return
        if self.tty:
            with self.lock:
                self._bar()
        else:
            print(msg, flush=True)

    def _bar(self):
        if not self.tty or self.quiet:
            return
        total = max(self.total, self.done)
        w = 30
        fill = int(w * self.done / total) if total else w
        c = self.counts
        sys.stderr.write(f"\r[{'#' * fill}{'.' * (w - fill)}] "
                         f"{self.done}/{total} passed {c['pass']} "
                         f"invalid {c['invalid']} failed {c['fail']}")
        sys.stderr.flush()

    def finish(self):
        if self.tty and not self.quiet:
            sys.stderr.write("\n")
            sys.stderr.flush()


# Device memory (GiB) of the GPU targets rock knows, for rocMLIR's split-KV
# prefilter on a GPU: memory / 8 clamped to [1, 8] GiB, 1.5 GiB (its
# fallback) for a target not listed. sm_90: H100 / H200 (80-141 GiB).
GPU_MEMORY_GIB = {"sm_90": 80, "sm_90a": 80, "gfx90a": 64, "gfx942": 192,
                  "gfx950": 288}
_ARCH = re.compile(r"cpu|sm_[0-9]+a?|gfx[0-9a-f]+")


def gpu_splitkv_limit(arch):
    """rocMLIR's default split-KV extra-storage limit on GPU `arch`."""
    gib = GPU_MEMORY_GIB.get(arch)
    if gib is None:
        return CPU_SPLITKV_LIMIT
    return max(1 << 30, min(8 << 30, (gib << 30) // 8))


# Where a plain --log-failures writes (in the current directory).
DEFAULT_FAILURE_LOG = "failing_configs.csv"


def find_tool(name, tools_dir):
    if tools_dir:
        return os.path.join(tools_dir, name)
    here = os.path.dirname(os.path.abspath(__file__))
    if os.access(os.path.join(here, name), os.X_OK):
        return os.path.join(here, name)
    return shutil.which(name) or name


def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or int(m.group(2)) < 1 or int(m.group(1)) >= int(m.group(2)):
        raise argparse.ArgumentTypeError("expected i/n with 0 <= i < n")
    return int(m.group(1)), int(m.group(2))


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="rock-sweep", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--op", choices=("attention", "gemm_gemm"),
                    default="attention")
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--codepath", choices=("auto", "mfma", "wmma"),
                    default="auto", help="perf-config table (auto: wmma on "
                    "gfx11 / gfx12, else mfma)")
    ap.add_argument("--arch", default="cpu",
                    help="target: cpu (default), sm_<N> or gfx<id>")
    ap.add_argument("--prepare", metavar="DIR",
                    help="GPU round trip, first half: compile every sample "
                    "to a bundle in DIR (needs --arch sm_<N>)")
    ap.add_argument("--run-bundles", metavar="DIR",
                    help="GPU round trip, second half: run the bundles of "
                    "DIR (written by --prepare) and judge them")
    ap.add_argument("--runner", help="with --run-bundles: the bundle runner "
                    "(default DIR/rock-run-gpu)")
    ap.add_argument("--test-timeout-sec", type=float, default=600,
                    help="per sample, seconds (default 600, as rocMLIR); "
                    "0 disables")
    ap.add_argument("--splitkv-extra-bytes-limit", type=int, default=None,
                    help="memory prefilter limit (default 1.5 GiB on CPU)")
    ap.add_argument("--seed", type=int, default=None,
                    help="PRNG seed (default: the ISO week number)")
    ap.add_argument("--shard", type=parse_shard, default=(0, 1),
                    metavar="I/N", help="run shard I of N (same seed)")
    ap.add_argument("--paged-fraction", type=float, default=0.125,
                    help="fraction of samples made paged (ours)")
    ap.add_argument("--data", choices=("pattern", "int", "float", "mixed"),
                    default="pattern", help="input data of the samples: "
                    "rock-gen's pattern (default) or random (ours)")
    ap.add_argument("--max-g", type=int, default=256)
    ap.add_argument("--max-tokens", type=int, default=4096)
    ap.add_argument("--max-head-dim", type=int, default=1024)
    ap.add_argument("--max-heads-log2", type=int, default=6)
    ap.add_argument("--max-flops", type=float, default=0,
                    help="filter draws above this flop estimate (0 = off)")
    ap.add_argument("--small", action="store_true",
                    help="small-CPU caps: --max-g 8 --max-tokens 512 "
                    "--max-head-dim 128 --max-heads-log2 3 --max-flops 2e8")
    ap.add_argument("--tools-dir", help="directory of rock-gen and rock-run "
                    "(default: next to this script, else PATH)")
    ap.add_argument("--mlir-build-dir", metavar="DIR",
                    help="rocMLIR's spelling: a build directory whose bin/ "
                    "holds the tools (DIR itself when it has no bin/)")
    ap.add_argument("--extra-gen-flags", default="",
                    help="extra rock-gen flags appended to every sample")
    ap.add_argument("--list", action="store_true",
                    help="print the first batch of commands, run nothing")
    ap.add_argument("--debug", action="store_true",
                    help="print every command and its output")
    ap.add_argument("--debug-fails", action="store_true",
                    help="print the output of failing samples")
    ap.add_argument("--quiet", action="store_true",
                    help="no progress, only the summary")
    ap.add_argument("--log-failures", metavar="CSV", nargs="?",
                    const=DEFAULT_FAILURE_LOG,
                    help="write failing command lines to CSV (a plain "
                    f"--log-failures, as rocMLIR spells it: "
                    f"{DEFAULT_FAILURE_LOG})")
    a = ap.parse_args(argv)
    if not _ARCH.fullmatch(a.arch):
        ap.error(f"--arch {a.arch}: expected cpu, sm_<N> or gfx<id>")
    if a.prepare and a.run_bundles:
        ap.error("--prepare and --run-bundles are the two halves of one "
                 "round trip: give one")
    if a.prepare and a.arch == "cpu":
        ap.error("--prepare compiles GPU bundles: give --arch sm_<N>")
    if a.prepare and not a.arch.startswith("sm_"):
        ap.error(f"--prepare: rock-run writes bundles for NVIDIA targets "
                 f"only (sm_<N>), not {a.arch}")
    if a.runner and not a.run_bundles:
        ap.error("--runner needs --run-bundles")
    if a.codepath == "auto":
        a.codepath = "wmma" if re.match(r"gfx1[12]", a.arch) else "mfma"
    if a.mlir_build_dir and not a.tools_dir:
        b = os.path.join(a.mlir_build_dir, "bin")
        a.tools_dir = b if os.path.isdir(b) else a.mlir_build_dir
    if a.small:
        a.max_g, a.max_tokens, a.max_head_dim = 8, 512, 128
        a.max_heads_log2, a.max_flops = 3, 2e8
    if a.op != "attention":
        ap.error("--op gemm_gemm: rock-gen implements attention only")
    if a.samples < 0 or a.jobs < 1:
        ap.error("--samples must be >= 0 and -j >= 1")
    if a.max_heads_log2 < 2 or a.max_g < 1 or a.max_tokens < 1 \
            or a.max_head_dim < 1:
        ap.error("--max-heads-log2 must be >= 2, other caps >= 1")
    if not 0 <= a.paged_fraction <= 1:
        ap.error("--paged-fraction must be in [0, 1]")
    if a.seed is None:
        a.seed = datetime.date.today().isocalendar()[1]
    if a.splitkv_extra_bytes_limit is None:
        a.splitkv_extra_bytes_limit = (CPU_SPLITKV_LIMIT if a.arch == "cpu"
                                       else gpu_splitkv_limit(a.arch))
    return a


def sweep_loop(a, share, take, judge, prog, failures, invalid_reasons):
    """Tests `share` samples: every item of take(n) goes through judge(i, s)
    -> (outcome, reason, text, cmd); Invalid samples are replaced (at most
    20 refill rounds). Fills `failures` and `invalid_reasons`."""
    lock = threading.Lock()

    def one(item):
        i, s = item
        outcome, reason, text, cmd = judge(i, s)
        label = {"pass": "PASS", "invalid": "INVALID", "fail": "FAIL"}
        msg = f"{label[outcome]} {i}" + (f" ({reason})" if reason else "")
        with lock:
            if outcome == "fail":
                failures.append((i, reason, cmd))
            elif outcome == "invalid":
                invalid_reasons[reason] = invalid_reasons.get(reason, 0) + 1
        if outcome == "fail":
            prog.line(f"FAIL {i} ({reason}): {cmd}")
            if a.debug or a.debug_fails:
                prog.line(text.rstrip())
            _count(prog, outcome)
        else:
            if a.debug:
                prog.line(text.rstrip())
            prog.update(outcome, msg)

    def batch(items):
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            list(ex.map(one, items))

    batch(take(share))
    rounds = 0
    while prog.counts["pass"] + prog.counts["fail"] < share:
        remaining = share - prog.counts["pass"] - prog.counts["fail"]
        rounds += 1
        if rounds > 20:
            print("rock-sweep: warning: giving up refilling after 20 rounds "
                  "of invalid samples", file=sys.stderr)
            break
        items = take(max(2 * remaining, a.jobs))
        prog.total += len(items)
        batch(items)
    prog.finish()


def summarize(a, seed, counts, filtered, invalid_reasons, failures):
    """Writes --log-failures and prints the summary; returns the exit
    status."""
    if a.log_failures:
        with open(a.log_failures, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["sample", "seed", "reason", "command"])
            for i, reason, cmd in sorted(failures):
                w.writerow([i, seed, reason, cmd])
    total_f = sum(filtered.values())
    parts = ", ".join(f"{k}: {v}" for k, v in sorted(filtered.items()))
    print(f"Filtered: {total_f}" + (f" ({parts})" if parts else ""))
    for r, n in sorted(invalid_reasons.items(), key=lambda x: -x[1]):
        print(f"Invalid reason: {n} x {r}")
    for i, reason, cmd in sorted(failures):
        print(f"Failed sample {i} ({reason}): {cmd}")
    print(f"Passed: {counts['pass']}, Invalid: {counts['invalid']}, "
          f"Failed: {counts['fail']}")
    return 1 if counts["fail"] else 0


MANIFEST = "manifest.tsv"
META = "sweep.json"
BUNDLES = "bundles.tar.gz"


def prepare_bundles(a, share, take, gen, run, extra, filtered, prog):
    """--prepare: compiles the samples into a.prepare (module docstring)."""
    out = os.path.abspath(a.prepare)
    os.makedirs(out, exist_ok=True)
    stage = tempfile.mkdtemp(prefix="rock-sweep-")
    rows = {}

    def judge(i, s):
        name = f"s{i:05d}.bundle"
        argv = [run, "--compile-only", "-o", os.path.join(stage, name)]
        cmd = command_line(gen, [run, "--compile-only", "-o", name], s,
                           extra, a.arch)
        outcome, reason, text = run_sample(gen, argv, s, extra,
                                           a.test_timeout_sec, a.arch, True)
        rows[i] = (outcome if outcome != "pass" else "bundle", reason,
                   name if outcome == "pass" else "", cmd)
        return outcome, reason, text, cmd

    failures, invalid_reasons = [], {}
    sweep_loop(a, share, take, judge, prog, failures, invalid_reasons)
    with open(os.path.join(out, MANIFEST), "w") as f:
        for i in sorted(rows):
            f.write("\t".join([str(i)] + [x.replace("\t", " ")
                                          for x in rows[i]]) + "\n")
    with open(os.path.join(out, META), "w") as f:
        json.dump({"seed": a.seed, "shard": list(a.shard), "arch": a.arch,
                   "samples": share, "filtered": filtered,
                   "invalid_reasons": invalid_reasons}, f, indent=1)
    with tarfile.open(os.path.join(out, BUNDLES), "w:gz") as t:
        for i in sorted(rows):
            if rows[i][0] == "bundle":
                t.add(os.path.join(stage, rows[i][2]), arcname=rows[i][2])
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copy(os.path.abspath(__file__), os.path.join(out, "rock-sweep"))
    runner = find_tool("rock-run-gpu", a.tools_dir)
    if os.access(runner, os.X_OK):
        shutil.copy(runner, os.path.join(out, "rock-run-gpu"))
    else:
        print(f"rock-sweep: note: no rock-run-gpu at {runner}: give "
              f"--runner to --run-bundles", file=sys.stderr)
    c = prog.counts
    print(f"Prepared: {c['pass']} bundles, Invalid: {c['invalid']}, "
          f"Failed: {c['fail']} (compile) in {out}")
    for i, reason, cmd in sorted(failures):
        print(f"Failed sample {i} ({reason}): {cmd}")
    return 1 if c["fail"] else 0


def run_bundles(a):
    """--run-bundles: runs the bundles of a.run_bundles (module docstring)."""
    d = os.path.abspath(a.run_bundles)
    try:
        with open(os.path.join(d, META)) as f:
            meta = json.load(f)
        with open(os.path.join(d, MANIFEST)) as f:
            rows = [ln.rstrip("\n").split("\t") for ln in f if ln.strip()]
    except (OSError, ValueError) as e:
        print(f"rock-sweep: error: {d} is not a --prepare directory: {e}",
              file=sys.stderr)
        return 2
    runner = a.runner or os.path.join(d, "rock-run-gpu")
    if not os.access(runner, os.X_OK):
        print(f"rock-sweep: error: no runner at {runner}", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="rock-sweep-run-")
    with tarfile.open(os.path.join(d, BUNDLES)) as t:
        t.extractall(work)
    if not a.quiet:
        print(f"rock-sweep: seed {meta['seed']}, arch {meta['arch']}, "
              f"{sum(r[1] == 'bundle' for r in rows)} bundles, jobs "
              f"{a.jobs}, runner {runner}", flush=True)
    prog = Progress(len(rows), a.quiet, sys.stderr.isatty())
    failures, invalid_reasons = [], dict(meta["invalid_reasons"])
    lock = threading.Lock()
    tmo = a.test_timeout_sec if a.test_timeout_sec > 0 else None

    def one(row):
        i, outcome, reason, name, cmd = int(row[0]), *row[1:]
        if outcome == "invalid":
            with prog.lock:
                prog.done += 1
                prog.counts["invalid"] += 1
            return
        if outcome == "fail":
            with lock:
                failures.append((i, reason, cmd))
            _count(prog, "fail")
            return
        rc, out, err, to = _run([runner, os.path.join(work, name)], b"", tmo)
        outcome, reason, text = judge_run(rc, out, err, to)
        cmd = f"{cmd} && rock-run-gpu {name}"
        if outcome == "fail":
            with lock:
                failures.append((i, reason, cmd))
            prog.line(f"FAIL {i} ({reason}): {cmd}")
            if a.debug or a.debug_fails:
                prog.line(text.rstrip())
            _count(prog, outcome)
        else:
            prog.update(outcome, f"PASS {i}")

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        list(ex.map(one, rows))
    prog.finish()
    shutil.rmtree(work, ignore_errors=True)
    return summarize(a, meta["seed"], prog.counts, meta["filtered"],
                     invalid_reasons, failures)


def main(argv=None):
    a = parse_args(argv)
    if a.run_bundles:
        return run_bundles(a)
    lim = Limits(a)
    shard_i, shard_n = a.shard
    share = a.samples // shard_n + (1 if shard_i < a.samples % shard_n else 0)
    filtered = {}
    stream = ((i, s) for i, s in accepted_stream(a.seed, lim, filtered)
              if i % shard_n == shard_i)
    gen = find_tool("rock-gen", a.tools_dir)
    run = find_tool("rock-run", a.tools_dir)
    extra = a.extra_gen_flags.split()

    def take(n):
        return [next(stream) for _ in range(n)]

    if a.list:
        print(f"# seed {a.seed}, shard {shard_i}/{shard_n}")
        for i, s in take(share):
            print(f"{i}: {command_line(gen, [run], s, extra, a.arch)}")
        parts = ", ".join(f"{k}: {v}" for k, v in sorted(filtered.items()))
        print(f"# Filtered: {sum(filtered.values())}" +
              (f" ({parts})" if parts else ""))
        return 0

    tty = sys.stderr.isatty()
    if not a.quiet:
        print(f"rock-sweep: seed {a.seed}, samples {a.samples}, jobs "
              f"{a.jobs}, shard {shard_i}/{shard_n}, arch {a.arch}, splitkv "
              f"limit {a.splitkv_extra_bytes_limit} bytes", flush=True)
    prog = Progress(share, a.quiet, tty)
    if a.prepare:
        return prepare_bundles(a, share, take, gen, run, extra, filtered,
                               prog)

    def judge(i, s):
        cmd = command_line(gen, [run], s, extra, a.arch)
        if a.debug:
            prog.line(f"RUN {i}: {cmd}")
        outcome, reason, text = run_sample(gen, [run], s, extra,
                                           a.test_timeout_sec, a.arch)
        return outcome, reason, text, cmd

    failures, invalid_reasons = [], {}
    sweep_loop(a, share, take, judge, prog, failures, invalid_reasons)
    return summarize(a, a.seed, prog.counts, filtered, invalid_reasons,
                     failures)


def _count(prog, outcome):
    with prog.lock:
        prog.done += 1
        prog.counts[outcome] += 1
    if prog.tty and not prog.quiet:
        with prog.lock:
            prog._bar()


if __name__ == "__main__":
    sys.exit(main())
