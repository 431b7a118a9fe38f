#!/usr/bin/env bash
# Grows the committed corpus: fuzz_capi for `seconds` (default 600) from tests/fuzz/corpus, then merges
# what it found back into it (only inputs that add coverage are kept). Needs a build of the harness:
#   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DFACTO_FUZZ=ON
#   cmake --build build-fuzz --target fuzz_capi
set -euo pipefail
cd "$(dirname "$0")/../.."
found=$(mktemp -d)
trap 'rm -rf "$found"' EXIT
./build-fuzz/tests/fuzz_capi -max_total_time="${1:-600}" -max_len=512 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$found" tests/fuzz/corpus
./build-fuzz/tests/fuzz_capi -merge=1 tests/fuzz/corpus "$found"
