#!/usr/bin/env bash
# Builds and runs the benchmarks (not part of the tests).
#   bash benchmarks/run.sh [--data DIR] NAME [args]
# Data that no Debian package holds ([DAB]'s similarity matrices, [NFW]'s corpora and graphs) is
# read from the benchmark data directory: --data DIR, else $FACTO_DATA, else benchmarks/data, which
# `bash benchmarks/fetch_data.sh` fills (benchmarks/README.md lists every file and its source).
#   bash benchmarks/run.sh simplicial [data.csv] [seconds per solver] [k]   (Zhao & Gordon, satimage)
#   bash benchmarks/run.sh zg [seconds cap per solver] [dataset ...]       ([ZG] Sec. 5:
#                                                                            Table 1's data, Figs. 2-3)
#   bash benchmarks/run.sh symnmf [seconds per solver] [seeds] [datasets]  ([DAB] Fig. 1: 20 starts,
#                                                                            the authors' 20/20/10 s;
#                                                                            datasets e.g. tdt2,orl)
#   bash benchmarks/run.sh edm [n] [seconds per solver]                    ([DAB] Fig. 2)
#   bash benchmarks/run.sh merit [trials] [iterations at N = 1e5]          ([NFW] Table I, Fig. 2,
#                                                                            memory and time vs N)
#   bash benchmarks/run.sh merit_sizes [seconds per solve]                (MERIT's defaults against N:
#                                                                            Table I's model at N = 200 to
#                                                                            50,000, the TDT2 and Reuters
#                                                                            subsets, all of TDT2,
#                                                                            DBLP1-5)
#   bash benchmarks/run.sh variants [seconds per solver] [seeds]           (away-step and pairwise
#                                                                            Frank-Wolfe against vanilla
#                                                                            and projected gradient)
#   bash benchmarks/run.sh nomad [n_max] [fashion outer iterations]        ([TSC]: the peer
#                                                                            comparison, Fig. 15, the
#                                                                            Fashion-MNIST scale run,
#                                                                            Figs. 8 and 10)
#   bash benchmarks/run.sh nomad_exact [seconds]                           (the SDP's optimum to
#                                                                            1e-6 on small rings against
#                                                                            coinor-csdp, and the peer's
#                                                                            two rings, n = 1000)
#   bash benchmarks/run.sh nomad_points [seconds] [sphere,lbfgsb,spg]      (NOMAD on Fashion-MNIST's
#                                                                            points, D never formed, 10,000
#                                                                            and 70,000 images, K = 10, 64,
#                                                                            against Lloyd's k-means)
#   bash benchmarks/run.sh nomad_bound [iterations]                       (the certificates in
#                                                                            linear memory on Fashion-MNIST
#                                                                            against the optimum (n = 1000)
#                                                                            and two feasible points)
#   bash benchmarks/run.sh nfw_real [trials] [FastGradient trials]         ([NFW]'s real data: Table II on
#                                                                            TDT2 and Reuters, Tables III-IV
#                                                                            on DBLP1-5, memory against N;
#                                                                            FACTO_RESUME=1 adds to the
#                                                                            last run's Table II trials)
#   bash benchmarks/run.sh holdout [holdout|select_k]                      (fit on 80%, apply to 20%:
#                                                                            held-out accuracy against a
#                                                                            refit and scikit-learn, time
#                                                                            per sample; choosing k)
#   bash benchmarks/run.sh sparse [quick|full] [METHOD,...]               (SymNMF, NOMAD and separable NMF on
#                                                                            TF-IDF given sparse and dense,
#                                                                            beside KMeans and NMF: seconds,
#                                                                            memory, labels)
#   bash benchmarks/run.sh million [n] [seed]                             (Fashion-MNIST grown to n images,
#                                                                            10^6 by default, written to the
#                                                                            data directory's million/; SymNMF
#                                                                            on their kNN graph by the CLI)
#   bash benchmarks/run.sh million_nomad [n] [seed] [seconds]             (the same images, NOMAD on them as
#                                                                            points by the CLI, stopped at
#                                                                            seconds, 1500 by default)
#   bash benchmarks/run.sh knn [quick|full]                              (exact and approximate nearest
#                                                                            neighbours for the kNN graph:
#                                                                            Fashion-MNIST, 10,000 or 70,000)
#   bash benchmarks/run.sh topics [quick|full|heldout]                   (the topic job's defaults beside
#                                                                            scikit-learn's NMF and LDA on
#                                                                            [NFW]'s TDT2 and Reuters subsets;
#                                                                            full: trials 1-10, all of TDT2;
#                                                                            heldout: K = 5, 20, trials 11-20)
#   bash benchmarks/run.sh panel [quick|full] [clustering|separable]     (the defaults beside scikit-learn's
#                                                                            KMeans, SpectralClustering and NMF on
#                                                                            wine, breast-cancer, digits,
#                                                                            satimage, Reuters TF-IDF; full:
#                                                                            Fashion-MNIST 10k and 70k, TDT2)
#   bash benchmarks/run.sh distributed [graph.mtx r ... | nomad]         (distributed SymNMF per rank
#                                                                            on P = 1 .. 1024, compute measured,
#                                                                            communication modelled for three
#                                                                            layouts, and NOMAD by points (alone
#                                                                            with "nomad"); facto-mpi on 1 and 2
#                                                                            ranks)
# Traces and PNG plots go to build/benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --data ]; then
  FACTO_DATA=$(cd "$2" && pwd)
  shift 2
fi
export FACTO_DATA=${FACTO_DATA:-$PWD/benchmarks/data}
bash cmake/install-deps.sh
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import matplotlib" 2>/dev/null ||
    apt-get install -y -q python3-matplotlib >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFACTO_SANITIZE=OFF -DFACTO_BUILD_BENCHMARKS=ON >/dev/null
which="${1:-simplicial}"
shift || true
results=build/benchmarks/results
mkdir -p "$results"
case "$which" in
  simplicial)
    cmake --build build -j"$(nproc)" --target bench_simplicial_symnmf >/dev/null
    ./build/benchmarks/bench_simplicial_symnmf "$@" ;;
  zg)
    bash benchmarks/zg_data.sh build/benchmarks/data
    cmake --build build -j"$(nproc)" --target bench_zg >/dev/null
    ./build/benchmarks/bench_zg build/benchmarks/data "$results" "$@" ;;
  symnmf)
    cmake --build build -j"$(nproc)" --target bench_symnmf >/dev/null
    ./build/benchmarks/bench_symnmf "${1:-0}" "$results" "${2:-20}" "${3:-tdt2,reuters,orl}" ;;
  edm)
    cmake --build build -j"$(nproc)" --target bench_edm >/dev/null
    ./build/benchmarks/bench_edm "${1:-2000}" "${2:-20}" "$results" ;;
  merit)
    cmake --build build -j"$(nproc)" --target bench_merit >/dev/null
    ./build/benchmarks/bench_merit table1 "${1:-50}"
    ./build/benchmarks/bench_merit fig2 "${1:-50}"
    ./build/benchmarks/bench_merit scale 1000 50
    ./build/benchmarks/bench_merit scale 10000 20
    ./build/benchmarks/bench_merit scale 100000 "${2:-3}"
    exit 0 ;;
  merit_sizes)
    cmake --build build -j"$(nproc)" --target bench_merit bench_separable_jobs >/dev/null
    ./build/benchmarks/bench_merit sizes "${1:-240}" vanilla,corrective 200 2000 10000 50000
    ./build/benchmarks/bench_separable_jobs defaults "${1:-240}" ;;
  variants)
    bash cmake/install-deps.sh python3-sklearn  # the 8 x 8 digits
    cmake --build build -j"$(nproc)" --target bench_frank_wolfe_variants >/dev/null
    rm -f "$results/fw_variants.csv"
    ./build/benchmarks/bench_frank_wolfe_variants merit -1 "${1:-20}" "$results/fw_variants.csv"
    ./build/benchmarks/bench_frank_wolfe_variants symnmf satimage 2000 "${1:-20}" "${2:-3}" "$results/fw_variants.csv"
    ./build/benchmarks/bench_frank_wolfe_variants symnmf digits 0 "${1:-20}" "${2:-3}" "$results/fw_variants.csv"
    ./build/benchmarks/bench_frank_wolfe_variants symnmf orl 0 "${1:-20}" "${2:-3}" "$results/fw_variants.csv"
    ./build/benchmarks/bench_frank_wolfe_variants symnmf satimage 0 60 1 "$results/fw_variants.csv" ;;
  nomad)
    bash cmake/install-deps.sh coinor-csdp dataset-fashion-mnist
    cmake --build build -j"$(nproc)" --target bench_nomad >/dev/null
    ./build/benchmarks/bench_nomad rings
    ./build/benchmarks/bench_nomad scale "${1:-4000}" 100 "$results/nomad_fig15.csv"
    ./build/benchmarks/bench_nomad fashion 0 128 "${2:-300}" "$results/nomad_fashion_embedding.csv"
    bash cmake/install-deps.sh python3-numpy python3-scipy python3-sklearn  # Fig. 10's other embeddings
    cmake --build build -j"$(nproc)" --target facto >/dev/null
    FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python /usr/bin/python3 benchmarks/nomad_geodesics.py "$results"
    FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python /usr/bin/python3 benchmarks/nomad_grid.py "$results" ;;
  nomad_exact)
    bash cmake/install-deps.sh coinor-csdp
    cmake --build build -j"$(nproc)" --target bench_nomad >/dev/null
    ./build/benchmarks/bench_nomad exact "${1:-120}" ;;
  nomad_points)
    bash cmake/install-deps.sh dataset-fashion-mnist
    cmake --build build -j"$(nproc)" --target bench_nomad >/dev/null
    for set in test all; do
      for K in 10 64; do ./build/benchmarks/bench_nomad points "$set" "$K" "${1:-300}" "${2:-sphere,lbfgsb}"; done
    done ;;
  nomad_bound)
    bash cmake/install-deps.sh dataset-fashion-mnist
    cmake --build build -j"$(nproc)" --target bench_nomad >/dev/null
    for n in 1000 10000 all; do ./build/benchmarks/bench_nomad bound "$n" 10 "${1:-200}" 300; done
    ./build/benchmarks/bench_nomad bound 10000 64 "${1:-200}" ;;
  nfw_real)
    cmake --build build -j"$(nproc)" --target bench_separable_jobs >/dev/null
    ./build/benchmarks/bench_separable_jobs communities "$results/nfw_communities.csv"
    # FACTO_RESUME=1 keeps the rows of an earlier run and adds only the missing trials
    [ "${FACTO_RESUME:-0}" = 1 ] || rm -f "$results/nfw_topics.csv"
    for dataset in tdt2 reuters21578; do
      ./build/benchmarks/bench_separable_jobs topics "$dataset" "${1:-10}" "${2:-10}" \
        "$results/nfw_topics.csv"
    done
    ./build/benchmarks/bench_separable_jobs memory "$results/nfw_memory.csv" ;;
  holdout)
    bash cmake/install-deps.sh python3-numpy python3-scipy python3-sklearn dataset-fashion-mnist
    cmake --build build -j"$(nproc)" --target facto >/dev/null
    for part in ${1:-holdout select_k}; do
      FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python /usr/bin/python3 benchmarks/holdout.py "$results" "$part"
    done ;;
  topics)
    bash cmake/install-deps.sh python3-numpy python3-scipy python3-sklearn
    cmake --build build -j"$(nproc)" --target facto >/dev/null
    FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python /usr/bin/python3 benchmarks/topics.py "${1:-quick}" ;;
  panel)
    bash cmake/install-deps.sh python3-numpy python3-scipy python3-sklearn dataset-fashion-mnist
    cmake --build build -j"$(nproc)" --target facto >/dev/null
    FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python /usr/bin/python3 benchmarks/panel.py "${1:-quick}" ${2:+"$2"} ;;
  knn)
    bash cmake/install-deps.sh python3-numpy python3-hnswlib python3-faiss dataset-fashion-mnist
    cmake --build build -j"$(nproc)" --target facto >/dev/null
    FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python /usr/bin/python3 benchmarks/knn.py "${1:-quick}" ;;
  sparse)
    bash cmake/install-deps.sh python3-numpy python3-scipy python3-sklearn
    cmake --build build -j"$(nproc)" --target facto >/dev/null
    FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python /usr/bin/python3 benchmarks/sparse.py "${1:-quick}" ${2:+"$2"} ;;
  million|million_nomad)
    bash cmake/install-deps.sh python3-numpy python3-sklearn dataset-fashion-mnist
    cmake --build build -j"$(nproc)" --target facto facto_cli >/dev/null
    job=run; [ "$which" = million_nomad ] && job=nomad
    FACTO_LIBRARY=build/libfacto.so.0 PYTHONPATH=bindings/python:benchmarks /usr/bin/python3 benchmarks/million.py $job \
      "$FACTO_DATA/million" "${1:-1000000}" "${2:-0}" ${3:+"$3"} ;;
  distributed)
    cmake --build build -j"$(nproc)" --target bench_distributed facto_cli facto_cli_mpi >/dev/null
    ./build/benchmarks/bench_distributed "$@"
    # measured here, shared memory: facto against facto-mpi on 1 and 2 ranks, TDT2, 200 iterations
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    tdt2=$FACTO_DATA/symnmf/tdt2_similarity.mtx
    [ -f "$tdt2" ] || { echo "missing benchmark data: $tdt2 (bash benchmarks/fetch_data.sh gets it)" >&2; exit 1; }
    args=(--problem symnmf --affinity "$tdt2" -k 30 --quiet --set max_iterations=200
          --set tolerance=0 --set objective_tolerance=0)
    echo "TDT2, nolips, 200 iterations, solver seconds (--set threads=1 per process):"
    echo "  facto:              $(./build/programs/facto "${args[@]}" --set threads=1 | grep -o '"seconds": [0-9.]*')"
    for ranks in 1 2; do
      echo "  facto-mpi, $ranks rank(s): $(mpirun -np "$ranks" ./build/programs/facto-mpi "${args[@]}" --set threads=1 |
        grep -o '"seconds": [0-9.]*')"
    done ;;
  *) echo "usage: $0 [--data DIR] simplicial|zg|symnmf|edm|merit|merit_sizes|variants|nomad|nomad_exact|nomad_points|nomad_bound|nfw_real|holdout|topics|panel|knn|sparse|million|million_nomad|distributed [...]" >&2; exit 2 ;;
esac
/usr/bin/python3 benchmarks/plot.py "$results" "$results"
