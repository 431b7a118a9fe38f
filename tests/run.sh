#!/usr/bin/env bash
# Every test: a -Werror Release build and its CTest suite (Boost.Test core tests, C ABI tests,
# examples, CLI, bindings; the C examples and the CLI also under valgrind memcheck); its core and C ABI
# suites again under other OpenBLAS kernels (OPENBLAS_CORETYPE: each that this CPU can run of
# Prescott, Sandybridge, Haswell, Zen, SkylakeX), since results differ in the last bits between
# kernels and a test must hold on all; then the same suite under AddressSanitizer +
# UndefinedBehaviorSanitizer, built with facto's target_clones off (the baseline x86-64 path a CPU
# without AVX2 takes), with the ABI check on that build's debug information, then the threaded tests
# under ThreadSanitizer, then bounded libFuzzer runs (clang) of the C ABI and of the file readers from
# the committed corpora.
# FACTO_SKIP_SANITIZERS=1 skips the passes after the kernels'.
set -euo pipefail
cd "$(dirname "$0")/.."
bash cmake/install-deps.sh python3-numpy python3-pytest python3-venv python3-scipy python3-sklearn cargo rustc \
  r-base-core r-base-dev r-cran-testthat r-cran-matrix coinor-csdp valgrind abi-dumper abi-compliance-checker clang \
  libclang-rt-14-dev libopenmpi-dev openmpi-bin
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFACTO_WERROR=ON -DFACTO_SANITIZE=OFF -DFACTO_BUILD_TESTS=ON \
  -DFACTO_BUILD_EXAMPLES=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"

kernels=(Prescott)
grep -qw avx /proc/cpuinfo && kernels+=(Sandybridge)
grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && kernels+=(Haswell Zen)
grep -qw avx512f /proc/cpuinfo && kernels+=(SkylakeX)
for kernel in "${kernels[@]}"; do
  echo "core and C ABI suites with OPENBLAS_CORETYPE=$kernel"
  OPENBLAS_CORETYPE=$kernel ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs" -R '^(core|capi)'
done

if [ "${FACTO_SKIP_SANITIZERS:-0}" != 1 ]; then
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFACTO_WERROR=ON -DFACTO_SANITIZE=ON \
    -DFACTO_TARGET_CLONES=OFF -DFACTO_BUILD_TESTS=ON -DFACTO_BUILD_EXAMPLES=ON >/dev/null
  cmake --build build-sanitize -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-sanitize --output-on-failure --no-tests=error -j"$jobs"
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFACTO_WERROR=ON -DFACTO_TSAN=ON \
    -DFACTO_BUILD_TESTS=ON -DFACTO_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build build-tsan -j"$jobs" --target test_core
  ctest --test-dir build-tsan --output-on-failure --no-tests=error
  cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFACTO_WERROR=ON -DFACTO_FUZZ=ON -DFACTO_BUILD_TESTS=ON -DFACTO_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz_capi fuzz_readers
  ctest --test-dir build-fuzz --output-on-failure --no-tests=error
fi
