"""Fashion-MNIST grown to 10^6 images, as MNIST-8M was grown from MNIST (Loosli, Canu & Bottou 2007,
"Training invariant support vector machines using selective sampling"): the 70,000 images (Debian's
dataset-fashion-mnist), then copies of them in passes over all 70,000, each copy shifted by up to 2
pixels in each direction (not 0, 0), its intensity scaled by a factor in [0.85, 1.15] and perturbed by
Gaussian noise of standard deviation 6 grey levels, clipped to [0, 255]; every copy keeps its image's
label. The same seed writes the same bytes.

    python3 benchmarks/million.py write DIR [n] [seed]   DIR/images.npy (n x 784 uint8), DIR/labels.csv
    python3 benchmarks/million.py run DIR [n] [seed]     writes them if missing, then SymNMF on the
                                                         kNN graph by the CLI: seconds, peak memory,
                                                         accuracy beside scikit-learn's MiniBatchKMeans
    python3 benchmarks/million.py nomad DIR [n] [seed] [seconds]
                                                         the same images, NOMAD on them as points by the
                                                         CLI's defaults (burer_monteiro; the points in
                                                         single precision), stopped at `seconds` (1500):
                                                         its stop, objective, feasibility, seconds, peak
                                                         memory, accuracy, beside MiniBatchKMeans
"""
import os
import resource
import subprocess
import sys
import time

import numpy as np

from holdout import fashion

SHIFT = 2


def shifted(images, dx, dy):
    """28 x 28 images moved dx columns right and dy rows down, the pixels moved in from outside 0."""
    out = np.zeros_like(images)
    h, w = 28, 28
    src = images.reshape(-1, h, w)
    dst = out.reshape(-1, h, w)
    dst[:, max(dy, 0):h + min(dy, 0), max(dx, 0):w + min(dx, 0)] = \
        src[:, max(-dy, 0):h + min(-dy, 0), max(-dx, 0):w + min(-dx, 0)]
    return out


def perturbed(images, rng):
    """Each image shifted, scaled and noised as the module says (one random draw per image)."""
    shifts = [(dx, dy) for dx in range(-SHIFT, SHIFT + 1) for dy in range(-SHIFT, SHIFT + 1) if (dx, dy) != (0, 0)]
    which = rng.integers(len(shifts), size=len(images))
    factor = rng.uniform(0.85, 1.15, size=(len(images), 1))
    noise = rng.normal(0.0, 6.0, size=images.shape)
    out = np.empty_like(images)
    for s, (dx, dy) in enumerate(shifts):
        rows = np.flatnonzero(which == s)
        out[rows] = shifted(images[rows], dx, dy)
    return np.clip(np.rint(out * factor + noise), 0, 255).astype(np.uint8)


def write(directory, n, seed):
    X, y = fashion(70000)
    base = np.rint(X * 255.0).astype(np.uint8)
    os.makedirs(directory, exist_ok=True)
    images = np.lib.format.open_memmap(os.path.join(directory, "images.npy"), mode="w+", dtype=np.uint8,
                                       shape=(n, 784))
    labels = np.empty(n, dtype=np.int64)
    rng = np.random.default_rng(seed)
    done = min(n, len(base))
    images[:done], labels[:done] = base[:done], y[:done]
    while done < n:
        count = min(len(base), n - done)
        images[done:done + count] = perturbed(base[:count], rng)
        labels[done:done + count] = y[:count]
        done += count
    images.flush()
    np.savetxt(os.path.join(directory, "labels.csv"), labels, fmt="%d")
    print(f"wrote {n} images ({n * 784 / 1e6:.0f} MB) and labels to {directory}, seed {seed}")


def peak_of(command):
    """The command's wall seconds, its resident peak (MB) and its standard output."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    return seconds, peak, done.stdout, done.stderr


def run(directory, n, seed, problem="symnmf", seconds_limit=None):
    images, labels = os.path.join(directory, "images.npy"), os.path.join(directory, "labels.csv")
    if not (os.path.exists(images) and np.load(images, mmap_mode="r").shape[0] == n):
        write(directory, n, seed)
    cli = os.environ.get("FACTO_CLI", "build/programs/facto")
    found_path = os.path.join(directory, f"facto_{problem}_labels.csv")
    command = [cli, "--problem", problem, "-k", "10", "--labels", labels, "--output-labels", found_path, images]
    if seconds_limit:
        command[1:1] = ["--set", f"time_limit={seconds_limit}"]
    seconds, peak, out, err = peak_of(command)
    print(out[-3000:])
    print(err[-1500:])
    from sklearn.cluster import MiniBatchKMeans
    from sklearn.metrics import normalized_mutual_info_score
    import facto
    y = np.loadtxt(labels, dtype=np.int64)

    def scores(found):
        return f"accuracy {facto.clustering_accuracy(found, y):.4f}, NMI {normalized_mutual_info_score(y, found):.4f}"

    what = "SymNMF on the kNN graph" if problem == "symnmf" else "NOMAD on the points"
    print(f"facto CLI, {what} of {n} images: {seconds:.1f} s, peak {peak:.0f} MB, "
          f"{scores(np.loadtxt(found_path, dtype=np.int64))}")
    X = np.load(images, mmap_mode="r")
    start = time.perf_counter()
    found = MiniBatchKMeans(10, random_state=0, n_init=3, batch_size=4096).fit_predict(X)
    print(f"scikit-learn MiniBatchKMeans: {time.perf_counter() - start:.1f} s, {scores(found)}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("write", "run", "nomad"):
        sys.exit(__doc__)
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 1000000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    if sys.argv[1] == "nomad":
        run(sys.argv[2], size, seed, "nomad", float(sys.argv[5]) if len(sys.argv) > 5 else 1500.0)
    else:
        (write if sys.argv[1] == "write" else run)(sys.argv[2], size, seed)
