#!/usr/bin/env bash
# Grows a committed corpus: fuzz_<harness> (capi or readers) for `seconds` (default 600) from
# tests/fuzz/corpus/<harness>, then merges what it found back into it (only inputs that add coverage
# are kept). Needs a build of the harnesses:
#   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DFACTO_FUZZ=ON
#   cmake --build build-fuzz --target fuzz_capi fuzz_readers
# Usage: grow.sh <capi|readers> [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
harness=./build-fuzz/tests/fuzz_$1 corpus=tests/fuzz/corpus/$1
found=$(mktemp -d)
trap 'rm -rf "$found"' EXIT
"$harness" -max_total_time="${2:-600}" -max_len=512 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  "$found" "$corpus"
"$harness" -merge=1 "$corpus" "$found"
