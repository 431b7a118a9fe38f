#!/usr/bin/env bash
# ABI discipline for libfacto built with debug information (the sanitizer build, RelWithDebInfo):
#  1. it exports only facto_* symbols, and every FACTO_API function of facto.h and facto_experimental.h;
#  2. the ABI of the stable tier, facto.h (abi-dumper), is compatible (abi-compliance-checker) with the
#     last release's dump (the experimental tier's functions are skipped: they carry no promise),
#     tests/abi/facto-<version>.dump.gz, unless FACTO_VERSION_MAJOR moved past that release's major.
#     The versioned structs (versioned_types.txt: the caller sets struct_size, the library writes what
#     fits) may grow at their end, which the checker would call a size change; that their old fields
#     keep their offsets is asserted at compile time in tests/capi/test_capi.c.
# Usage: check.sh <libfacto.so>. New release: replace the dump with one of the released library.
set -euo pipefail
lib=$1
here=$(cd "$(dirname "$0")" && pwd)
header="$here/../../include/facto/facto.h"
experimental="$here/../../include/facto/facto_experimental.h"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

nm -D --defined-only "$lib" | awk '{print $3}' | sort -u > "$work/exported"
leaked=$(grep -v -E '^(facto_|_init$|_fini$)' "$work/exported" || true)
[ -z "$leaked" ] || { echo "symbols other than facto_* are exported: $leaked"; exit 1; }
grep -h -E '^FACTO_API ' "$header" "$experimental" | sed -E 's/^FACTO_API [^(]*[ *]([a-z_0-9]+)\(.*/\1/' | sort -u > "$work/declared"
missing=$(comm -23 "$work/declared" "$work/exported")
[ -z "$missing" ] || { echo "declared in facto.h or facto_experimental.h but not exported: $missing"; exit 1; }
grep -E '^FACTO_API ' "$experimental" | sed -E 's/^FACTO_API [^(]*[ *]([a-z_0-9]+)\(.*/\1/' | sort -u > "$work/experimental"
echo "exported: $(wc -l < "$work/exported") facto_* symbols, all $(wc -l < "$work/declared") declared functions"

command -v abi-dumper >/dev/null && command -v abi-compliance-checker >/dev/null ||
  { echo "abi-dumper / abi-compliance-checker not installed: ABI comparison skipped"; exit 0; }
version() { grep -E "#define FACTO_VERSION_$1 " "$header" | awk '{print $3}'; }
current="$(version MAJOR).$(version MINOR).$(version PATCH)"
release=$(ls "$here"/facto-*.dump.gz | sed -E 's/.*facto-(.*)\.dump\.gz/\1/' | sort -V | tail -1)
if [ "${current%%.*}" != "${release%%.*}" ]; then
  echo "version $current changes the major version of release $release: ABI breaks are allowed"
  exit 0
fi
gzip -dc "$here/facto-$release.dump.gz" > "$work/old.dump"
ASAN_OPTIONS=verify_asan_link_order=0 abi-dumper "$lib" -o "$work/new.dump" -lver "$current" \
  -public-headers "$(dirname "$header")" >/dev/null
abi-compliance-checker -l facto -old "$work/old.dump" -new "$work/new.dump" -binary \
  -skip-types "$here/versioned_types.txt" -skip-symbols "$work/experimental" \
  -report-path "$work/report.html" > "$work/log" || { cat "$work/log"; echo "ABI of $current breaks release $release"; exit 1; }
grep -E 'Binary compatibility' "$work/log"
