#!/usr/bin/env bash
# CTest driver of the R binding. Usage: run_tests.sh BUILD_DIR [bundled]
#   (default) installs libfacto from BUILD_DIR into a temporary prefix, runs `R CMD INSTALL` against it
#     (found through pkg-config), then the testthat tests;
#   bundled: no installed libfacto: the tarball of tools/build-tarball.sh, which carries libfacto's
#     sources, goes through `R CMD check --no-manual` (its configure builds libfacto.a; documentation,
#     examples and the same tests), which must end without a WARNING or ERROR.
# FACTO_FIXTURE_REFERENCE may name the C reference iterate; FACTO_PRELOAD and FACTO_SANITIZER_FLAGS, set by
# the sanitizer build's CTest, name the runtime to preload and the glue's flags.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FACTO_TEST_DATA="$here/../../tests/data"

if [ "${2:-}" = bundled ]; then
  export FACTO_BUNDLED=1
  unset FACTO_SOURCE_DIR FACTO_LIBS FACTO_CFLAGS LD_LIBRARY_PATH
  cd "$work"
  sh "$here/tools/build-tarball.sh" >build.log 2>&1 || { cat build.log; exit 1; }
  status=0  # R CMD check fails when a suggested package (testthat, Matrix) is missing: no test skips quietly
  R CMD check --no-manual facto_*.tar.gz >check.log 2>&1 || status=$?
  cat check.log
  if [ "$status" != 0 ] || ! grep -q '^Status: ' check.log || grep -q '^Status:.*\(WARNING\|ERROR\)' check.log
  then
    tail -n 40 facto.Rcheck/00install.out facto.Rcheck/tests/testthat.Rout.fail 2>/dev/null || true
    exit 1
  fi
  exit 0
fi

cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(dirname "$(ls "$work"/prefix/lib*/libfacto.so.0)")
export PKG_CONFIG_PATH="$libdir/pkgconfig" LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -n "${FACTO_SANITIZER_FLAGS:-}" ]; then  # instrument the glue too (configure reads these)
  export FACTO_CFLAGS="$(pkg-config --cflags facto) $FACTO_SANITIZER_FLAGS"
  export FACTO_LIBS="$(pkg-config --libs facto) $FACTO_SANITIZER_FLAGS"
fi
cp -r "$here" "$work/facto"  # R CMD INSTALL builds in the source tree: keep the checkout clean
(cd "$work/facto" && sh cleanup)  # and build nothing from what an in-place install left there
mkdir "$work/library"
R CMD INSTALL --no-test-load --library="$work/library" "$work/facto" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; exit 1; }
cd "$work/facto/tests"
R_LIBS="$work/library" env ${FACTO_PRELOAD:+LD_PRELOAD="$FACTO_PRELOAD"} Rscript -e 'library(testthat); library(facto);
  r <- as.data.frame(test_dir("testthat", reporter = "summary", stop_on_failure = TRUE))
  cat(sprintf("%d passed, %d failed\n", sum(r$nb) - sum(r$failed), sum(r$failed)))'
