"""rock-tune's device half: `DIR/rock-tune --run DIR` on the GPU machine.

rock-tune --prepare (tools/rock_tune.py) copies this file, the bench's
bundle launcher (attention_bench.py) and the bundles into DIR. Here, per
case (one problem: a bench/gpu decode or prefill row, or an off-table
shape), in one process on one GPU:
  1. random bf16 inputs on the GPU (attention_bench's seeds and scales),
     shared by the variants (K layouts, page sizes) of one shape, and the
     f32 SDPA reference of its check slice;
  2. screening: each distinct bundle (the heuristic's, then the space's)
     is loaded (cubins: no JIT), run once and checked against the
     reference (relative L2 error <= TOL; a config that fails is out),
     then timed briefly (CUDA events around a CUDA graph of back-to-back
     calls rotating over input copies of >= 4x the L2, 3 replays, median);
  3. finalists: the heuristic, the best of the quick space and (off-table
     cases) the best of the full space, timed again as the bench times
     (attention_bench.time_groups); the tuned config is the quick winner
     when it is faster than the heuristic there, else the heuristic's;
  4. the winner verified: the slice check above and, for problems of at
     most VERIFY_BYTES of K/V, rock-run-gpu's f64 reference on the whole
     output ([1 1 1]).
Cases are skipped once the time budget (--budget) is spent. Last, the
table (shape, heuristic, tuned and exhaustive-best µs, verdict) and the
perf DB (OUT/perf-db.tsv) and the raw results (OUT/tune.json).
"""

import json
import os
import subprocess
import tarfile
import time

import attention_bench as ab

TOL = 2e-2              # relative L2 error of a bf16 output vs f32 SDPA
SCREEN_MS = 15.0        # GPU time one screening replay aims at
VERIFY_BYTES = 256 << 20  # rock-run-gpu's f64 check up to this much K/V


def screen_time(fn, copies):
    """Median ms of one call of fn(i) over 3 replays of a CUDA graph of
    back-to-back calls (rotating i over `copies`), sized to ~SCREEN_MS."""
    torch = ab.torch
    start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
    fn(0)
    torch.cuda.synchronize()
    start.record()
    fn(1 % copies)
    stop.record()
    stop.synchronize()
    est = max(start.elapsed_time(stop), 1e-3)
    per = max(copies, min(64, int(SCREEN_MS / est) or 1))
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            with ab.cupy.cuda.ExternalStream(
                    torch.cuda.current_stream().cuda_stream):
                for j in range(per):
                    fn(j % copies)
        replay = graph.replay
    except Exception:
        torch.cuda.synchronize()
        graph = None

        def replay():
            for j in range(per):
                fn(j % copies)
    replay()
    times = []
    for _ in range(3):
        start.record()
        replay()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / per)
    del graph
    return sorted(times)[1]


class Shape:
    """The inputs of one problem shape, shared by its variants."""

    def __init__(self, case):
        torch = ab.torch
        B, Hq, Hkv, Sq, Sk, D = (case[x] for x in
                                 ("B", "Hq", "Hkv", "Sq", "Sk", "D"))
        torch.manual_seed(B * 1000003 + Sk * 31 + Sq + D)
        self.q = (torch.randn(B, Hq, Sq, D, device="cuda") * 0.3).to(
            torch.bfloat16)
        self.k = (torch.randn(B, Hkv, Sk, D, device="cuda") * 0.3).to(
            torch.bfloat16)
        self.v = torch.randn(B, Hkv, Sk, D, device="cuda").to(torch.bfloat16)
        self.copies = ab.n_copies(ab.kv_bytes(case) + 2 * B * Hq * Sq * D * 2)
        self.sel = ab.check_slice(case)
        s = self.sel
        self.ref = ab.reference(self.q[s[0], s[1]], self.k[s[0], s[2]],
                                self.v[s[0], s[2]], ab.last_keys(case))


def load(work, bundle):
    return ab.RockKernel(os.path.join(work, "bundles", bundle))


def check(kern, sets, shape):
    """Runs `kern` once on copy 0; its relative error on the check slice."""
    for st in sets:  # NaN outputs: an element never written fails
        st["kernel"][-1].fill_(float("nan"))
    kern.run(sets, 0)
    ab.torch.cuda.synchronize()
    o = ab.rock_output(kern, sets).reshape(shape.q.shape)
    return ab.rel_err(o[shape.sel[0], shape.sel[1]], shape.ref)


def screen(work, entry, shape, sets, cand):
    """Loads, checks and briefly times one candidate; fills cand."""
    try:
        kern = load(work, cand["bundle"])
        cand["err"] = check(kern, sets, shape)
        if not cand["err"] <= TOL:  # NaN fails too
            cand["error"] = f"relative error {cand['err']:.3g} > {TOL}"
            return
        cand["screen_us"] = 1e3 * screen_time(lambda i: kern.run(sets, i),
                                              shape.copies)
        del kern
    except Exception as e:  # a bundle that does not load or launch
        cand["error"] = str(e).splitlines()[0][:160]


def final_time(work, bundle, sets, shape):
    kern = load(work, bundle)
    med, best, _ = ab.time_groups(lambda i: kern.run(sets, i), shape.copies)
    del kern
    return 1e3 * med


def rock_run_gpu_verify(d, work, bundle):
    """rock-run-gpu's f64 verification of a bundle: (passed, last line)."""
    runner = os.path.join(d, "rock-run-gpu")
    try:
        p = subprocess.run([runner, os.path.join(work, "bundles", bundle)],
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, str(e)
    lines = [x for x in p.stdout.splitlines() if x.startswith("[")]
    verdict = lines[-1] if lines else (p.stderr.strip().splitlines() or
                                       ["no verdict"])[-1]
    return p.returncode == 0 and verdict == "[1 1 1]", verdict


def tune_entry(d, work, entry, shape):
    """Screens, re-times and verifies one case; returns its result."""
    case = entry["case"]
    heur = {"bundle": entry["heuristic"], "config": "heuristic",
            "quick": True}
    cands = [heur] + [c for c in entry["configs"]
                      if "error" not in c and "same_as" not in c]
    kh = load(work, heur["bundle"])
    sets = ab.rock_sets(kh, shape.q, shape.k, shape.v, shape.copies, case)
    del kh
    for c in cands:
        screen(work, entry, shape, sets, c)
    ok = [c for c in cands if "screen_us" in c]
    res = {"name": entry["name"], "key": entry["key"],
           "timed": len(ok), "failed": [c["config"] for c in cands
                                        if "error" in c],
           "duplicates": sum("same_as" in c for c in entry["configs"])}
    if heur not in ok:
        res["error"] = heur.get("error", "heuristic did not run")
        return res
    quick = min((c for c in ok if c["quick"]), key=lambda c: c["screen_us"])
    fin = {"heuristic": heur, "quick": quick}
    if entry["exhaustive"]:
        fin["full"] = min(ok, key=lambda c: c["screen_us"])
    us = {}
    for name, c in fin.items():
        same = [n for n, t in us.items() if fin[n] is c]
        us[name] = us[same[0]] if same else final_time(work, c["bundle"],
                                                       sets, shape)
    win = quick if us["quick"] < us["heuristic"] else heur
    res.update(us=us, tuned_us=min(us["quick"], us["heuristic"]),
               winner=win["config"] if win is not heur
               else entry["heuristic_config"],
               winner_bundle=win["bundle"], winner_err=win["err"])
    if ab.kv_bytes(case) <= VERIFY_BYTES:
        res["f64_verified"], res["f64_verdict"] = rock_run_gpu_verify(
            d, work, win["bundle"])
    res["verified"] = win["err"] <= TOL and res.get("f64_verified", True)
    del sets
    return res


def verdict(r):
    if "us" not in r:
        return r.get("error", "skipped")
    v = []
    v.append("at or below heuristic" if r["tuned_us"] <= r["us"]["heuristic"]
             else "SLOWER than heuristic")
    if "full" in r["us"]:
        ratio = r["tuned_us"] / r["us"]["full"]
        v.append(f"{100 * (ratio - 1):+.1f} % vs exhaustive" +
                 ("" if ratio <= 1.02 else " (MISSED 2 %)"))
    v.append(("verified " + r.get("f64_verdict", "slice")) if r["verified"]
             else "NOT VERIFIED")
    if r["failed"]:
        v.append(f"{len(r['failed'])} configs failed")
    return ", ".join(v)


def table(results):
    lines = ["| shape | configs | heuristic µs | tuned µs | exhaustive best µs "
             "| verdict |", "|---|---|---|---|---|---|"]
    for r in results:
        us = r.get("us", {})

        def f(x):
            return "-" if x is None else f"{x:.1f}"
        lines.append(f"| {r['name']} | {r.get('timed', '-')} | "
                     f"{f(us.get('heuristic'))} | {f(r.get('tuned_us'))} | "
                     f"{f(us.get('full'))} | {verdict(r)} |")
    return "\n".join(lines)


def main(a, rt):
    d = os.path.abspath(a.run)
    out = os.path.abspath(a.out or "/tmp/rock-tune-out")
    os.makedirs(out, exist_ok=True)
    t0 = time.time()
    with open(os.path.join(d, "manifest.json")) as f:
        meta = json.load(f)
    work = "/tmp/rock-tune-work"
    os.makedirs(work, exist_ok=True)
    with tarfile.open(os.path.join(d, "bundles.tar.gz")) as t:
        t.extractall(work)
    ab.load_gpu_modules()
    torch = ab.torch
    props = torch.cuda.get_device_properties(0)
    device = f"{props.name} ({props.multi_processor_count} SMs)"
    print(f"device: {device}, torch {torch.__version__}; rock "
          f"{meta['rock_version']}, {meta['arch']}; budget {a.budget:.0f} s",
          flush=True)
    entries = [e for e in meta["cases"]]
    groups = {}
    for e in entries:
        c = e.get("case")
        k = json.dumps([c[x] for x in ("suite", "name", "B", "Hq", "Hkv",
                                       "Sq", "Sk", "D", "causal")]) \
            if c else e["name"]
        groups.setdefault(k, []).append(e)
    results = []
    for members in groups.values():
        if time.time() - t0 > a.budget:
            results += [{"name": e["name"], "error": "skipped (budget)"}
                        for e in members]
            continue
        if "case" not in members[0]:
            results += [{"name": e["name"], "error": e.get("error")}
                        for e in members]
            continue
        shape = Shape(members[0]["case"])
        for e in members:
            if "error" in e:
                results.append({"name": e["name"], "error": e["error"]})
                continue
            start = time.time()
            try:
                r = tune_entry(d, work, e, shape)
            except Exception as ex:
                r = {"name": e["name"],
                     "error": str(ex).splitlines()[0][:160]}
            r["seconds"] = round(time.time() - start, 2)
            results.append(r)
            print(json.dumps(r), flush=True)
        del shape
        torch.cuda.empty_cache()
    rows = [rt.db_row(r["key"], r["winner"], r["tuned_us"], "quick",
                      meta["rock_version"], device)
            for r in results if r.get("verified") and r.get("winner")]
    db = os.path.join(out, "perf-db.tsv")
    if os.path.exists(db):
        os.unlink(db)
    rt.write_db(db, rows, device, meta["rock_version"])
    with open(os.path.join(out, "tune.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(f"rock-tune: {len(rows)} DB rows in {db}; {time.time() - t0:.0f} s")
    print(table(results))
    bad = [r for r in results if not r.get("verified") or
           r["tuned_us"] > r["us"]["heuristic"]]
    return 1 if bad else 0
