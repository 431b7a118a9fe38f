#!/usr/bin/env bash
# Grows a committed corpus: fuzz_<harness> (capi, readers or models) for `seconds` (default 600) from
# tests/fuzz/corpus/<harness>, then merges what it found back into it (only inputs that add coverage
# are kept). Needs a build of the harnesses:
#   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DFACTO_FUZZ=ON
#   cmake --build build-fuzz --target fuzz_capi fuzz_readers fuzz_models
# Usage: grow.sh <capi|readers|models> [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
harness=./build-fuzz/tests/fuzz_$1 corpus=tests/fuzz/corpus/$1
max_len=512
[ "$1" = models ] && max_len=4096 # a model directory: model.json and a few .npy files
found=$(mktemp -d) scratch=$(mktemp -d)
trap 'rm -rf "$found" "$scratch"' EXIT
TMPDIR="$scratch" "$harness" -max_total_time="${2:-600}" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$found" "$corpus"
TMPDIR="$scratch" "$harness" -merge=1 -max_len="$max_len" "$corpus" "$found"
