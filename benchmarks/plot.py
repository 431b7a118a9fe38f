"""Plots the traces written by bench_symnmf and bench_edm as PNG ([DAB] Fig. 1 and Fig. 2),
bench_nomad's Fig. 15 table (nomad_fig15.csv: seconds vs n) and Fashion-MNIST embedding
(nomad_fashion_embedding.csv) ([TSC]), and bench_frank_wolfe_variants' objective against time
(fw_variants.csv: one PNG per instance, fw_variants_<instance>.png), and bench_separable_jobs' [NFW]
results (nfw_memory.csv: peak memory and time against N, Figs. 6-7; nfw_topics.csv: Table II's
three scores against K, one PNG per dataset, and nfw_table2.md, the trials' means and standard
deviations beside the paper's Table II, benchmarks/nfw_table2.tsv), and bench_zg's
traces (zg_trace.csv: Zhao & Gordon's Fig. 2, log objective against log seconds, and Fig. 3,
log(f - f*) against log seconds with f* each method's own final objective; one PNG each per dataset).

usage: /usr/bin/python3 benchmarks/plot.py <dir with *_trace.csv> <output dir>
Needs Debian's python3-matplotlib (installed by benchmarks/run.sh)."""
import csv
import pathlib
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path, value):
    series = defaultdict(lambda: ([], []))
    with open(path) as f:
        for row in csv.DictReader(f):
            seed = row.get("seed", "1")
            key = row["solver"] + ("" if seed == "1" else " (mean of the starts)" if seed == "mean" else f" (seed {seed})")
            series[key][0].append(float(row["seconds"]))
            series[key][1].append(max(float(row[value]), 1e-16))
    return series


def main(source, target):
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("*_trace.csv")):
        edm = path.name.startswith("helix")
        value = "nrmse" if edm else "relative_gap"
        fig, ax = plt.subplots(figsize=(5.5, 4))
        for name, (t, v) in read(path, value).items():
            ax.semilogy(t, v, label=name)
        ax.set_xlabel("seconds")
        ax.set_ylabel("normalized RMSE over all distances" if edm else "(f - f_min) / f_min")
        ax.set_title(path.name.replace("_trace.csv", ""))
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(target / path.name.replace("_trace.csv", ".png"), dpi=110)
        plt.close(fig)
    nomad_plots(source, target)
    variant_plots(source, target)
    nfw_plots(source, target)
    zg_plots(source, target)


def zg_plots(source, target):
    path = source / "zg_trace.csv"
    if not path.exists():
        return
    runs = defaultdict(lambda: defaultdict(lambda: ([], [])))
    with open(path) as f:
        for row in csv.DictReader(f):
            t, v = runs[row["dataset"]][row["method"]]
            t.append(float(row["seconds"]))
            v.append(float(row["objective"]))
    for dataset, series in runs.items():
        for figure in (2, 3):
            fig, ax = plt.subplots(figsize=(5.5, 4))
            for index, (name, (t, v)) in enumerate(series.items()):  # a method keeps its colour in both
                if figure == 2:
                    points = [(s, f) for s, f in zip(t, v) if s > 0]
                else:  # Fig. 3: PGD and Frank-Wolfe only; the last point (f = f*) has no logarithm
                    if name == "penalty method":
                        continue
                    points = [(s, f - v[-1]) for s, f in zip(t[:-1], v[:-1]) if s > 0 and f > v[-1]]
                if points:
                    ax.loglog([s for s, _ in points], [f for _, f in points], label=name, color=f"C{index}")
            ax.set_xlabel("seconds")
            ax.set_ylabel("objective f(W)" if figure == 2 else "f(W) - f*, f* the method's final f")
            ax.set_title(f"{dataset} ([ZG] Fig. {figure})")
            ax.legend(fontsize=8)
            ax.grid(True, which="both", alpha=0.3)
            fig.tight_layout()
            fig.savefig(target / f"zg_fig{figure}_{dataset}.png", dpi=110)
            plt.close(fig)


def nfw_plots(source, target):
    memory = source / "nfw_memory.csv"
    if memory.exists():
        series = defaultdict(lambda: ([], [], []))
        with open(memory) as f:
            for row in csv.DictReader(f):
                if row["status"] == "ok":
                    series[row["method"]][0].append(int(row["N"]))
                    series[row["method"]][1].append(max(float(row["peak_mib"]), 0.1))
                    series[row["method"]][2].append(max(float(row["seconds_per_iteration"]), 1e-5))
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for name, (n, mib, seconds) in series.items():
            axes[0].loglog(n, mib, "o-", label=name)
            axes[1].loglog(n, seconds, "o-", label=name)
        axes[0].set_ylabel("peak resident memory of the solve (MiB, fresh process)")
        axes[1].set_ylabel("seconds per iteration")
        for ax in axes:
            ax.set_xlabel("N (TDT2 vocabulary kept, K = 10)")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle("[NFW], Figs. 6-7: memory and time against N")
        fig.tight_layout()
        fig.savefig(target / "nfw_memory.png", dpi=110)
        plt.close(fig)
    topics = source / "nfw_topics.csv"
    if topics.exists():
        table = defaultdict(lambda: defaultdict(list))
        for row in topic_rows(topics):
            for score in ("coherence", "similarity_count", "accuracy_kmeans"):
                table[(row["dataset"], score)][(row["method"], int(row["K"]))].append(float(row[score]))
        for dataset in sorted({key[0] for key in table}):
            fig, axes = plt.subplots(1, 3, figsize=(13, 4))
            for ax, score in zip(axes, ("coherence", "similarity_count", "accuracy_kmeans")):
                values = table[(dataset, score)]
                for method in sorted({m for m, _ in values}):
                    ks = sorted(k for m, k in values if m == method)
                    ax.plot(ks, [sum(values[(method, k)]) / len(values[(method, k)]) for k in ks], "o-", label=method)
                ax.set_xlabel("K")
                ax.set_title(score.replace("_", " "))
                ax.grid(True, alpha=0.3)
            axes[0].legend(fontsize=7)
            fig.suptitle(f"[NFW], Table II on {dataset} (mean over trials)")
            fig.tight_layout()
            fig.savefig(target / f"nfw_topics_{dataset}.png", dpi=110)
            plt.close(fig)
        nfw_table(topics, target)


def topic_rows(path):
    """The complete rows of nfw_topics.csv (a run killed mid-row leaves a partial one)."""
    with open(path) as f:
        return [row for row in csv.DictReader(f) if row["seconds"] is not None]


def paper_table2():
    """[NFW]'s Table II as {(dataset, score, method, K): mean over its 50 trials}, from
    benchmarks/nfw_table2.tsv (the published table, one value per row)."""
    path = pathlib.Path(__file__).resolve().parent / "nfw_table2.tsv"
    with open(path) as f:
        rows = csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        return {(r["dataset"], r["score"], r["method"], int(r["K"])): float(r["value"]) for r in rows}


def nfw_table(topics, target):
    """nfw_table2.md: per dataset, K and method, facto's mean +- standard deviation over the trials
    / the paper's mean."""
    paper = paper_table2()
    paper_name = {"XRAY (SNPA)": "XRAY", "FastAnchor (authors' topics)": "FastAnchor"}
    rows = defaultdict(list)
    for row in topic_rows(topics):
        rows[(row["dataset"], int(row["K"]), row["method"])].append(row)
    methods = ["MERIT", "MERIT(0)", "SPA", "XRAY (SNPA)", "FastAnchor", "FastAnchor (authors' topics)",
               "FastGradient"]
    out = []
    for dataset in ("tdt2", "reuters21578"):
        ks = sorted({k for (d, k, _) in rows if d == dataset})
        if not ks:
            continue
        out += [f"**{dataset}**: facto's mean ± standard deviation over the trials / the paper's mean over 50", "",
                "| K | method | trials | coherence | similarity count | accuracy (k-means) | accuracy (argmax) "
                "| seconds |", "|---|---|---|---|---|---|---|---|"]
        for k in ks:
            for method in methods:
                runs = rows.get((dataset, k, method))
                if not runs:
                    continue

                def cell(score, form):
                    v = [float(r[score]) for r in runs]
                    text = form % statistics.mean(v) + (" ± " + form % statistics.stdev(v) if len(v) > 1 else "")
                    reference = paper.get((dataset, score, paper_name.get(method, method), k))
                    return text + (" / " + form % reference if reference is not None else "")
                argmax = statistics.mean(float(r["accuracy_argmax"]) for r in runs)
                seconds = statistics.mean(float(r["seconds"]) for r in runs)
                out.append(f"| {k} | {method} | {len(runs)} | {cell('coherence', '%.1f')} | "
                           f"{cell('similarity_count', '%.2f')} | {cell('accuracy_kmeans', '%.2f')} | "
                           f"{argmax:.2f} | {seconds:.1f} |")
        out.append("")
    (target / "nfw_table2.md").write_text("\n".join(out))


def variant_plots(source, target):
    path = source / "fw_variants.csv"
    if not path.exists():
        return
    instances = defaultdict(lambda: defaultdict(lambda: ([], [])))
    with open(path) as f:
        for row in csv.DictReader(f):
            best = float(row["best"])
            t, v = instances[row["instance"]][row["solver"]]
            t.append(float(row["seconds"]))
            v.append(max((float(row["objective"]) - best) / abs(best), 1e-16))
    for instance, series in instances.items():
        fig, ax = plt.subplots(figsize=(5.5, 4))
        for name, (t, v) in series.items():
            ax.semilogy(t, v, label=name)
        ax.axhline(1e-8, color="gray", linestyle=":", linewidth=1)
        ax.set_xlabel("seconds")
        ax.set_ylabel("(f - f*) / f*, f* the best of all runs")
        ax.set_title(instance)
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(target / f"fw_variants_{instance}.png", dpi=110)
        plt.close(fig)


def nomad_plots(source, target):
    fig15 = source / "nomad_fig15.csv"
    if fig15.exists():
        series = defaultdict(lambda: ([], []))
        with open(fig15) as f:
            for row in csv.DictReader(f):
                series[row["method"]][0].append(int(row["n"]))
                series[row["method"]][1].append(float(row["seconds"]))
        fig, ax = plt.subplots(figsize=(5.5, 4))
        for name, (n, t) in series.items():
            ax.loglog(n, t, "o-", label=name)
        ax.set_xlabel("n (two noisy rings, K = 16)")
        ax.set_ylabel("seconds")
        ax.set_title("NOMAD: time to solve ([TSC], Fig. 15)")
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(target / "nomad_fig15.png", dpi=110)
        plt.close(fig)
    embedding = source / "nomad_fashion_embedding.csv"
    if embedding.exists():
        with open(embedding) as f:
            rows = [(float(r["x"]), float(r["y"]), float(r["intensity"])) for r in csv.DictReader(f)]
        fig, ax = plt.subplots(figsize=(5.5, 5))
        points = ax.scatter([r[0] for r in rows], [r[1] for r in rows], c=[r[2] for r in rows], s=3, cmap="viridis")
        fig.colorbar(points, ax=ax, label="mean pixel intensity")
        ax.set_title("NOMAD embedding of one Fashion-MNIST class (K = 128)")
        ax.set_aspect("equal", adjustable="datalim")
        fig.tight_layout()
        fig.savefig(target / "nomad_fashion_embedding.png", dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
