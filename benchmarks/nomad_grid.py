"""[TSC] (NOMAD), Fig. 8: a 2-D grid in 10 dimensions. The first two coordinates are a regular
16 x 16 grid (unit spacing), the other eight Gaussian noise of standard deviation 0.1 (the paper does
not give it); K = 32 as in the authors' test of this figure. Draws (a) NOMAD's 2-D embedding (facto's
output "embedding": the leading eigenvectors of Q - 1 1^T / n) coloured by the grid's first
coordinate, and (b) five columns of Q over the grid, each point's red level the entry's value: NOMAD
tiles the data with overlapping local patches. Prints the patches' sizes (entries above 5% of the
column's largest) and how far each patch reaches on the grid.

usage: /usr/bin/python3 benchmarks/nomad_grid.py <out dir>   (FACTO_LIBRARY may name libfacto)
Writes nomad_fig8.png."""
import pathlib
import sys

import numpy as np

import facto

SIDE, NOISE_DIMS, SIGMA, K = 16, 8, 0.1, 32
COLUMNS = (59, 84, 138, 163, 7 * SIDE + 7)  # the authors' choice of columns of Q to show


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    grid = np.array([(i, j) for i in range(SIDE) for j in range(SIDE)], dtype=float)
    rng = np.random.default_rng(0)
    X = np.hstack([grid, SIGMA * rng.standard_normal((grid.shape[0], NOISE_DIMS))])
    with facto.Problem.nomad(facto.nomad_gram(X), K) as problem, facto.Solver(problem, "nomad_cgm") as solver:
        reason = solver.solve()
        Q, embedding = solver.output("Q"), solver.output("embedding")
        print(f"n = {X.shape[0]}, K = {K}: {facto.StopReason(reason).name} after {solver.progress.iteration} "
              f"iterations, Tr(D Q) = {solver.progress.objective:.4f}")
    for c in COLUMNS:
        patch = Q[:, c] > 0.05 * Q[:, c].max()
        reach = np.abs(grid[patch] - grid[c]).max(axis=0)
        print(f"column {c} (grid point {tuple(grid[c].astype(int))}): {patch.sum()} points above 5% of its "
              f"largest entry, reaching {reach[0]:.0f} and {reach[1]:.0f} grid steps")
    plot(grid, Q, embedding, out / "nomad_fig8.png")


def plot(grid, Q, embedding, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 5))
    a.scatter(embedding[:, 0], embedding[:, 1], c=grid[:, 0], cmap="viridis", s=14)
    a.set_title("(a) NOMAD's 2-D embedding, coloured by the first grid coordinate")
    a.set_aspect("equal", adjustable="datalim")
    b.scatter(grid[:, 0], grid[:, 1], c="lightgray", s=14)
    for c in COLUMNS:
        weight = np.clip(Q[:, c] / Q[:, c].max(), 0.0, 1.0)
        shown = weight > 0.02
        colors = np.zeros((shown.sum(), 4))
        colors[:, 0] = 1.0
        colors[:, 3] = weight[shown]
        b.scatter(grid[shown, 0], grid[shown, 1], c=colors, s=40)
        b.scatter([grid[c, 0]], [grid[c, 1]], marker="x", c="k", s=30)
    b.set_title("(b) five columns of Q on the grid (red: Q_ic / max_i Q_ic)")
    b.set_aspect("equal")
    fig.suptitle("A 2-D grid in 10 dimensions ([TSC], Fig. 8)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
