"""Plots the traces written by bench_symnmf and bench_edm as PNG (paper 004 Fig. 1 and Fig. 2).

usage: /usr/bin/python3 benchmarks/plot.py <dir with *_trace.csv> <output dir>
Needs Debian's python3-matplotlib (installed by benchmarks/run.sh)."""
import csv
import pathlib
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path, value):
    series = defaultdict(lambda: ([], []))
    with open(path) as f:
        for row in csv.DictReader(f):
            key = row["solver"] + (f" (seed {row['seed']})" if row.get("seed", "1") != "1" else "")
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


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
