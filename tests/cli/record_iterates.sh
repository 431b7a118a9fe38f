#!/usr/bin/env bash
# Records, for every solver of the CLI, a fingerprint of its run: the JSON summary without its timings,
# every progress line without its seconds, and the final iterate at 17 significant digits. A refactoring
# that must not change behaviour runs this before and after, on the same machine and thread count, and
# diffs the two directories (diff -r): any difference in any bit of any printed value shows.
# Usage: record_iterates.sh <facto CLI> <output directory>
set -euo pipefail
cli=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
blobs=$root/tests/data/blobs.csv
sat=$root/data/satimage.csv
mkdir -p "$out"
n=0
run() {
  n=$((n + 1))
  local name
  name=$(printf '%02d' $n)
  "$cli" --progress-every 1 --output-w "$out/$name.iterate.csv" "$@" > "$out/$name.json" 2> "$out/$name.progress" ||
    { echo "run $name failed: $*" >&2; cat "$out/$name.progress" >&2; exit 1; }
  sed -i -E 's/"(seconds|affinity_seconds|total_seconds)": [0-9.e+-]+/"\1": -/g' "$out/$name.json"
  sed -i -E 's/ seconds [0-9.]+$//; s/[0-9.]+ s\b/- s/g' "$out/$name.progress"
  echo "$*" > "$out/$name.command"
}
run_no_w() {
  n=$((n + 1))
  local name
  name=$(printf '%02d' $n)
  "$cli" --progress-every 1 "$@" > "$out/$name.json" 2> "$out/$name.progress" ||
    { echo "run $name failed: $*" >&2; cat "$out/$name.progress" >&2; exit 1; }
  sed -i -E 's/"(seconds|affinity_seconds|total_seconds)": [0-9.e+-]+/"\1": -/g' "$out/$name.json"
  sed -i -E 's/ seconds [0-9.]+$//; s/[0-9.]+ s\b/- s/g' "$out/$name.progress"
  echo "$*" > "$out/$name.command"
}
# simplicial_symnmf: every Frank-Wolfe variant and step rule, projected gradient, the penalty method;
# dense P from features
for v in "variant=pairwise" "variant=away" "variant=vanilla --set step_rule=open_loop" \
         "variant=vanilla --set step_rule=line_search" "variant=vanilla --set step_rule=curvature"; do
  run -k 3 "$blobs" --set $v --set max_iterations=200
  run -k 6 "$sat" --set $v --set max_iterations=40
done
run -k 3 "$blobs" --solver projected_gradient --set max_iterations=200
run -k 6 "$sat" --solver projected_gradient --set max_iterations=30
run -k 3 "$blobs" --solver penalty_method --set max_iterations=100
run -k 2 --affinity "$root/tests/data/q8_k2.csv" --set max_iterations=100
# symnmf: every solver on the sparse kNN graph and on a dense affinity, both kernels of NoLips
for s in nolips projected_gradient beta_snmf coordinate_descent sym_hals sym_anls; do
  run --problem symnmf --solver $s -k 3 "$blobs" --set max_iterations=100
  run --problem symnmf --solver $s -k 6 "$sat" --set max_iterations=20
  run --problem symnmf --solver $s -k 2 --affinity "$root/tests/data/q8_k2.csv" --set max_iterations=100
done
run --problem symnmf --solver nolips -k 3 "$blobs" --set max_iterations=100 --set reuse_products=0
run --problem symnmf --solver nolips -k 3 "$blobs" --graph cosine --set max_iterations=100
# edm_completion: both NoLips kernels and gradient descent
run --problem edm_completion -k 3 --helix 300 --set max_iterations=100
run --problem edm_completion -k 3 --helix 300 --set kernel=gram --set max_iterations=50
run --problem edm_completion -k 3 --helix 300 --solver gradient_descent --set max_iterations=100
# self_dictionary (no iterate output): MERIT's variants and warm starts, SPA, SNPA (the default)
run_no_w --problem self_dictionary --solver merit -k 10 --separable 300 --set max_iterations=300
run_no_w --problem self_dictionary --solver merit -k 10 --separable 300 --set variant=pairwise --set max_iterations=300
run_no_w --problem self_dictionary --solver merit -k 10 --separable 300 --set variant=away --set max_iterations=300
run_no_w --problem self_dictionary --solver merit -k 10 --separable 300 --set warm_start=spa --set max_iterations=100
run_no_w --problem self_dictionary --solver merit -k 10 --separable 300 --set warm_start=none --set block=7 --set max_iterations=100
run_no_w --problem self_dictionary -k 10 --separable 300 --solver spa
run_no_w --problem self_dictionary -k 10 --separable 300
# nomad: conditional gradient (both step rules), Burer-Monteiro, multi-layer
run --problem nomad -k 4 --rings 120 --solver nomad_cgm --set max_iterations=60
run --problem nomad -k 4 --rings 120 --solver nomad_cgm --set step_rule=line_search --set max_iterations=40
run --problem nomad -k 4 --rings 120 --solver nomad_cgm --set penalty_growth=none --set penalty_scaling=none --set max_iterations=40
run --problem nomad -k 4 --rings 120 --solver burer_monteiro
run --problem nomad -k 8 --rings 120 --solver burer_monteiro --layers 4
run --problem nomad -k 3 "$blobs" --solver nomad_cgm --set max_iterations=60
echo "recorded $n runs in $out"
