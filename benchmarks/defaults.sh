#!/usr/bin/env bash
# Every solver with its default parameters on the five instances users meet first: the demo
# (satimage), MERIT's Table I (N = 200, M = 80, K = 60, 10 dB), NOMAD's two rings (n = 200, K = 16),
# SymNMF on TDT2 ([DAB]'s similarity matrix, r = 30, from the benchmark data directory) and EDM
# completion on the Helix (n = 2000, 10% of the distances). Prints one Markdown row per run: the stop reason, iterations, solver seconds
# against the fastest solver of the instance in the same run, the measures the stopping rules test
# and the job's own quality measure. Not part of the tests.
#   bash benchmarks/defaults.sh [tdt2_similarity.mtx]   (default: $FACTO_DATA/symnmf/, else benchmarks/data/symnmf/)
set -euo pipefail
cd "$(dirname "$0")/.."
bash cmake/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target facto_cli >/dev/null
tdt2=${1:-${FACTO_DATA:-benchmarks/data}/symnmf/tdt2_similarity.mtx}
labels=${tdt2%_similarity.mtx}_labels.csv
cli=./build/programs/facto
runs=()
add() { runs+=("$*"); }
for s in frank_wolfe projected_gradient; do
  add "satimage|$s|data/satimage.csv -k 6 --labels data/satimage_labels.csv --solver $s"
done
for s in merit spa; do add "MERIT Table I|$s|--problem self_dictionary --separable 200 --features 80 -k 60 --solver $s"; done
for s in nomad_cgm burer_monteiro; do add "two rings|$s|--problem nomad --rings 200 -k 16 --solver $s"; done
if [ ! -f "$tdt2" ]; then
  echo "TDT2 skipped: $tdt2 is missing (bash benchmarks/fetch_data.sh gets it)" >&2
else
  for s in nolips projected_gradient beta_snmf coordinate_descent sym_hals sym_anls; do
    add "TDT2|$s|$tdt2 --affinity --problem symnmf -k 30 --labels $labels --solver $s"
  done
fi
for s in "nolips" "nolips --set kernel=gram" "gradient_descent"; do
  add "Helix 2000|$s|--problem edm_completion --helix 2000 -k 3 --solver $s"
done
results=$(mktemp)
for run in "${runs[@]}"; do
  IFS='|' read -r instance solver arguments <<<"$run"
  # shellcheck disable=SC2086
  summary=$($cli $arguments --quiet)
  printf '%s\t%s\t%s\n' "$instance" "$solver" "$summary" >> "$results"
done
/usr/bin/env python3 - "$results" <<'EOF'
import json, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
fastest = {}
for instance, solver, summary in rows:
    s = json.loads(summary)
    fastest[instance] = min(fastest.get(instance, float("inf")), s["seconds"])
print("| instance | solver | stop | iterations | seconds | vs fastest | stationarity (tolerance) | feasibility "
      "(tolerance) | quality |")
print("|---|---|---|---|---|---|---|---|---|")
for instance, solver, summary in rows:
    s = json.loads(summary)
    feasibility = (f"{s['feasibility']:.1e} ({s['feasibility_tolerance']:.0e})" if "feasibility" in s else "-")
    quality = ("accuracy %.4f" % s["accuracy"] if "accuracy" in s else "nRMSE %.1e" % s["nrmse"] if "nrmse" in s
               else "success %s" % s["success"] if "success" in s else "Tr(D Q) %.3f" % s["objective"])
    print(f"| {instance} | {solver} | {s['stop_reason'].replace('FACTO_', '')} | {s['iterations']} | "
          f"{s['seconds']:.2f} | {s['seconds'] / fastest[instance]:.1f} | {s['stationarity']:.1e} "
          f"({s['tolerance']:.0e}) | {feasibility} | {quality} |")
EOF
rm -f "$results"
