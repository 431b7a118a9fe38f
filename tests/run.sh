#!/usr/bin/env bash
# Every test: a -Werror Release build and its CTest suite (Boost.Test core tests, C ABI tests,
# examples, CLI, bindings; the C examples and the CLI also under valgrind memcheck), then the same suite
# under AddressSanitizer + UndefinedBehaviorSanitizer, with the ABI check on that build's debug
# information, then the threaded tests under ThreadSanitizer, then bounded libFuzzer runs (clang) of the
# C ABI and of the file readers from the committed corpora.
# FACTO_SKIP_SANITIZERS=1 skips the second pass.
set -euo pipefail
cd "$(dirname "$0")/.."
bash cmake/install-deps.sh python3-numpy python3-pytest python3-venv cargo rustc \
  r-base-core r-base-dev r-cran-testthat coinor-csdp valgrind abi-dumper abi-compliance-checker clang \
  libclang-rt-14-dev
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFACTO_WERROR=ON -DFACTO_SANITIZE=OFF -DFACTO_BUILD_TESTS=ON \
  -DFACTO_BUILD_EXAMPLES=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"

if [ "${FACTO_SKIP_SANITIZERS:-0}" != 1 ]; then
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFACTO_WERROR=ON -DFACTO_SANITIZE=ON \
    -DFACTO_BUILD_TESTS=ON -DFACTO_BUILD_EXAMPLES=ON >/dev/null
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
