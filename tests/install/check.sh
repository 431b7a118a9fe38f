#!/usr/bin/env bash
# Installs facto from build dir $1 into a temporary prefix, then builds and runs examples/link_example.c
# against it twice: through find_package(facto) and through pkg-config. Checks the SONAME and that only
# facto_* symbols are exported.
set -euo pipefail
build=$1
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
lib=$(ls "$prefix"/lib*/libfacto.so.0)
readelf -d "$lib" | grep -q 'SONAME.*libfacto.so.0' || { echo "SONAME is not libfacto.so.0"; exit 1; }
leaked=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v -E '^(facto_|_init$|_fini$)' || true)
[ -z "$leaked" ] || { echo "symbols other than facto_* are exported: $leaked"; exit 1; }
headers="facto.h facto_experimental.h "
mpi_lib=$(ls "$(dirname "$lib")"/libfacto_mpi.so.0 2>/dev/null || true)
if [ -n "$mpi_lib" ]; then  # built with MPI: libfacto_mpi exports its one function, its header comes along
  headers="facto.h facto_experimental.h facto_mpi.h "
  readelf -d "$mpi_lib" | grep -q 'SONAME.*libfacto_mpi.so.0' || { echo "SONAME is not libfacto_mpi.so.0"; exit 1; }
  exported=$(nm -D --defined-only "$mpi_lib" | awk '{print $3}' | grep -v -E '^(_init|_fini)$' | tr "\n" " ")
  [ "$exported" = "facto_collectives_new_mpi " ] || { echo "libfacto_mpi exports: $exported"; exit 1; }
fi
[ "$(ls "$prefix/include/facto" | tr "\n" " ")" = "$headers" ] ||
  { echo "installed headers are not $headers: $(ls "$prefix/include/facto")"; exit 1; }

cmake -S "$source_dir/tests/install" -B "$prefix/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
      -DEXAMPLE="$source_dir/examples/link_example.c" >/dev/null
cmake --build "$prefix/consumer" >/dev/null
LD_LIBRARY_PATH="$(dirname "$lib")" "$prefix/consumer/consumer"

export PKG_CONFIG_PATH="$(dirname "$lib")/pkgconfig"
cc "$source_dir/examples/link_example.c" -o "$prefix/pkgconfig_consumer" $(pkg-config --cflags --libs facto) -lm
LD_LIBRARY_PATH="$(dirname "$lib")" "$prefix/pkgconfig_consumer"
echo "install check passed: $lib"
