#!/usr/bin/env bash
# Builds and runs the benchmarks (not part of the tests). Arguments go to the benchmark:
# [data.csv] [seconds per solver] [k].
set -euo pipefail
cd "$(dirname "$0")/.."
bash cmake/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFACTO_SANITIZE=OFF -DFACTO_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build -j"$(nproc)" --target bench_simplicial_symnmf >/dev/null
./build/benchmarks/bench_simplicial_symnmf "$@"
