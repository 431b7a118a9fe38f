#!/usr/bin/env python3
"""Seeds tests/fuzz/corpus/models: a model of every kind (and each feature rule, and NOMAD's two ways of
taking new points) fitted on tiny data by the command line and saved, each directory packed as the
harness reads it (fuzz_models.c: records of [file byte][2-byte little-endian length][contents]).
Usage: seed_models.py FACTO CORPUS_DIR (FACTO: the built command line, build/programs/facto)."""
import hashlib
import math
import os
import shutil
import subprocess
import sys
import tempfile

facto, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
# the harness's names, in its order: the file byte's low five bits index them
names = ["model.json", "W", "H", "X", "topics", "idf", "extension", "pure", "labels", "embedding", "within",
         "centers", "center_labels", "rbf_features", "rbf_scaling", "rbf_settings", "knn_features",
         "knn_settings", "knn_scale", "knn_degree", "knn_scaling", "knn_csr_indptr", "knn_csr_indices", "knn_csr_data",
         "knn_csr_shape"]


def write_rows(path, rows):
    with open(path, "w") as f:
        f.writelines(",".join(f"{v:.17g}" for v in r) + "\n" for r in rows)


def pack(directory):
    records = b""
    for index, name in enumerate(names):
        path = os.path.join(directory, name if index == 0 else name + ".npy")
        if os.path.exists(path):
            with open(path, "rb") as f:
                contents = f.read()
            records += bytes([index]) + len(contents).to_bytes(2, "little") + contents
    return records


work = tempfile.mkdtemp()
os.chdir(work)
# 12 points in 3 blobs, their 12 x 12 Gram matrix, 8 helix points' distances, 8 separable points
points = [(c + 0.1 * math.cos(i), 2 * c + 0.1 * math.sin(i)) for c in range(3) for i in range(4)]
write_rows("points.csv", points)
gram = [[sum(a * b for a, b in zip(p, q)) for q in points] for p in points]
write_rows("gram.csv", gram)
helix = [(math.cos(t), math.sin(t), t / 3) for t in (k / 2 for k in range(8))]
write_rows("pairs.csv", [(i, j, sum((a - b) ** 2 for a, b in zip(helix[i], helix[j])))
                         for i in range(8) for j in range(i + 1, 8)])
write_rows("separable.csv", [[1.0 if r == c else 0.5 if r == (c + 1) % 3 else 0.0 for r in range(3)] + [0.2]
                             for c in range(8)])
# 12 documents of 3 topics' words, sparse (a cosine kNN graph's features, which its model keeps sparse)
with open("documents.mtx", "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n12 9 24\n")
    f.writelines(f"{d + 1} {3 * (d % 3) + t + 1} {1 + (d + t) % 4}\n" for d in range(12) for t in range(2))
fits = {
    "simplicial_gaussian": ["points.csv", "-k", "3", "--bandwidth", "2"],
    "simplicial_affinity": ["gram.csv", "--affinity", "-k", "3"],
    "symnmf_knn": ["points.csv", "-k", "3", "--problem", "symnmf", "--neighbors", "3"],
    "symnmf_cosine": ["points.csv", "-k", "2", "--problem", "symnmf", "--graph", "cosine"],
    "symnmf_sparse": ["documents.mtx", "-k", "3", "--problem", "symnmf", "--graph", "cosine", "--neighbors", "3"],
    "edm": ["pairs.csv", "-k", "2", "--problem", "edm_completion"],
    "self_dictionary": ["separable.csv", "-k", "3", "--problem", "self_dictionary", "--solver", "spa"],
    "topics": [os.path.join(data, "planted_corpus.mtx"), "-k", "3", "--problem", "topics", "--solver", "spa"],
    "communities": [os.path.join(data, "planted_graph.mtx.gz"), "-k", "3", "--problem", "communities",
                    "--energy", "1", "--solver", "spa"],
    "nomad_points": ["points.csv", "-k", "3", "--problem", "nomad"],
    "nomad_gram": ["gram.csv", "--affinity", "-k", "3", "--problem", "nomad"],
}
os.makedirs(corpus, exist_ok=True)
for name, args in fits.items():
    done = subprocess.run([facto, *args, "--quiet", "--save-model", name], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{name}: {done.stderr}")
    records = pack(name)
    with open(os.path.join(corpus, hashlib.sha1(records).hexdigest()), "wb") as f:
        f.write(records)
    print(f"{name}: {len(records)} bytes")
shutil.rmtree(work)
