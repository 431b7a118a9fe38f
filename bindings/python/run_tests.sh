#!/usr/bin/env bash
# CTest driver of the Python binding: pip-installs bindings/python (offline) into a fresh virtual
# environment that sees Debian's numpy and pytest, then runs its tests against the built library.
# Usage: run_tests.sh BUILD_DIR   (FACTO_FIXTURE_REFERENCE may name the C reference iterate; FACTO_PRELOAD,
# set by the sanitizer build's CTest, names the sanitizer runtime to preload)
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
venv="$build/python-venv"
/usr/bin/python3 -m venv --system-site-packages --clear "$venv"
# the library CTest built goes into the wheel (test_bundled.sh covers pip building it from the sources)
"$venv/bin/pip" install --quiet --no-index --disable-pip-version-check \
  --config-settings prebuilt="$build/libfacto.so.0" "$here"
cd "$venv"  # import the installed package, not the source tree
# under the sanitizers the long tests are left out (tests/conftest.py)
FACTO_LIBRARY="$build/libfacto.so.0" env ${FACTO_PRELOAD:+LD_PRELOAD="$FACTO_PRELOAD"} "$venv/bin/python" -m pytest -q \
  -p no:cacheprovider ${FACTO_PRELOAD:+-m "not long"} "$here/tests"
