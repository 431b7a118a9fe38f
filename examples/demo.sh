#!/usr/bin/env bash
# The main job: build facto and cluster the bundled satimage data (6435 points, 6 classes) with
# Frank-Wolfe on the Gaussian kernel (features scaled to [-1, 1], the median rule's bandwidth; Zhao &
# Gordon's 1 with --bandwidth 1), run to convergence with the defaults (pairwise steps; the Frank-Wolfe
# gap at most 1e-6 of the objective at the start).
set -euo pipefail
cd "$(dirname "$0")/.."
bash cmake/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target facto_cli >/dev/null
./build/programs/facto data/satimage.csv -k 6 --labels data/satimage_labels.csv --progress-every 10 "$@"
echo "(the paper's algorithm, Zhao & Gordon's Alg. 1 with steps 2 / (t + 2), whose gap falls as 1 / t: add" \
  "--set variant=vanilla --set max_iterations=300; the CLI is build/programs/facto, facto --help)" >&2
