#!/bin/sh
# Builds the R source package facto_<version>.tar.gz with libfacto's C++ sources inside it (under
# src/libfacto), so that `R CMD INSTALL facto_<version>.tar.gz` builds on a machine without libfacto and
# without a checkout, as R packages bundle their C libraries (configure finds them there).
# Usage: sh tools/build-tarball.sh [OUTPUT_DIR]   (default: the current directory)
set -eu
here=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
repository=$(CDPATH= cd -- "$here/../.." && pwd)
out=$(CDPATH= cd -- "${1:-.}" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -R "$here" "$stage/facto"
(cd "$stage/facto" && sh cleanup)
mkdir "$stage/facto/src/libfacto"
for part in CMakeLists.txt cmake include src capi; do  # what libfacto's CMake build reads
  cp -R "$repository/$part" "$stage/facto/src/libfacto/"
done
cd "$out"
R CMD build --no-build-vignettes "$stage/facto"
