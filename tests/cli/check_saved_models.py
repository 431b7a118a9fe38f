#!/usr/bin/env python3
"""facto --save-model DIR and --apply DIR FILE, job by job, through the command line only: a model saved
after a fit gives the points it was fitted on the fit's own labels (the apply rule is the fit's
stationarity condition, and on separated data it lands on the same argmax), held-out blobs get their
blob, a saved model reloads across processes, and what a model cannot take is refused with a message
naming it. Usage: check_saved_models.py FACTO DATA_DIR WORK_DIR."""
import json
import re
import os
import shutil
import subprocess
import sys

facto, data, work = (os.path.abspath(a) for a in sys.argv[1:4])
failures = []


def run(*args, fail=False):
    done = subprocess.run([facto, *args], capture_output=True, text=True)
    if fail != (done.returncode != 0):
        failures.append(f"{' '.join(args)}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    return done


def labels(path):
    with open(path) as f:
        return [int(float(line)) for line in f if line.strip()]


def check(condition, what):
    if not condition:
        failures.append(what)


os.makedirs(work, exist_ok=True)
os.chdir(work)
blobs, truth = os.path.join(data, "blobs.csv"), os.path.join(data, "blobs_labels.csv")
fits = {
    "simplicial": [blobs, "-k", "3", "--bandwidth", "4", "--scale", "none"],
    "symnmf": [blobs, "-k", "3", "--problem", "symnmf"],
    "nomad": [blobs, "-k", "3", "--problem", "nomad", "--solver", "burer_monteiro"],
    "topics": ["--problem", "topics", os.path.join(data, "planted_corpus.mtx"), "-k", "3", "--solver", "spa"],
    "communities": ["--problem", "communities", os.path.join(data, "planted_graph.mtx.gz"), "-k", "3", "--energy", "1"],
}
new_points = {"topics": os.path.join(data, "planted_corpus.mtx"), "communities": os.path.join(data, "planted_graph.mtx.gz")}
for job, args in fits.items():
    model = f"model_{job}"
    shutil.rmtree(model, ignore_errors=True)
    run(*args, "--quiet", "--save-model", model, "--output-labels", f"fit_{job}.csv")
    points = new_points.get(job, blobs)
    out = run("--apply", model, points, "--output-labels", f"applied_{job}.csv")
    if out.returncode != 0:
        continue
    summary = json.loads(out.stdout)
    check(summary["kind"] in ("simplicial_symnmf", job), f"{job}: kind {summary['kind']}")
    check(summary["unlabelled"] == 0, f"{job}: {summary['unlabelled']} points unlabelled")
    check(labels(f"applied_{job}.csv") == labels(f"fit_{job}.csv"), f"{job}: applied labels differ from the fit's")
    if points == blobs:  # the truth of the fitted blobs, through the saved model
        scored = json.loads(run("--apply", model, points, "--labels", truth).stdout)
        check(scored.get("accuracy") == 1.0, f"{job}: accuracy {scored.get('accuracy')}")

# refusals, each naming what is wrong
refusals = [
    (["--apply", "model_simplicial", os.path.join(data, "symmetric4.csv")], "features"),  # 4 columns, fitted on 3
    (["--apply", "model_topics", blobs], "vocabulary"),  # another model's kind of data
    (["--apply", "no_such_model", blobs], "saved model"),
    (["--apply", "model_simplicial"], "needs FILE"),
]
with open("nan.csv", "w") as f:
    f.write("1,2,3\n4,nan,6\n")
refusals.append((["--apply", "model_simplicial", "nan.csv"], "nan|NaN"))
for args, pattern in refusals:
    out = run(*args, fail=True)

    check(re.search(pattern, out.stderr) is not None, f"{' '.join(args)}: stderr {out.stderr!r} lacks /{pattern}/")
    check("apply_seconds" not in out.stdout, f"{' '.join(args)}: printed a summary")

for f in failures:
    print("FAIL:", f)
print(f"saved models: {len(failures)} failures")
sys.exit(1 if failures else 0)
