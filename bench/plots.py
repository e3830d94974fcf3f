"""PNG plots of bench/run.py results (Debian's python3-matplotlib)."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def write(results, out):
    rows = [r for r in results["decode"] if "rock_gbps" in r]
    if rows:
        fig, ax = plt.subplots(figsize=(9, 4))
        labels = [f"{r['dtype']}\nB{r['B']} L{r['L'] // 1024}k" for r in rows]
        xs = range(len(rows))
        ax.bar([x - 0.3 for x in xs], [r["rock_gbps"] for r in rows], 0.2, label="rock")
        ax.bar([x - 0.1 for x in xs], [r.get("numpy_gbps", 0) for r in rows], 0.2,
               label="numpy+OpenBLAS")
        ax.bar([x + 0.1 for x in xs], [r.get("torch_gbps", 0) for r in rows], 0.2,
               label="torch")
        ax.bar([x + 0.3 for x in xs], [r.get("c_loop_gbps", 0) for r in rows], 0.2,
               label="plain C")
        if results.get("read_gbps"):
            ax.axhline(results["read_gbps"], color="k", ls="--", label="read probe")
        for pb, v in sorted((results.get("paged_read_gbps") or {}).items()):
            ax.axhline(v, color="gray", ls=":" if int(pb) > 4096 else "-.",
                       label=f"paged read probe ({int(pb) // 1024} KiB pages)")
        ax.set_xticks(list(xs), labels)
        ax.set_ylabel("GB/s (algorithmic bytes)")
        ax.set_title(f"paged GQA decode 32/8 d128 on {results['machine'].get('Model name', '?')}"
                     f", {results['machine'].get('cores')} cores")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "decode.png"), dpi=100)
    rows = [r for r in results["prefill"] if "rock_gflops" in r]
    if rows:
        fig, ax = plt.subplots(figsize=(7, 4))
        labels = [f"S{r['S']}\n{'causal' if r['causal'] else 'full'}" for r in rows]
        xs = range(len(rows))
        ax.bar([x - 0.25 for x in xs], [r["rock_gflops"] for r in rows], 0.25, label="rock")
        ax.bar(list(xs), [r["numpy_gflops"] for r in rows], 0.25, label="numpy+OpenBLAS")
        ax.bar([x + 0.25 for x in xs], [r.get("torch_gflops", 0) for r in rows], 0.25,
               label="torch")
        ax.axhline(results["sgemm_gflops"], color="k", ls="--", label="SGEMM")
        ax.set_xticks(list(xs), labels)
        ax.set_ylabel("GFLOP/s (useful)")
        ax.set_title("prefill 32/8 d128 f32")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "prefill.png"), dpi=100)
