"""Runs the facto CLI twice, as two commands given after --one and --other, each followed by the file
its --output-w writes, and checks that both runs tell the same story: the same stop reason and number
of iterations, objectives equal to `tolerance` relative, and the written factors equal to `tolerance`
relative to their largest entry (facto on one process against facto-mpi under mpirun).

Usage: check_same_run.py TOLERANCE --one FILE COMMAND ... --other FILE COMMAND ..."""
import csv
import json
import subprocess
import sys


def run(output, command):
    done = subprocess.run(command, capture_output=True, text=True)
    print(done.stderr[-2000:])
    print(done.stdout)
    if done.returncode != 0:
        sys.exit(f"FAIL: {command[0]} exited with {done.returncode}")
    with open(output, newline="") as f:
        values = [float(x) for row in csv.reader(f) for x in row]
    return json.loads(done.stdout.strip().splitlines()[-1]), values


tolerance = float(sys.argv[1])
other = sys.argv.index("--other")
one_summary, one = run(sys.argv[3], sys.argv[4:other])
other_summary, others = run(sys.argv[other + 1], sys.argv[other + 2:])
failures = []
for key in ("stop_reason", "iterations", "n", "k"):
    if one_summary[key] != other_summary[key]:
        failures.append(f"{key}: {one_summary[key]} and {other_summary[key]}")
if abs(one_summary["objective"] - other_summary["objective"]) > tolerance * abs(one_summary["objective"]):
    failures.append(f"objectives {one_summary['objective']} and {other_summary['objective']}")
largest = max(abs(x) for x in one)
difference = max(abs(a - b) for a, b in zip(one, others)) if len(one) == len(others) else float("inf")
if difference > tolerance * largest:
    failures.append(f"factors differ by {difference:.3g} of {largest:.3g}")
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print(f"same run: factors within {difference / largest:.2e} relative")
