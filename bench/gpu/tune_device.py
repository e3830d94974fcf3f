"""rock-tune's device half: `DIR/rock-tune --run DIR` on the GPU machine.

rock-tune --prepare (tools/rock_tune.py) copies this file, the bench's
bundle launcher (attention_bench.py) and the bundles into DIR. Here, per
case (one problem: a bench/gpu decode or prefill row, or an off-table
shape), in one process on one GPU:
  1. random bf16 inputs on the GPU (attention_bench's scales), shared by
     the variants (K layouts, page sizes) of one shape, and the f32 SDPA
     reference of its check slice;
  2. screening: each distinct bundle (the heuristic's, the quick space's,
     then the rest of the full space where the case is exhaustive) is
     loaded (cubins: no JIT), run once and checked against the reference
     (relative L2 error <= TOL; a config that fails is out and reported),
     then timed briefly: calls under 1 ms as a CUDA graph of back-to-back
     calls (about SCREEN_MS of GPU time) rotating over input copies of
     >= 4x the L2, 3 replays, median; longer calls as the lesser of two
     single calls (CUDA events). Screening stops at the case's budget
     (--case-budget); an exhaustive case cut short says so;
  3. finalists: the heuristic, the quick space's best and (exhaustive
     cases) the full space's best, timed as the bench times
     (attention_bench.time_groups) in two rounds. Round 1 decides: the
     quick winner is the DB's config when it beats the heuristic there by
     MIN_GAIN, else the heuristic's own. Round 2 (the other order) is the
     measurement reported, independent of the decision: tuned vs
     heuristic, and the tuned time's gap to the exhaustive best (the
     least round-2 time of the finalists, all of them in the full space);
     a winner that round 2 finds slower than the heuristic is reported
     and the DB gets the heuristic's config;
  4. the winner verified: the slice check above and, for problems of at
     most VERIFY_BYTES of K/V and VERIFY_FLOPS of work, rock-run-gpu's f64
     reference on the whole output ([1 1 1]).
Cases start only while the global budget (--budget, seconds since start)
lasts; the rest are marked skipped. Each case prints one short line; the
run ends with a compact summary. OUT gets, as they are produced (a killed
run keeps what it had): perf-db.tsv, tune.jsonl (one case a line, every
config's screening time and check); at the end tune.json, table.md (the
whole table) and summary.txt. go.sh tees the output to OUT/rock-tune.log.

`--fake-gpu` runs the same orchestration without a GPU (FakeGpu: times
derived from each bundle's bytes, every check passing): the lit test of
the round trip (test/Tools/rock-tune-gpu-roundtrip.mlir) uses it.
"""

import hashlib
import json
import math
import os
import re
import signal
import subprocess
import tarfile
import time

TOL = 2e-2              # relative L2 error of a bf16 output vs f32 SDPA
SCREEN_MS = 4.0         # GPU time one screening replay aims at
LONG_MS = 1.0           # calls at least this long are screened one by one
MIN_GAIN = 0.01         # a config replaces the heuristic when 1 % faster
VERIFY_BYTES = 128 << 20  # rock-run-gpu's f64 check up to this much K/V
VERIFY_FLOPS = 2e9      # and this much work (the host reference's)
VERIFY_TIMEOUT = 30     # seconds one rock-run-gpu verification may take


class Stop(Exception):
    """SIGTERM (go.sh's hard timeout): finish with what was measured."""


class Gpu:
    """The GPU side: inputs, loading, checking and timing bundles."""

    def __init__(self):
        import attention_bench as ab
        self.ab = ab
        ab.load_gpu_modules()
        self.torch = ab.torch
        props = self.torch.cuda.get_device_properties(0)
        self.device = f"{props.name} ({props.multi_processor_count} SMs)"
        self.about = f"torch {self.torch.__version__}"

    def shape(self, case):
        """Inputs and the reference of one shape (attention_bench's)."""
        ab, torch = self.ab, self.torch
        B, Hq, Hkv, Sq, Sk, D = (case[x] for x in
                                 ("B", "Hq", "Hkv", "Sq", "Sk", "D"))
        torch.manual_seed(B * 1000003 + Sk * 31 + Sq + D)
        s = {"case": case}
        s["q"] = (torch.randn(B, Hq, Sq, D, device="cuda") * 0.3).to(
            torch.bfloat16)
        s["k"] = (torch.randn(B, Hkv, Sk, D, device="cuda") * 0.3).to(
            torch.bfloat16)
        s["v"] = torch.randn(B, Hkv, Sk, D, device="cuda").to(torch.bfloat16)
        s["copies"] = ab.n_copies(ab.kv_bytes(case) + 2 * B * Hq * Sq * D * 2)
        sel = s["sel"] = ab.check_slice(case)
        s["ref"] = ab.reference(s["q"][sel[0], sel[1]], s["k"][sel[0], sel[2]],
                                s["v"][sel[0], sel[2]], ab.last_keys(case))
        return s

    def sets(self, path, shape):
        """Argument sets of the variant of bundle `path` (shared by every
        config of the variant: the same problem, the same arguments)."""
        kern = self.ab.RockKernel(path)
        sets = self.ab.rock_sets(kern, shape["q"], shape["k"], shape["v"],
                                 shape["copies"], shape["case"])
        del kern
        return sets

    def load(self, path):
        return self.ab.RockKernel(path)

    def check(self, kern, sets, shape):
        """Runs `kern` once on copy 0 (outputs NaN first); its relative error
        on the check slice."""
        for st in sets:
            st["kernel"][-1].fill_(float("nan"))
        kern.run(sets, 0)
        self.torch.cuda.synchronize()
        o = self.ab.rock_output(kern, sets).reshape(shape["q"].shape)
        sel = shape["sel"]
        return self.ab.rel_err(o[sel[0], sel[1]], shape["ref"])

    def screen(self, kern, sets, shape):
        """ms of one call, briefly (the check ran it once already): calls
        under LONG_MS: median of 3 replays of a CUDA graph of back-to-back
        calls rotating over the copies, ~SCREEN_MS each; longer calls: the
        lesser of two single calls."""
        ab, copies = self.ab, shape["copies"]

        def fn(i):
            kern.run(sets, i)
        est = max(self.timed(fn, 1 % copies), 1e-3)
        if est >= LONG_MS:
            return min(est, self.timed(fn, 0))
        per = max(copies, min(64, int(SCREEN_MS / est) or 1))
        replay, _, graph = ab.capture(fn, per, copies)
        replay()
        times = ab.replay_ms(replay, per, 3)
        del graph
        return times[1]

    def timed(self, fn, i):
        """ms of one call fn(i) (CUDA events)."""
        torch = self.torch
        start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
        start.record()
        fn(i)
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop)

    def final(self, kern, sets, shape):
        med, _, _ = self.ab.time_groups(lambda i: kern.run(sets, i),
                                        shape["copies"])
        return med

    def kv_bytes(self, case):
        return self.ab.kv_bytes(case)

    def healthy(self):
        """False when the CUDA context is gone (a sticky launch error)."""
        try:
            self.torch.cuda.synchronize()
            return True
        except Exception:
            return False

    def done(self):
        self.torch.cuda.empty_cache()


class FakeGpu(Gpu):
    """No GPU: a kernel's time is a number derived from its bundle's bytes
    but its compile time (so configs differ, and a rebuild of the same
    kernels gives the same times), checks pass. Only for testing the orchestration."""

    def __init__(self):
        self.device, self.about = "fake GPU (rock-tune --fake-gpu)", "no GPU"

    def shape(self, case):
        return {"case": case}

    def sets(self, path, shape):
        return None

    def load(self, path):
        # The bundle's bytes without its compile time (which differs from
        # one compile to the next): the same kernels, the same times.
        with open(path, "rb") as f:
            data = re.sub(rb"(?m)^compile_ms [^\n]*\n", b"", f.read())
        return int(hashlib.sha1(data).hexdigest()[:6], 16)

    def check(self, kern, sets, shape):
        return 0.0

    def screen(self, kern, sets, shape):
        return 0.05 + kern / 2**24

    def final(self, kern, sets, shape):
        return 0.05 + kern / 2**24

    def kv_bytes(self, case):
        return 2 * case["B"] * case["Hkv"] * case["Sk"] * case["D"] * 2

    def healthy(self):
        return True

    def done(self):
        pass


def short_error(e):
    return str(e).splitlines()[0][:160] if str(e) else repr(e)


def screen_one(gpu, work, shape, sets, cand):
    """Loads, checks and briefly times one candidate; fills cand."""
    try:
        kern = gpu.load(os.path.join(work, "bundles", cand["bundle"]))
        cand["err"] = gpu.check(kern, sets, shape)
        if not cand["err"] <= TOL:  # NaN fails too
            cand["error"] = f"relative error {cand['err']:.3g} > {TOL}"
            return
        cand["screen_us"] = 1e3 * gpu.screen(kern, sets, shape)
        del kern
    except Stop:
        raise
    except Exception as e:  # a bundle that does not load or launch
        cand["error"] = short_error(e)


def rock_run_gpu_verify(d, work, bundle, fake):
    """rock-run-gpu's f64 verification of a bundle: (passed, verdict)."""
    if fake:
        return True, "[1 1 1] (fake)"
    runner = os.environ.get("ROCK_RUN_GPU", os.path.join(d, "rock-run-gpu"))
    try:
        p = subprocess.run([runner, os.path.join(work, "bundles", bundle)],
                           capture_output=True, text=True,
                           timeout=VERIFY_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, short_error(e)
    lines = [x for x in p.stdout.splitlines() if x.startswith("[")]
    verdict = lines[-1] if lines else (p.stderr.strip().splitlines() or
                                       ["no verdict"])[-1]
    return p.returncode == 0 and verdict == "[1 1 1]", verdict


def time_round(gpu, work, fin, shape, sets, order):
    """One round of bench timings (µs) of the distinct finalists, in
    `order`; finalists that are the same candidate share a timing."""
    us, seen = {}, {}
    for name in order:
        c = fin[name]
        if id(c) not in seen:
            kern = gpu.load(os.path.join(work, "bundles", c["bundle"]))
            seen[id(c)] = 1e3 * gpu.final(kern, sets, shape)
            del kern
        us[name] = seen[id(c)]
    return us


def finalists(gpu, work, entry, ok, heur, shape, sets, complete):
    """The heuristic, the quick winner and (a complete exhaustive search)
    the full winner; round 1 decides, round 2 is reported. Returns
    (finalists, winner name, round 1, round 2)."""
    fin = {"heuristic": heur,
           "quick": min((c for c in ok if c["quick"]),
                        key=lambda c: c["screen_us"])}
    if entry["exhaustive"] and complete:
        fin["full"] = min(ok, key=lambda c: c["screen_us"])
    names = list(fin)
    r1 = time_round(gpu, work, fin, shape, sets, names)
    win = "quick" if r1["quick"] < (1 - MIN_GAIN) * r1["heuristic"] \
        else "heuristic"
    if len({id(c) for c in fin.values()}) == 1:
        return fin, win, r1, r1  # one kernel: nothing to compare
    r2 = time_round(gpu, work, fin, shape, sets, names[::-1])
    return fin, win, r1, r2


def screen_all(gpu, work, entry, shape, sets, heur, deadline):
    """Screens the heuristic, then the quick space, then the rest, until
    `deadline`. Returns (candidates, complete)."""
    rest = [c for c in entry["configs"]
            if "error" not in c and "same_as" not in c]
    cands = [heur] + [c for c in rest if c["quick"]] + \
        [c for c in rest if not c["quick"]]
    for i, c in enumerate(cands):
        if i and time.time() > deadline:
            return cands[:i], False
        screen_one(gpu, work, shape, sets, c)
    return cands, True


def tune_entry(gpu, d, work, entry, shape, fake, case_budget):
    """Screens, re-times and verifies one case; returns its result."""
    start = time.time()
    heur = {"bundle": entry["heuristic"], "config": "heuristic",
            "quick": True}
    sets = gpu.sets(os.path.join(work, "bundles", heur["bundle"]), shape)
    cands, complete = screen_all(gpu, work, entry, shape, sets, heur,
                                 start + case_budget)
    ok = [c for c in cands if "screen_us" in c]
    res = {"name": entry["name"], "key": entry["key"], "timed": len(ok),
           "distinct": 1 + sum("error" not in c and "same_as" not in c
                               for c in entry["configs"]),
           "exhaustive": entry["exhaustive"], "complete": complete,
           "failed": [f"{c['config']}: {c['error']}" for c in cands
                      if "error" in c],
           "configs": [{k: c[k] for k in ("config", "quick", "screen_us",
                                          "err", "error") if k in c}
                       for c in cands]}
    if heur not in ok:
        res["error"] = heur.get("error", "the heuristic did not run")
        return res
    fin, win, r1, r2 = finalists(gpu, work, entry, ok, heur, shape, sets,
                                 complete)
    if r2[win] > r2["heuristic"]:
        res["slower_in_round2"] = r2[win] / r2["heuristic"] - 1
    res.update(round1=r1, us=r2, heuristic_us=r2["heuristic"],
               tuned_us=r2[win], space="quick")
    if "full" in fin:
        res["exhaustive_us"] = min(r2.values())
    # The DB's config: the winner when both rounds found it faster.
    db = fin[win] if "slower_in_round2" not in res else heur
    res.update(winner=db["config"] if db is not heur
               else entry["heuristic_config"],
               winner_schedule=db.get("schedule",
                                      entry["heuristic_schedule"]),
               winner_err=db["err"], retuned=db is not heur,
               db_us=r2[win] if db is not heur else r2["heuristic"])
    c = entry["case"]
    if gpu.kv_bytes(c) <= VERIFY_BYTES and \
            4 * c["B"] * c["Hq"] * c["Sq"] * c["Sk"] * c["D"] <= VERIFY_FLOPS:
        res["f64_verified"], res["f64_verdict"] = rock_run_gpu_verify(
            d, work, db["bundle"], fake)
    res["verified"] = db["err"] <= TOL and res.get("f64_verified", True)
    return res


def pct(a, b):
    return f"{100 * (a / b - 1):+.1f}%"


def exh_ratio(r):
    return r["tuned_us"] / r["exhaustive_us"] if "exhaustive_us" in r \
        else None


def verdict(r):
    """The verdict, compact (the device tool returns the last 12 KB of
    output)."""
    if "us" not in r:
        return r.get("error") or "skipped"
    v = ["<= heur" if r["tuned_us"] <= r["heuristic_us"] else
         f"SLOWER {pct(r['tuned_us'], r['heuristic_us'])} (DB: heuristic)"]
    x = exh_ratio(r)
    if x is not None:
        v.append(f"exh {pct(r['tuned_us'], r['exhaustive_us'])} " +
                 ("ok" if x <= 1.02 else "MISSED"))
    elif r["exhaustive"]:
        v.append(f"exh INCOMPLETE ({r['timed']} of {r['distinct']})")
    v.append(("f64 " + r["f64_verdict"]) if "f64_verdict" in r and
             r["verified"] else "slice ok" if r["verified"] else
             "NOT VERIFIED" + (f" ({r['f64_verdict']})" if "f64_verdict" in r
                               else ""))
    if r["failed"]:
        v.append(f"{len(r['failed'])} failed")
    return ", ".join(v)


def case_line(i, n, r, t0):
    """One short line per case."""
    head = f"[{i}/{n}] {r['name']}"
    if "us" not in r:
        return f"{head}: {verdict(r)}"
    return (f"{head}: n {r['timed']}/{r['distinct']}, heur "
            f"{r['heuristic_us']:.1f} us, tuned {r['tuned_us']:.1f} "
            f"({pct(r['tuned_us'], r['heuristic_us'])}); {verdict(r)}; "
            f"{r.get('seconds', 0):.1f} s, {time.time() - t0:.0f} s in")


def table(results):
    def f(x):
        return "-" if x is None else f"{x:.1f}"
    lines = ["| shape | n | heuristic µs | tuned µs | exhaustive µs | "
             "verdict |", "|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['name']} | {r.get('timed', '-')} | "
                     f"{f(r.get('heuristic_us'))} | {f(r.get('tuned_us'))} |"
                     f" {f(r.get('exhaustive_us'))} | {verdict(r)} |")
    return "\n".join(lines)


def suite_of(r):
    return r["name"].split("-", 1)[0]


def summary(results, rows, seconds):
    """A few lines: counts, the two checks, the failures by name."""
    done = [r for r in results if "us" in r]
    slower = [r for r in done if r["tuned_us"] > r["heuristic_us"]]
    exh = [r for r in done if r["exhaustive"]]
    missed = [r for r in exh if (exh_ratio(r) or 9) > 1.02]
    unver = [r for r in done if not r.get("verified")]
    nf64 = sum(bool(r.get("f64_verified")) for r in done)
    out = [f"rock-tune summary: {len(results)} cases, {len(done)} tuned, "
           f"{len(results) - len(done)} not; {len(rows)} DB rows; "
           f"{sum(r.get('timed', 0) for r in results)} configs timed, "
           f"{sum(len(r.get('failed', ())) for r in results)} failed "
           f"their check or launch; {seconds:.0f} s",
           f"tuned <= heuristic (round 2): {len(done) - len(slower)} of "
           f"{len(done)}" + "".join(
               f"; SLOWER {r['name']} "
               f"{pct(r['tuned_us'], r['heuristic_us'])}" for r in slower),
           f"within 2 % of exhaustive: {len(exh) - len(missed)} of "
           f"{len(exh)}" + "".join(
               f"; MISSED {r['name']} " +
               (pct(r['tuned_us'], r['exhaustive_us'])
                if 'exhaustive_us' in r else "(incomplete)")
               for r in missed),
           f"verified: {len(done) - len(unver)} of {len(done)} ({nf64} by "
           f"rock-run-gpu's f64 reference, the rest on the slice)" +
           "".join(f"; NOT {r['name']}" for r in unver)]
    for s in sorted({suite_of(r) for r in done}):
        rs = [r for r in done if suite_of(r) == s]
        g = math.exp(sum(math.log(r["heuristic_us"] / r["tuned_us"])
                         for r in rs) / len(rs))
        best = max(rs, key=lambda r: r["heuristic_us"] / r["tuned_us"])
        most = best["heuristic_us"] / best["tuned_us"]
        retuned = sum(r["retuned"] for r in rs)
        out.append(f"{s}: {len(rs)} cases, heuristic/tuned geomean "
                   f"{g:.3f}x, most {most:.3f}x ({best['name']}); the DB's "
                   f"config is not the heuristic's in {retuned}")
    skipped = [r for r in results if "us" not in r]
    if skipped:
        out.append("not tuned: " + "; ".join(
            f"{r['name']} ({r.get('error', '?')})" for r in skipped[:12]) +
            (f"; and {len(skipped) - 12} more" if len(skipped) > 12 else ""))
    return "\n".join(out)


def shapes_of(entries):
    """The entries grouped by shape (their variants share the inputs), the
    exhaustive (off-table) shapes first, then decode, then prefill: the
    cheap ones first, so that a run past its budget loses the fewest."""
    groups = {}
    for e in entries:
        c = e.get("case")
        k = json.dumps([c[x] for x in ("suite", "name", "B", "Hq", "Hkv",
                                       "Sq", "Sk", "D", "causal")]) \
            if c else e["name"]
        groups.setdefault(k, []).append(e)
    order = {"offtable": 0, "smoke": 0, "decode": 1}
    return sorted(groups.values(), key=lambda g: order.get(
        (g[0].get("case") or {}).get("suite"), 2))


class Sink:
    """Where results go as they come: OUT/tune.jsonl and OUT/perf-db.tsv."""

    def __init__(self, out, rt, meta, device):
        self.rt, self.meta, self.device, self.rows = rt, meta, device, []
        self.db = os.path.join(out, "perf-db.tsv")
        self.jsonl = open(os.path.join(out, "tune.jsonl"), "w")
        if os.path.exists(self.db):
            os.unlink(self.db)

    def add(self, r):
        self.jsonl.write(json.dumps(r) + "\n")
        self.jsonl.flush()
        if r.get("verified") and r.get("winner"):
            row = self.rt.db_row(r["key"], r["winner"], r["db_us"],
                                 r["space"], self.meta["rock_version"],
                                 self.device)
            self.rt.write_db(self.db, [row], self.device,
                             self.meta["rock_version"])
            self.rows.append(row)


def tune_group(gpu, a, d, work, members, sink, state):
    """Tunes the variants of one shape (they share the inputs)."""
    shape = None
    for e in members:
        state["i"] += 1
        left = a.budget - (time.time() - state["t0"])
        if state.get("lost") or left <= 0 or "error" in e:
            r = {"name": e["name"], "error": state.get("lost") or (
                "skipped (budget)" if left <= 0 else e["error"])}
        else:
            start = time.time()
            try:
                if shape is None:
                    shape = gpu.shape(e["case"])
                r = tune_entry(gpu, d, work, e, shape, a.fake_gpu,
                               min(a.case_budget, left))
            except Stop:
                raise
            except Exception as ex:
                r = {"name": e["name"], "error": short_error(ex)}
                if not gpu.healthy():
                    state["lost"] = ("skipped (CUDA context lost: "
                                     f"{r['error']})")
            r["seconds"] = round(time.time() - start, 2)
        state["results"].append(r)
        sink.add(r)
        print(case_line(state["i"], state["n"], r, state["t0"]), flush=True)
    del shape
    gpu.done()


def run_all(gpu, a, d, work, entries, sink, t0):
    """Tunes every entry, shape by shape; SIGTERM ends it early."""
    state = {"i": 0, "n": len(entries), "t0": t0, "results": []}
    try:
        for members in shapes_of(entries):
            tune_group(gpu, a, d, work, members, sink, state)
    except Stop:
        print("rock-tune: stopped (SIGTERM); the rest not tuned", flush=True)
        done = {r["name"] for r in state["results"]}
        state["results"] += [{"name": e["name"], "error": "not run (stopped)"}
                             for e in entries if e["name"] not in done]
    return state["results"]


def on_term(signum, frame):
    raise Stop()


# ---------------------------------------------------------------------------
# The device time a run needs, estimated here (rock-tune --prepare prints
# it): a kernel's time from its bytes (decode) or work (prefill) at rates
# below the H200's peaks, the space's slower configs at SLOW x, and fixed
# costs per step measured nowhere yet (hence round numbers).

EST_BW, EST_FLOPS, EST_SLOW = 3.0e12, 300e12, 2.0
EST_START_S = 20.0      # python, torch, cupy, CUDA, the tarball
EST_CONFIG_S = 0.03     # load a bundle, capture a graph (Python launches)
EST_VERIFY_S = 3.0      # one rock-run-gpu f64 verification


def est_kernel_s(c):
    B, Hq, Sq, Sk, D = (c[x] for x in ("B", "Hq", "Sq", "Sk", "D"))
    work = 4.0 * B * Hq * Sq * Sk * D * (0.5 if c["causal"] else 1)
    kv = 2.0 * B * c["Hkv"] * Sk * D * 2
    return max(kv / EST_BW, work / EST_FLOPS) + 5e-6


def est_copies(c):
    nbytes = 2 * c["B"] * c["Hkv"] * c["Sk"] * c["D"] * 2 + \
        2 * c["B"] * c["Hq"] * c["Sq"] * c["D"] * 2
    return max(1, min(64, math.ceil(4 * (60 << 20) / nbytes)))


def est_screen_s(t, copies):
    """One config's screening (Gpu.screen): GPU time plus overhead."""
    if t * 1e3 >= LONG_MS:
        return 3 * t + EST_CONFIG_S
    per = max(copies, min(64, int(SCREEN_MS / (t * 1e3)) or 1))
    return 2 * t + 4 * per * t + EST_CONFIG_S


def est_final_s(t, copies):
    """One attention_bench.time_groups of a call of t seconds."""
    if t * 1e3 < 2:
        return (5 + 16 * max(8, copies)) * t + 2 * EST_CONFIG_S
    return (2 + 5 * copies) * t + 2 * EST_CONFIG_S


def estimate(meta, case_budget):
    """(seconds, per-suite seconds) a --run of `meta` should take."""
    total, by = EST_START_S, {}
    shapes = set()
    for e in meta["cases"]:
        if "case" not in e:
            continue
        c = e["case"]
        t, copies = est_kernel_s(c), est_copies(c)
        key = (c["suite"], c["name"])
        s = 0.0
        if key not in shapes:  # inputs: f32 randn, bf16, the reference
            shapes.add(key)
            s += 0.2 + 12 * (2.0 * c["B"] * c["Hkv"] * c["Sk"] * c["D"] +
                             c["B"] * c["Hq"] * c["Sq"] * c["D"]) / 1e12
        n = 1 + sum("error" not in x and "same_as" not in x
                    for x in e["configs"])
        s += min(case_budget, n * est_screen_s(EST_SLOW * t, copies))
        s += 2 * 3 * est_final_s(t, copies)
        if 2 * c["B"] * c["Hkv"] * c["Sk"] * c["D"] * 2 <= VERIFY_BYTES and \
                4 * c["B"] * c["Hq"] * c["Sq"] * c["Sk"] * c["D"] <= \
                VERIFY_FLOPS:
            s += EST_VERIFY_S
        by[c["suite"]] = by.get(c["suite"], 0) + s
        total += s
    return total, by


def main(a, rt):
    """rock-tune --run DIR [--out OUT] [--budget S] [--case-budget S]
    [--only REGEX] [--fake-gpu]; `rt` is rock-tune itself (the DB
    writer)."""
    t0 = time.time()
    signal.signal(signal.SIGTERM, on_term)
    d = os.path.abspath(a.run)
    out = os.path.abspath(a.out or "/tmp/rock-tune-out")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(d, "manifest.json")) as f:
        meta = json.load(f)
    entries = [e for e in meta["cases"]
               if not a.only or re.search(a.only, e["name"])]
    work = os.path.join(out, "work") if a.fake_gpu else "/tmp/rock-tune-work"
    os.makedirs(work, exist_ok=True)
    with tarfile.open(os.path.join(d, "bundles.tar.gz")) as t:
        t.extractall(work)
    gpu = FakeGpu() if a.fake_gpu else Gpu()
    print(f"device: {gpu.device}, {gpu.about}; rock {meta['rock_version']}, "
          f"{meta['arch']}; {len(entries)} cases; budget {a.budget:.0f} s, "
          f"{a.case_budget:.0f} s a case; ready in {time.time() - t0:.1f} s",
          flush=True)
    sink = Sink(out, rt, meta, gpu.device)
    results = run_all(gpu, a, d, work, entries, sink, t0)
    with open(os.path.join(out, "tune.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(table(results) + "\n")
    text = summary(results, sink.rows, time.time() - t0)
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print(f"rock-tune: {len(sink.rows)} DB rows in {sink.db}; the whole "
          f"table in {out}/table.md")
    print(text)
    bad = [r for r in results if not r.get("verified") or
           r["tuned_us"] > r["heuristic_us"] or
           (r["exhaustive"] and (exh_ratio(r) or 9) > 1.02)]
    return 1 if bad else 0
