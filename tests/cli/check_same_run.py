"""Runs the facto CLI twice, as two commands given after --one and --other, each preceded by the files
its --output-w and --output-labels write, and checks that both runs tell the same story: the same stop
reason, number of iterations, accuracy, selected anchors and labels, objectives equal to `tolerance`
relative, and the written factors equal to `tolerance` relative to their largest entry (facto on one
process against facto-mpi under mpirun). The files are removed first, so a run that writes nothing
fails. W and LABELS may both be "-" for a problem that writes neither (self_dictionary): the summaries
alone are compared.

Usage: check_same_run.py TOLERANCE --one W LABELS COMMAND ... --other W LABELS COMMAND ..."""
import csv
import json
import os
import subprocess
import sys


def values(path):
    with open(path, newline="") as f:
        return [float(x) for row in csv.reader(f) for x in row]


def run(factor, labels, command):
    written = factor != "-"
    for path in (factor, labels):
        if written and os.path.exists(path):
            os.remove(path)
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    print(done.stderr[-2000:])
    print(done.stdout)
    if done.returncode != 0:
        sys.exit(f"FAIL: {command[0]} exited with {done.returncode}")
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    return summary, values(factor) if written else None, values(labels) if written else None


tolerance = float(sys.argv[1])
other = sys.argv.index("--other")
one_summary, one, one_labels = run(sys.argv[3], sys.argv[4], sys.argv[5:other])
other_summary, others, other_labels = run(sys.argv[other + 1], sys.argv[other + 2], sys.argv[other + 3:])
failures = []
if one_labels != other_labels:
    failures.append("the labels differ")
# every run reports these; the others where its problem has them (anchors for self_dictionary)
required = ["stop_reason", "iterations", "n", "k", "objective"] + (["selected", "nnz"] if one is None else [])
for key in required:
    for name, summary in (("the first", one_summary), ("the second", other_summary)):
        if key not in summary:
            failures.append(f"{name} run's summary has no {key}")
for key in ("stop_reason", "iterations", "n", "k", "accuracy", "selected", "nnz", "success"):
    if one_summary.get(key) != other_summary.get(key):
        failures.append(f"{key}: {one_summary.get(key)} and {other_summary.get(key)}")
if abs(one_summary.get("objective", 0.0) - other_summary.get("objective", 0.0)) > tolerance * abs(one_summary.get("objective", 0.0)):
    failures.append(f"objectives {one_summary.get('objective')} and {other_summary.get('objective')}")
relative = "the summaries alone compared"
if one is not None:
    largest = max(abs(x) for x in one) if one else 0.0
    difference = max(abs(a - b) for a, b in zip(one, others)) if len(one) == len(others) and one else float("inf")
    if not difference <= tolerance * largest:
        failures.append(f"factors differ by {difference:.3g} of {largest:.3g}")
    else:
        relative = f"factors within {difference / largest if largest else 0.0:.2e} relative"
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print(f"same run: {relative}")
