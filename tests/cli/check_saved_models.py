#!/usr/bin/env python3
"""facto --save-model DIR and --apply DIR FILE, job by job, through the command line only: a model saved
after a fit gives the points it was fitted on the fit's own labels (the apply rule is the fit's
stationarity condition, and on separated data it lands on the same argmax), held-out blobs get their
blob, a saved model reloads across processes, and what a model cannot take, or a model directory edited
by hand or by a hostile file, is refused with a message naming it. Usage: check_saved_models.py FACTO DATA_DIR WORK_DIR."""
import json
import math
import re
import os
import shutil
import struct
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
    "nomad_sparse": [os.path.join(data, "planted_corpus.mtx"), "-k", "3", "--problem", "nomad"],  # means of sparse rows
    "symnmf_sparse": [os.path.join(data, "planted_corpus.mtx"), "-k", "3", "--problem", "symnmf", "--graph", "cosine"],  # kNN rows kept sparse
    "topics": ["--problem", "topics", os.path.join(data, "planted_corpus.mtx"), "-k", "3", "--solver", "spa"],
    "communities": ["--problem", "communities", os.path.join(data, "planted_graph.mtx.gz"), "-k", "3", "--energy", "1"],
}
corpus = os.path.join(data, "planted_corpus.mtx")
new_points = {"topics": corpus, "nomad_sparse": corpus, "symnmf_sparse": corpus,
              "communities": os.path.join(data, "planted_graph.mtx.gz")}
for job, args in fits.items():
    model = f"model_{job}"
    shutil.rmtree(model, ignore_errors=True)
    run(*args, "--quiet", "--save-model", model, "--output-labels", f"fit_{job}.csv")
    points = new_points.get(job, blobs)
    out = run("--apply", model, points, "--output-labels", f"applied_{job}.csv")
    if out.returncode != 0:
        continue
    summary = json.loads(out.stdout)
    check(summary["kind"] in ("simplicial_symnmf", job.replace("_sparse", "")), f"{job}: kind {summary['kind']}")
    check(summary["unlabelled"] == 0, f"{job}: {summary['unlabelled']} points unlabelled")
    check(labels(f"applied_{job}.csv") == labels(f"fit_{job}.csv"), f"{job}: applied labels differ from the fit's")
    if points == blobs:  # the truth of the fitted blobs, through the saved model
        scored = json.loads(run("--apply", model, points, "--labels", truth).stdout)
        check(scored.get("accuracy") == 1.0, f"{job}: accuracy {scored.get('accuracy')}")

# separable NMF: new points that are convex combinations of the anchors get those weights back
anchors = [[1.0 if r == c else 0.0 for r in range(5)] for c in range(4)]
combine = lambda w: [sum(w[a] * anchors[a][r] for a in range(4)) for r in range(5)]  # noqa: E731
fitted = anchors + [combine([(i % 4 + 1) / 10, (i % 3 + 1) / 10, 0.2, 1 - (i % 4 + 1) / 10 - (i % 3 + 1) / 10 - 0.2])
                    for i in range(30)]
weights = [[0.1 * (i % 5), 0.2, 0.3, 0.5 - 0.1 * (i % 5)] for i in range(10)]
for name, rows in (("sep_fit.csv", fitted), ("sep_new.csv", [combine(w) for w in weights])):
    with open(name, "w") as f:
        f.writelines(",".join(f"{v:.17g}" for v in r) + "\n" for r in rows)
shutil.rmtree("model_sep", ignore_errors=True)
run("--problem", "self_dictionary", "sep_fit.csv", "-k", "4", "--solver", "spa", "--quiet", "--save-model", "model_sep")
if run("--apply", "model_sep", "sep_new.csv", "--output-w", "sep_rows.csv").returncode == 0:
    with open("sep_rows.csv") as f:
        got = [[float(v) for v in line.split(",")] for line in f if line.strip()]
    # the anchors come in SPA's order: compare each row's sorted weights with the planted ones
    check(all(max(abs(a - b) for a, b in zip(sorted(g), sorted(w))) < 1e-9 for g, w in zip(got, weights)),
          "self_dictionary: new points' coefficients are not their planted weights")

# separable NMF fitted on sparse points (.mtx rows, kept sparse) and applied to them sparse and densely:
# the same coefficients (the sparse points' are read from their non-zeros), the fitted anchors' own rows 1
shutil.rmtree("model_sep_sparse", ignore_errors=True)
run("--problem", "self_dictionary", corpus, "-k", "3", "--quiet", "--save-model", "model_sep_sparse")
dense_corpus = os.path.join(data, "planted_corpus_dense.csv")
if all(run("--apply", "model_sep_sparse", points, "--output-w", f"sep_sparse_{kind}.csv").returncode == 0
       for kind, points in (("mtx", corpus), ("csv", dense_corpus))):
    rows = {}
    for kind in ("mtx", "csv"):
        with open(f"sep_sparse_{kind}.csv") as f:
            rows[kind] = [[float(v) for v in line.split(",")] for line in f if line.strip()]
    check(len(rows["mtx"]) == len(rows["csv"]) == 60 and
          max(abs(a - b) for r, s in zip(rows["mtx"], rows["csv"]) for a, b in zip(r, s)) < 1e-9,
          "self_dictionary: sparse and dense new points' coefficients differ")
    check(all(max(r) > 1 - 1e-9 for r in rows["mtx"][:3]), "self_dictionary: an anchor is not its own row")

# EDM: new helix points placed from their squared distances to the embedded ones keep their own distances
helix = [(math.cos(3 * t), math.sin(3 * t), 2 * t) for t in (2 * math.pi * k / 70 for k in range(70))]
square = lambda a, b: sum((x - y) ** 2 for x, y in zip(a, b))  # noqa: E731
with open("edm_pairs.csv", "w") as f:
    f.writelines(f"{i},{j},{square(helix[i], helix[j]):.17g}\n" for i in range(60) for j in range(i + 1, 60))
with open("edm_new.mtx", "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n10 60 600\n")
    f.writelines(f"{q + 1} {j + 1} {square(helix[60 + q], helix[j]):.17g}\n" for q in range(10) for j in range(60))
shutil.rmtree("model_edm", ignore_errors=True)
run("--problem", "edm_completion", "edm_pairs.csv", "-k", "3", "--quiet", "--save-model", "model_edm",
    "--set", "tolerance=1e-10")
if run("--apply", "model_edm", "edm_new.mtx", "--output-w", "edm_rows.csv").returncode == 0:
    with open("edm_rows.csv") as f:
        placed = [[float(v) for v in line.split(",")] for line in f if line.strip()]
    worst = max(abs(square(placed[a], placed[b]) - square(helix[60 + a], helix[60 + b]))
                for a in range(10) for b in range(a + 1, 10))
    # all 1770 pairs observed: the fit stops at stationarity 1e-10 relative to squared distances of up to
    # ~160, near the exact embedding; 1e-6 absolute on the new points' squared distances leaves room for it
    check(worst < 1e-6, f"edm: the new points' distances are off by {worst}")

# --describe: each saved model lists its files' arrays, and says it holds the training points exactly
# when a feature rule keeps them (the SymNMF kinds fitted from features; NOMAD keeps cluster means)
for job in (*fits, "sep", "edm"):
    model = f"model_{job}"
    if not os.path.isdir(model):
        continue
    described = json.loads(run("--describe", model).stdout or "{}")
    names = sorted(a["name"] for a in described.get("arrays", []))
    check(names == sorted(f[:-4] for f in os.listdir(model) if f.endswith(".npy")), f"{job}: described arrays {names}")
    copies = [a["name"] for a in described.get("arrays", []) if a["training_features"]]
    check(described.get("training_features") == (job in ("simplicial", "symnmf", "symnmf_sparse")) == bool(copies),
          f"{job}: training_features {described.get('training_features')}, copies {copies}")
    check(all(a["holds"] for a in described.get("arrays", [])), f"{job}: an array without a description")
# saved without them: the factor alone, which takes affinity rows, not the features
shutil.rmtree("model_symnmf_bare", ignore_errors=True)
run(*fits["symnmf"], "--quiet", "--save-model", "model_symnmf_bare", "--without-training-features")
bare = json.loads(run("--describe", "model_symnmf_bare").stdout or "{}")
check([a["name"] for a in bare.get("arrays", [])] == ["H"] and bare.get("training_features") is False,
      f"--without-training-features: {bare}")
check("fitted points" in run("--apply", "model_symnmf_bare", blobs, fail=True).stderr,
      "a model without its feature rule took features")

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


def write_npy(path, rows):  # a float64 array as numpy.save writes it: a hand edit of a model file
    header = f"{{'descr': '<f8', 'fortran_order': False, 'shape': ({len(rows)}, {len(rows[0])}), }}"
    header = header.ljust(127 - 10) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(rows) * len(rows[0])}d", *(v for r in rows for v in r)))


# saved models edited as a hand edit or a hostile file would edit them: more neighbours than fitted points,
# an array that is a symbolic link out of the directory, a name that is a path
for edit in ("k", "link", "name"):
    shutil.rmtree(f"model_{edit}", ignore_errors=True)
    shutil.copytree("model_symnmf", f"model_{edit}")
write_npy("model_k/knn_settings.npy", [[1000, 0, 7]])
refusals.append((["--apply", "model_k", blobs], "'knn_settings' holds k = 1000"))
os.remove("model_link/H.npy")
os.symlink(os.path.abspath("model_symnmf/H.npy"), "model_link/H.npy")
refusals.append((["--apply", "model_link", blobs], "symbolic link"))
with open("model_name/model.json") as f:
    text = f.read().replace('"arrays": [', '"arrays": ["../model_symnmf/H", ')
with open("model_name/model.json", "w") as f:
    f.write(text)
refusals.append((["--apply", "model_name", blobs], "no array '../model_symnmf/H'"))
# a sparse kNN rule whose shape no longer holds its column indices
shutil.rmtree("model_csr", ignore_errors=True)
if os.path.isdir("model_symnmf_sparse"):
    shutil.copytree("model_symnmf_sparse", "model_csr")
    fitted_points = [a["rows"] for a in json.loads(run("--describe", "model_csr").stdout)["arrays"] if a["name"] == "H"][0]
    write_npy("model_csr/knn_csr_shape.npy", [[fitted_points, 1]])
    refusals.append((["--apply", "model_csr", corpus], "sparse kNN features \\('knn_csr_\\*'\\)"))
for args, pattern in refusals:
    out = run(*args, fail=True)

    check(re.search(pattern, out.stderr) is not None, f"{' '.join(args)}: stderr {out.stderr!r} lacks /{pattern}/")
    check("apply_seconds" not in out.stdout, f"{' '.join(args)}: printed a summary")

for f in failures:
    print("FAIL:", f)
print(f"saved models: {len(failures)} failures")
sys.exit(1 if failures else 0)
