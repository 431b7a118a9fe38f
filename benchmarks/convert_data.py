#!/usr/bin/env python3
"""Converts the raw upstream benchmark files into the layout facto's benchmarks read, and checks
files against benchmarks/data.sha256.

  python3 convert_data.py --raw RAW --data DIR                       # convert RAW -> DIR
  python3 convert_data.py --check raw --raw RAW --data DIR           # verify the raw downloads
  python3 convert_data.py --check data --raw RAW --data DIR          # verify the outputs

data.sha256 is in sha256sum format. Paths starting with raw/ name files of the raw cache (RAW);
the others name files of the data directory (DIR). For a .gz file the listed SHA-256 is that of
its decompressed content, since gzip headers differ between tools.
Needs only Debian's python3-numpy, python3-scipy and python3-h5py.
"""
import argparse
import gzip
import hashlib
import os
import sys

import h5py
import numpy as np
import scipy.io

SUMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data.sha256")

# Raw cache layout: one folder per upstream repository (fetch_data.sh maps each to its URL).
QUARTIC = "QuarticLowRankOptimization"  # RaduAlexandruDragomir/..., SymNMF/data
GEONMF = "XueyuMao.github.io"  # XueyuMao/..., data/coauthorship
NMFLIB = "NMFLibrary"  # hiroyuki-kasai/..., applications/*
MERIT = "Frank-Wolfe-based-method-for-SD-MMV"  # XiaoFuLab/..., exp_real/topic_modeling/data

# The K-topic subsets the MERIT code runs on: K in 2..10, 15, 20, 25; trials 1..50.
SUBSET_KS = list(range(2, 11)) + [15, 20, 25]
SUBSET_TRIALS = range(1, 51)

DENGCAI = {  # output prefix (= dataset name in the subsets file) -> (raw .mat, raw subset folder, source)
    "tdt2": (NMFLIB + "/TDT2.mat", MERIT + "/TDT2",
             "hiroyuki-kasai/NMFLibrary@ed44132 applications/document_clustering/TDT2.mat "
             "(=XiaoFuLab/Frank-Wolfe-based-method-for-SD-MMV "
             "exp_real/topic_modeling/data/TDT2/TDT2.mat, same git blob 1dc10d24)"),
    "reuters21578": (NMFLIB + "/Reuters21578.mat", MERIT + "/reuters",
                     "hiroyuki-kasai/NMFLibrary@ed44132 applications/topic_extraction/Reuters21578.mat "
                     "(=XiaoFuLab/Frank-Wolfe-based-method-for-SD-MMV "
                     "exp_real/topic_modeling/data/reuters/Reuters21578.mat, same git blob e2b74b58)"),
}


# ---------------------------------------------------------------- writing
def write_text(path, lines):
    """Writes lines (each without its newline) to path; gzip-compressed when path ends in .gz."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(line + "\n" for line in lines).encode()
    if path.endswith(".gz"):
        with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            gz.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)


def mm_lines(field, symmetry, comments, shape, nnz, entries):
    """Matrix Market coordinate file: banner, % comments, 'm n nnz', then 'i j value' lines."""
    yield "%%%%MatrixMarket matrix coordinate %s %s" % (field, symmetry)
    yield from ("% " + c for c in comments)
    yield "%d %d %d" % (shape[0], shape[1], nnz)
    yield from entries


def csc_entries(indptr, indices, values, fmt):
    """Entries of a 0-based CSC matrix, column by column, as 1-based 'row col value' lines."""
    for j in range(len(indptr) - 1):
        for k in range(indptr[j], indptr[j + 1]):
            yield fmt % (indices[k] + 1, j + 1, values[k])


# ---------------------------------------------------------------- SymNMF similarity graphs
def read_jld_sparse(path):
    """Reads a JLD (HDF5) file written by Julia's JLD package whose /M is a
    SparseArrays.SparseMatrixCSC{Float64,Int64}: a compound (m_, n_, colptr_, rowval_, nzval_)
    whose three arrays (1-based colptr/rowval) are object references into /_refs.
    Returns (shape, 0-based indptr, 0-based indices, values, labels)."""
    with h5py.File(path, "r") as f:
        m = f["M"][()]
        indptr = f[m["colptr_"]][()] - 1
        indices = f[m["rowval_"]][()] - 1
        values = f[m["nzval_"]][()]
        return (int(m["m_"]), int(m["n_"])), indptr, indices, values, f["labels"][()]


def read_jld_dense(path):
    """Reads a JLD (HDF5) file whose /M is a dense Julia Float64 matrix (stored column-major,
    so HDF5 holds its transpose) and /labels an Int64 vector. Returns (M, labels)."""
    with h5py.File(path, "r") as f:
        return f["M"][()].T, f["labels"][()]


def symnmf_sparse(raw, out, name):
    """<name>.jld -> symnmf/<name>_similarity.mtx (Matrix Market, column order) + <name>_labels.csv."""
    shape, indptr, indices, values, labels = read_jld_sparse(os.path.join(raw, QUARTIC, name + ".jld"))
    comment = ("%s normalized kNN similarity graph (Kuang et al. 2015 sec. 7.1), "
               "from QuarticLowRankOptimization SymNMF/data" % name)
    entries = csc_entries(indptr, indices, values, "%d %d %.17g")
    write_text(os.path.join(out, "symnmf", name + "_similarity.mtx"),
               mm_lines("real", "general", [comment], shape, len(values), entries))
    write_text(os.path.join(out, "symnmf", name + "_labels.csv"), ("%d" % v for v in labels))


def symnmf_dense(raw, out, name):
    """<name>.jld -> symnmf/<name>_similarity.csv (dense, one row a line) + <name>_labels.csv."""
    m, labels = read_jld_dense(os.path.join(raw, QUARTIC, name + ".jld"))
    write_text(os.path.join(out, "symnmf", name + "_similarity.csv"),
               (",".join("%.17g" % v for v in row) for row in m))
    write_text(os.path.join(out, "symnmf", name + "_labels.csv"), ("%d" % v for v in labels))


# ---------------------------------------------------------------- DBLP co-authorship graphs
def read_edges(path):
    """Reads a GeoNMF DBLP<i>_adjacency.txt: one edge a line, 'row<TAB>col', 1-based,
    lower triangle only (row > col), sorted by column. Returns an int array of shape (m, 2)."""
    return np.loadtxt(path, dtype=np.int64, ndmin=2)


def read_community(path):
    """Reads a GeoNMF DBLP<i>_community.txt: nonzero memberships, 'node community weight' a line,
    1-based, weight printed with six decimals. Returns (nodes, communities, weight strings)."""
    with open(path) as f:
        rows = [line.split() for line in f if line.strip()]
    return [int(r[0]) for r in rows], [int(r[1]) for r in rows], [r[2] for r in rows]


def dblp(raw, out, i):
    """DBLP<i>_{adjacency,community}.txt -> merit/dblp<i>_adjacency.mtx.gz (symmetric, lower
    triangle, upstream edge order) + merit/dblp<i>_membership.csv.gz (dense N x K, weights verbatim)."""
    edges = read_edges(os.path.join(raw, GEONMF, "DBLP%d_adjacency.txt" % i))
    nodes, comms, weights = read_community(os.path.join(raw, GEONMF, "DBLP%d_community.txt" % i))
    n, k = max(nodes), max(comms)
    comments = ["DBLP%d co-authorship graph (Mao, Sarkar, Chakrabarti ICML 2017), unweighted, no self-loops" % i,
                "source: XueyuMao/XueyuMao.github.io@ed34f4f data/coauthorship/DBLP%d_adjacency.txt" % i]
    entries = ("%d %d 1" % (r, c) for r, c in edges)
    write_text(os.path.join(out, "merit", "dblp%d_adjacency.mtx.gz" % i),
               mm_lines("integer", "symmetric", comments, (n, n), len(edges), entries))
    table = [["0"] * k for _ in range(n)]
    for r, c, w in zip(nodes, comms, weights):
        table[r - 1][c - 1] = w
    write_text(os.path.join(out, "merit", "dblp%d_membership.csv.gz" % i), (",".join(row) for row in table))


# ---------------------------------------------------------------- TDT2 / Reuters-21578 (Deng Cai)
def read_dengcai(path):
    """Reads Deng Cai's processed corpus (MATLAB v5 .mat): fea = sparse documents x terms counts,
    gnd = topic of each document, and for Reuters21578 trainIdx/testIdx (1-based)."""
    return scipy.io.loadmat(path)


def read_subset(path):
    """Reads one of Deng Cai's <K>Class/<trial>.mat files (MATLAB v5): sampleIdx = 1-based rows of
    the full matrix, zeroIdx = 1-based terms dropped from the subset. Returns both as int arrays."""
    s = scipy.io.loadmat(path)
    return s["sampleIdx"].ravel().astype(np.int64), s["zeroIdx"].ravel().astype(np.int64)


def doc_term(out, prefix, fea, source):
    """fea -> merit/<prefix>_doc_term.mtx.gz: integer counts, column by column."""
    fea = fea.tocsc()
    fea.sort_indices()
    counts = fea.data.astype(np.int64)
    assert np.array_equal(counts, fea.data), "non-integer counts in " + prefix
    comments = ["Deng Cai processed %s: rows=documents, cols=terms, raw term counts (fea)" % prefix,
                "source: " + source]
    entries = csc_entries(fea.indptr, fea.indices, counts, "%d %d %d")
    write_text(os.path.join(out, "merit", prefix + "_doc_term.mtx.gz"),
               mm_lines("integer", "general", comments, fea.shape, len(counts), entries))


def labels(out, prefix, d):
    """gnd (and the train/test split when present) -> merit/<prefix>_labels.csv.gz."""
    gnd = d["gnd"].ravel()
    if "trainIdx" not in d:
        rows = ("%d,%d" % (i + 1, g) for i, g in enumerate(gnd))
        write_text(os.path.join(out, "merit", prefix + "_labels.csv.gz"), ["doc,label", *rows])
        return
    train = set(d["trainIdx"].ravel().tolist())
    rows = ("%d,%d,%s" % (i + 1, g, "train" if i + 1 in train else "test") for i, g in enumerate(gnd))
    write_text(os.path.join(out, "merit", prefix + "_labels.csv.gz"), ["doc,label,split", *rows])


def min_df(fea, sample, zero):
    """The document-frequency threshold of a subset: the m such that zeroIdx is exactly the set of
    terms occurring in fewer than m of the subset's documents (smallest such m)."""
    df = np.asarray((fea[sample - 1] > 0).sum(axis=0)).ravel()
    dropped = np.zeros(len(df), dtype=bool)
    dropped[zero - 1] = True
    m = int(df[dropped].max()) + 1 if dropped.any() else 0
    assert np.array_equal(dropped, df < m), "zeroIdx is not a document-frequency cut"
    return m


def subsets(raw, out, prefix, fea, gnd, folder):
    """<K>Class/<trial>.mat files -> merit/<prefix>_kclass_subsets.csv.gz, one line per (K, trial):
    dataset,K,trial,min_df,n_docs,classes (in order of first appearance),sampleIdx (upstream order)."""
    csr = fea.tocsr()
    lines = ["# dataset,K,trial,min_df,n_docs,classes(space-sep),"
             "sampleIdx(1-based row of full matrix, original order, space-sep)"]
    for k in SUBSET_KS:
        for t in SUBSET_TRIALS:
            sample, zero = read_subset(os.path.join(raw, folder, "%dClass" % k, "%d.mat" % t))
            classes = list(dict.fromkeys(gnd[sample - 1].tolist()))
            assert len(classes) == k, "%s %dClass/%d.mat has %d classes" % (folder, k, t, len(classes))
            lines.append("%s,%d,%d,%d,%d,%s,%s" % (prefix, k, t, min_df(csr, sample, zero), len(sample),
                                                   " ".join(map(str, classes)), " ".join(map(str, sample))))
    write_text(os.path.join(out, "merit", prefix + "_kclass_subsets.csv.gz"), lines)


def dengcai(raw, out, prefix):
    """One Deng Cai corpus -> its doc-term matrix, labels and K-class subsets."""
    mat, folder, source = DENGCAI[prefix]
    d = read_dengcai(os.path.join(raw, mat))
    doc_term(out, prefix, d["fea"], source)
    labels(out, prefix, d)
    subsets(raw, out, prefix, d["fea"], d["gnd"].ravel(), folder)


def convert(raw, out):
    """Builds every output file of the data directory from the raw cache."""
    for name in ("tdt2", "reuters"):
        symnmf_sparse(raw, out, name)
    symnmf_dense(raw, out, "orl")
    for i in range(1, 6):
        dblp(raw, out, i)
    for prefix in DENGCAI:
        dengcai(raw, out, prefix)


# ---------------------------------------------------------------- checksums
def read_sums(path):
    """Reads a sha256sum-format list ('<hex>  <path>' lines, # comments). Returns [(hex, path)]."""
    with open(path) as f:
        rows = [line.split(None, 1) for line in f if line.strip() and not line.startswith("#")]
    return [(h, p.strip().lstrip("*")) for h, p in rows]


def sha256_of(path):
    """SHA-256 of a file's content, of its decompressed content for .gz files."""
    h = hashlib.sha256()
    with (gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check(which, raw, out, sums):
    """Verifies the raw (which='raw') or output (which='data') files listed in sums; prints one
    line per missing or mismatching file. Returns the number of failures."""
    failures = 0
    for want, rel in read_sums(sums):
        if rel.startswith("raw/") != (which == "raw"):
            continue
        path = os.path.join(raw, rel[4:]) if which == "raw" else os.path.join(out, rel)
        if not os.path.isfile(path):
            print("MISSING  %s" % path, file=sys.stderr)
            failures += 1
        elif sha256_of(path) != want:
            print("MISMATCH %s (SHA-256 differs from %s)" % (path, os.path.basename(sums)), file=sys.stderr)
            failures += 1
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--raw", required=True, help="raw cache: the upstream files")
    p.add_argument("--data", required=True, help="data directory the benchmarks read")
    p.add_argument("--check", choices=("raw", "data"), help="verify instead of converting")
    p.add_argument("--sums", default=SUMS, help="checksum list (default: %(default)s)")
    a = p.parse_args()
    if a.check is None:
        convert(a.raw, a.data)
        return 0
    failures = check(a.check, a.raw, a.data, a.sums)
    if failures:
        print("%s files: %d FAILED" % (a.check, failures), file=sys.stderr)
        return 1
    print("%s files: all checksums match" % a.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
