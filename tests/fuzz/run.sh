#!/usr/bin/env bash
# A bounded libFuzzer run: a harness from its corpus for `seconds` (at most 2,000,000 executions), inputs of
# at most `max_len` bytes (default 512), new inputs into a temporary directory; exits non-zero on any
# finding (crash, sanitizer report, leak, timeout).
# Usage: run.sh <fuzz_capi|fuzz_readers|fuzz_models> <corpus dir> <seconds> [max_len]
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/scratch" # the readers' and models' harnesses write their files to TMPDIR
TMPDIR="$work/scratch" "$1" -max_total_time="$3" -runs=2000000 -max_len="${4:-512}" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" "$2" 2>&1 | tail -n 12
