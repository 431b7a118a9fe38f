#!/usr/bin/env bash
# The floors of src/, bottom to top. A file may include headers of its own floor and of the floors
# below it, never of one above: an include running back up would tie a lower floor to a higher one.
# Usage: check_floors.sh [source root]
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../../src" && pwd)}
floors=(base linalg sets data metrics problems solvers)
rank() { local i; for i in "${!floors[@]}"; do [ "${floors[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo -1; }
bad=0
for dir in "$src"/*/; do
  floor=$(basename "$dir")
  mine=$(rank "$floor")
  [ "$mine" -ge 0 ] || { echo "src/$floor is no floor: add it to tests/abi/check_floors.sh"; bad=1; continue; }
  while IFS=: read -r file line; do
    target=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<< "$line")
    theirs=$(rank "$target")
    if [ "$theirs" -gt "$mine" ]; then
      echo "${file#"$src"/} includes $target/ from the lower floor $floor: $line"
      bad=1
    fi
  done < <(grep -H -E '#include "[a-z_]+/' "$dir"*.?pp || true)
done
[ "$bad" = 0 ] && echo "no include runs back up the floors ${floors[*]}"
exit "$bad"
