#!/usr/bin/env bash
# Every test, in stages whose seconds end the run as a table (printed also when a stage fails):
#   release   a -Werror Release build and its CTest suite: the Boost.Test core suites, the C ABI tests,
#             the examples, the CLI, the bindings (Python, R, Rust) against the built library and from
#             the sources as users install them, valgrind memcheck of the C programs, the MPI runs;
#   kernels   the core and C ABI suites again under each other OpenBLAS kernel this CPU can run
#             (OPENBLAS_CORETYPE of Prescott, Sandybridge, Haswell, SkylakeX; the release suite ran
#             the one OpenBLAS picks), since results differ in the last bits between kernels and a test
#             must hold on all;
#   sanitize  the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, built with facto's
#             target_clones off (the baseline x86-64 path a CPU without AVX2 takes), with the ABI check;
#   tsan      the threaded suites under ThreadSanitizer;
#   fuzz      bounded libFuzzer runs (clang) of the C ABI, the file readers and saved models from the committed corpora.
# Usage: bash tests/run.sh [--quick]
#   --quick   the release build and its suite, without the from-source builds of the bindings (binding.*_bundled).
# Compiles go through ccache: the bundled builds of the Python and Rust bindings reuse the release build's
# objects (-Werror is left out of ccache's hash: it changes no object), while R CMD check's build of the
# package tarball bypasses the cache and so proves the build from nothing. The sanitizer, TSan and fuzz
# builds compile in batches (CMake's unity build) at -O1 with line tables (-g1), the C ABI's own sources
# with full debug information for the ABI check.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: bash tests/run.sh [--quick]" >&2; exit 2 ;;
esac
jobs=$(nproc)

stages=() seconds=()
report() {  # the table; a stage that did not end is the one that failed
  local status=$? total=0 i
  printf '\n%-34s %8s\n' stage seconds
  for i in "${!stages[@]}"; do
    printf '%-34s %8d\n' "${stages[$i]}" "${seconds[$i]}"
    total=$((total + seconds[i]))
  done
  if [ -n "${current:-}" ]; then
    printf '%-34s %8d  failed\n' "$current" "$((SECONDS - started))"
    total=$((total + SECONDS - started))
  fi
  printf '%-34s %8d\n' total "$total"
  exit "$status"
}
trap report EXIT
# stage NAME COMMAND...: runs the command as one row of the table
stage() {
  current=$1 started=$SECONDS
  shift
  echo "== $current"
  "$@"
  stages+=("$current") seconds+=($((SECONDS - started)))
  current=
}

packages=(ccache python3-numpy python3-pytest python3-venv python3-scipy python3-sklearn python3-matplotlib cargo rustc
          r-base-core r-base-dev r-cran-testthat r-cran-matrix coinor-csdp valgrind libopenmpi-dev openmpi-bin)
[ "$quick" = 1 ] || packages+=(abi-dumper abi-compliance-checker clang libclang-rt-14-dev)
stage deps bash cmake/install-deps.sh "${packages[@]}"

export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_IGNOREOPTIONS=-Werror
# CTest runs as many tests at once as there are cores, so each runs OpenBLAS on one thread: its workers
# spin while they wait, and two tests' workers on the same cores (or beside a bundled build's compiler)
# slowed the suites several-fold (a Python suite of 26 s took 132 s). core.concurrency keeps OpenBLAS's
# threads under facto's own (tests/CMakeLists.txt).
export OPENBLAS_NUM_THREADS=1
build() {  # build BUILD_DIR [--target T...] -- CMAKE_ARGS...: configures and builds
  local dir=$1 targets=()
  shift
  while [ "$1" != -- ]; do targets+=("$1"); shift; done
  shift
  cmake -S . -B "$dir" -DFACTO_WERROR=ON -DFACTO_BUILD_TESTS=ON -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" >/dev/null
  cmake --build "$dir" -j"$jobs" "${targets[@]}"
}
suite() {  # suite BUILD_DIR CTEST_ARGS...
  local dir=$1
  shift
  ctest --test-dir "$dir" --output-on-failure --no-tests=error -j"$jobs" "$@"
}
# the instrumented builds: unity batches, -O1 and line tables (full debug information where asked)
instrumented=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8
              "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")

stage "release build" build build -- -DCMAKE_BUILD_TYPE=Release -DFACTO_SANITIZE=OFF -DFACTO_BUILD_EXAMPLES=ON
if [ "$quick" = 1 ]; then
  stage "release suite (quick)" suite build -LE bundled
  exit 0
fi
stage "release suite" suite build

# the kernel OpenBLAS picks on this CPU ran in the release suite
picked=$(python3 -c 'import ctypes; c = ctypes.CDLL("libopenblas.so.0"); c.openblas_get_corename.restype = ctypes.c_char_p
print(c.openblas_get_corename().decode().lower())' 2>/dev/null || true)
kernels=(Prescott)
grep -qw avx /proc/cpuinfo && kernels+=(Sandybridge)
# (not Zen: it runs Haswell's kernels, the same objectives bit for bit on five CLI solves of every family)
grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && kernels+=(Haswell)
grep -qw avx512f /proc/cpuinfo && kernels+=(SkylakeX)
for kernel in "${kernels[@]}"; do
  if [ "${kernel,,}" = "$picked" ]; then
    echo "OPENBLAS_CORETYPE=$kernel is the kernel the release suite ran"
    continue
  fi
  OPENBLAS_CORETYPE=$kernel stage "kernel $kernel" suite build -R '^(core|capi)'
done

stage "sanitize build" build build-sanitize -- "${instrumented[@]}" -DFACTO_SANITIZE=ON -DFACTO_TARGET_CLONES=OFF \
  -DFACTO_BUILD_EXAMPLES=ON
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  stage "sanitize suite" suite build-sanitize

stage "tsan build" build build-tsan --target test_core -- "${instrumented[@]}" -DFACTO_TSAN=ON -DFACTO_BUILD_EXAMPLES=OFF -DFACTO_BUILD_PROGRAMS=OFF
stage "tsan suite" suite build-tsan

stage "fuzz build" build build-fuzz --target fuzz_capi --target fuzz_readers --target fuzz_models -- "${instrumented[@]}" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DFACTO_FUZZ=ON -DFACTO_BUILD_EXAMPLES=OFF -DFACTO_BUILD_PROGRAMS=OFF
stage "fuzz runs" suite build-fuzz
