"""rock-tune's device half: `DIR/rock-tune --run DIR` on the GPU machine.

rock-tune --prepare (tools/rock_tune.py) copies this file, the bench's
bundle launcher (attention_bench.py) and the bundles into DIR. Here, per
case (one problem: a bench/gpu decode or prefill row, or an off-table
shape), in one process on one GPU:
  1. random bf16 inputs on the GPU (attention_bench's scales), shared by
     the variants (K layouts, page sizes) of one shape, and the f32 SDPA
     reference of its check slice;
  2. screening: each distinct bundle (the heuristic's, then the space's)
     is loaded (cubins: no JIT), run once and checked against the
     reference (relative L2 error <= TOL; a config that fails is out and
     reported), then timed briefly: CUDA events around a CUDA graph of
     back-to-back calls (about SCREEN_MS of GPU time) rotating over input
     copies of >= 4x the L2, 3 replays, median;
  3. finalists: the heuristic, the best of the quick space and (off-table
     cases) the best of the full space, timed again as the bench times
     (attention_bench.time_groups); the tuned config (the DB's) is the
     fastest finalist there, the heuristic's own when nothing beats it;
     the quick winner's gap to the full space's best is reported;
  4. the winner verified: the slice check above and, for problems of at
     most VERIFY_BYTES of K/V and VERIFY_FLOPS of work, rock-run-gpu's f64
     reference on the whole output ([1 1 1]; its host fill and reference
     cost seconds, hence the bound).
Cases are skipped once the time budget (--budget) is spent. Last, the
table (shape, heuristic, tuned and exhaustive-best µs, verdict), the perf
DB (OUT/perf-db.tsv) and the raw results (OUT/tune.json).

`--fake-gpu` runs the same orchestration without a GPU (FakeGpu: times
derived from each bundle's bytes, every check passing): the lit test of
the round trip (test/Tools/rock-tune-gpu-roundtrip.mlir) uses it.
"""

import hashlib
import json
import os
import subprocess
import tarfile
import time

TOL = 2e-2              # relative L2 error of a bf16 output vs f32 SDPA
SCREEN_MS = 4.0         # GPU time one screening replay aims at
VERIFY_BYTES = 128 << 20  # rock-run-gpu's f64 check up to this much K/V
VERIFY_FLOPS = 2e9      # and this much work (the host reference's)


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
        """Median ms of one call over 3 replays of a CUDA graph of
        back-to-back calls rotating over the copies, ~SCREEN_MS each."""
        ab, copies = self.ab, shape["copies"]

        def fn(i):
            kern.run(sets, i)
        est = max(ab.one_call_ms(fn, 1 % copies), 1e-3)
        per = max(copies, min(64, int(SCREEN_MS / est) or 1))
        replay, _, graph = ab.capture(fn, per, copies)
        replay()
        times = ab.replay_ms(replay, per, 3)
        del graph
        return times[1]

    def final(self, kern, sets, shape):
        med, _, _ = self.ab.time_groups(lambda i: kern.run(sets, i),
                                        shape["copies"])
        return med

    def kv_bytes(self, case):
        return self.ab.kv_bytes(case)

    def done(self):
        self.torch.cuda.empty_cache()


class FakeGpu(Gpu):
    """No GPU: a kernel's time is a number derived from its bundle's bytes
    (so configs differ), checks pass. Only for testing the orchestration."""

    def __init__(self):
        self.device, self.about = "fake GPU (rock-tune --fake-gpu)", "no GPU"

    def shape(self, case):
        return {"case": case}

    def sets(self, path, shape):
        return None

    def load(self, path):
        with open(path, "rb") as f:
            return int(hashlib.sha1(f.read()).hexdigest()[:6], 16)

    def check(self, kern, sets, shape):
        return 0.0

    def screen(self, kern, sets, shape):
        return 0.05 + kern / 2**24

    def final(self, kern, sets, shape):
        return 0.05 + kern / 2**24

    def kv_bytes(self, case):
        return 2 * case["B"] * case["Hkv"] * case["Sk"] * case["D"] * 2

    def done(self):
        pass


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
    except Exception as e:  # a bundle that does not load or launch
        cand["error"] = str(e).splitlines()[0][:160] if str(e) else repr(e)


def rock_run_gpu_verify(d, work, bundle, fake):
    """rock-run-gpu's f64 verification of a bundle: (passed, verdict)."""
    if fake:
        return True, "[1 1 1] (fake)"
    runner = os.environ.get("ROCK_RUN_GPU", os.path.join(d, "rock-run-gpu"))
    try:
        p = subprocess.run([runner, os.path.join(work, "bundles", bundle)],
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, str(e)
    lines = [x for x in p.stdout.splitlines() if x.startswith("[")]
    verdict = lines[-1] if lines else (p.stderr.strip().splitlines() or
                                       ["no verdict"])[-1]
    return p.returncode == 0 and verdict == "[1 1 1]", verdict


def finalists(gpu, work, entry, ok, heur, shape, sets):
    """The heuristic, the quick winner and (exhaustive) the full winner,
    each timed once as the bench times (shared when they are the same)."""
    quick = min((c for c in ok if c["quick"]), key=lambda c: c["screen_us"])
    fin = {"heuristic": heur, "quick": quick}
    if entry["exhaustive"]:
        fin["full"] = min(ok, key=lambda c: c["screen_us"])
    us = {}
    for name, c in fin.items():
        same = [n for n in us if fin[n] is c]
        if same:
            us[name] = us[same[0]]
            continue
        kern = gpu.load(os.path.join(work, "bundles", c["bundle"]))
        us[name] = 1e3 * gpu.final(kern, sets, shape)
        del kern
    return fin, us


def tune_entry(gpu, d, work, entry, shape, fake):
    """Screens, re-times and verifies one case; returns its result."""
    heur = {"bundle": entry["heuristic"], "config": "heuristic",
            "quick": True}
    cands = [heur] + [c for c in entry["configs"]
                      if "error" not in c and "same_as" not in c]
    sets = gpu.sets(os.path.join(work, "bundles", heur["bundle"]), shape)
    for c in cands:
        screen_one(gpu, work, shape, sets, c)
    ok = [c for c in cands if "screen_us" in c]
    res = {"name": entry["name"], "key": entry["key"], "timed": len(ok),
           "failed": [f"{c['config']}: {c['error']}" for c in cands
                      if "error" in c],
           "duplicates": sum("same_as" in c for c in entry["configs"])}
    if heur not in ok:
        res["error"] = heur.get("error", "the heuristic did not run")
        return res
    fin, us = finalists(gpu, work, entry, ok, heur, shape, sets)
    # The DB's winner: the fastest finalist as re-timed (the heuristic's own
    # config when nothing beat it); where the full space was searched, its
    # best is a finalist too, and the quick winner's gap to it is reported.
    name = min(us, key=lambda n: (us[n], n != "heuristic"))
    win = fin[name]
    res.update(us=us, tuned_us=us[name], space="full" if "full" in us
               else "quick",
               winner=win["config"] if win is not heur
               else entry["heuristic_config"],
               winner_schedule=win.get("schedule",
                                       entry["heuristic_schedule"]),
               winner_err=win["err"])
    c = entry["case"]
    if gpu.kv_bytes(c) <= VERIFY_BYTES and \
            4 * c["B"] * c["Hq"] * c["Sq"] * c["Sk"] * c["D"] <= VERIFY_FLOPS:
        res["f64_verified"], res["f64_verdict"] = rock_run_gpu_verify(
            d, work, win["bundle"], fake)
    res["verified"] = win["err"] <= TOL and res.get("f64_verified", True)
    return res


def verdict(r):
    """The table's verdict, compact (the device tool returns the last 12 KB
    of output)."""
    if "us" not in r:
        return r.get("error") or "skipped"
    v = ["<= heur" if r["tuned_us"] <= r["us"]["heuristic"] else "SLOWER"]
    if "full" in r["us"]:
        full = r["us"]["full"]
        ratio = r["tuned_us"] / full
        quick = min(r["us"]["quick"], r["us"]["heuristic"]) / full
        v.append(f"exh {100 * (ratio - 1):+.1f}%" +
                 (" ok" if ratio <= 1.02 else " MISSED"))
        v.append(f"quick {100 * (quick - 1):+.1f}%")
    v.append(("f64 " + r["f64_verdict"]) if "f64_verdict" in r and
             r["verified"] else "slice ok" if r["verified"] else
             "NOT VERIFIED")
    if r["failed"]:
        v.append(f"{len(r['failed'])} failed")
    return ", ".join(v)


def table(results):
    def f(x):
        return "-" if x is None else f"{x:.1f}"
    lines = ["| shape | n | heuristic µs | tuned µs | exhaustive µs | "
             "verdict |", "|---|---|---|---|---|---|"]
    for r in results:
        us = r.get("us", {})
        lines.append(f"| {r['name']} | {r.get('timed', '-')} | "
                     f"{f(us.get('heuristic'))} | {f(r.get('tuned_us'))} | "
                     f"{f(us.get('full'))} | {verdict(r)} |")
    return "\n".join(lines)


def shapes_of(entries):
    """The entries grouped by shape (their variants share the inputs)."""
    groups = {}
    for e in entries:
        c = e.get("case")
        k = json.dumps([c[x] for x in ("suite", "name", "B", "Hq", "Hkv",
                                       "Sq", "Sk", "D", "causal")]) \
            if c else e["name"]
        groups.setdefault(k, []).append(e)
    return list(groups.values())


def run_all(gpu, d, work, entries, budget, fake, t0):
    """Tunes every entry, shape by shape, the exhaustive (off-table) ones
    first: the 2 % check needs them, and a run past its budget loses the
    last ones."""
    results = []
    groups = shapes_of(entries)
    groups.sort(key=lambda g: not any(e.get("exhaustive") for e in g))
    for members in groups:
        if time.time() - t0 > budget:
            results += [{"name": e["name"], "error": "skipped (budget)"}
                        for e in members]
            continue
        shape = gpu.shape(members[0]["case"]) if "case" in members[0] \
            else None
        for e in members:
            if time.time() - t0 > budget:
                results.append({"name": e["name"],
                                "error": "skipped (budget)"})
                continue
            if "error" in e or shape is None:
                results.append({"name": e["name"],
                                "error": e.get("error", "not prepared")})
                continue
            start = time.time()
            try:
                r = tune_entry(gpu, d, work, e, shape, fake)
            except Exception as ex:
                r = {"name": e["name"],
                     "error": str(ex).splitlines()[0][:160]}
            r["seconds"] = round(time.time() - start, 2)
            results.append(r)
            print(f"{e['name']}: {r.get('timed', 0)} timed, "
                  f"{r.get('tuned_us', 0):.1f} us, {r['seconds']} s, "
                  f"{time.time() - t0:.0f} s in", flush=True)
        del shape
        gpu.done()
    return results


def main(a, rt):
    """rock-tune --run DIR [--out OUT] [--budget S] [--fake-gpu]; `rt` is
    rock-tune itself (the DB writer)."""
    d = os.path.abspath(a.run)
    out = os.path.abspath(a.out or "/tmp/rock-tune-out")
    os.makedirs(out, exist_ok=True)
    t0 = time.time()
    with open(os.path.join(d, "manifest.json")) as f:
        meta = json.load(f)
    work = os.path.join(out, "work") if a.fake_gpu else "/tmp/rock-tune-work"
    os.makedirs(work, exist_ok=True)
    with tarfile.open(os.path.join(d, "bundles.tar.gz")) as t:
        t.extractall(work)
    gpu = FakeGpu() if a.fake_gpu else Gpu()
    print(f"device: {gpu.device}, {gpu.about}; rock {meta['rock_version']}, "
          f"{meta['arch']}; budget {a.budget:.0f} s", flush=True)
    results = run_all(gpu, d, work, meta["cases"], a.budget, a.fake_gpu, t0)
    rows = [rt.db_row(r["key"], r["winner"], r["tuned_us"], r["space"],
                      meta["rock_version"], gpu.device)
            for r in results if r.get("verified") and r.get("winner")]
    db = os.path.join(out, "perf-db.tsv")
    if os.path.exists(db):
        os.unlink(db)
    rt.write_db(db, rows, gpu.device, meta["rock_version"])
    with open(os.path.join(out, "tune.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(f"rock-tune: {len(rows)} DB rows in {db}; {time.time() - t0:.0f} s")
    print(table(results))
    bad = [r for r in results if not r.get("verified") or
           r["tuned_us"] > r["us"]["heuristic"]]
    return 1 if bad else 0
