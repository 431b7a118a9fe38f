#!/usr/bin/env bash
# The main job: build facto and cluster the bundled satimage data (6435 points, 6 classes) with
# Frank-Wolfe on the Gaussian kernel of Zhao & Gordon (features scaled to [-1, 1], bandwidth 1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash cmake/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target facto_cli >/dev/null
exec ./build/examples/facto data/satimage.csv -k 6 --labels data/satimage_labels.csv \
  --set max_iterations=300 --progress-every 25 "$@"
