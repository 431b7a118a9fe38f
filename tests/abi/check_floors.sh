#!/usr/bin/env bash
# The floors of src/, bottom to top. A file may include headers of its own floor and of the floors
# below it, never of one above: an include running back up would tie a lower floor to a higher one.
# Usage: check_floors.sh [source root]
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../../src" && pwd)}
floors="base linalg sets data metrics problems solvers models"
bad=0
for dir in "$src"/*/; do
  floor=$(basename "$dir")
  [[ " $floors " == *" $floor "* ]] || { echo "src/$floor is no floor: add it to tests/abi/check_floors.sh"; bad=1; }
done
# every `#include "floor/..."` of src/<floor>/**/*.?pp (a floor may hold family folders), as FILE:LINE,
# against the floors' ranks
grep -r -H -E --include='*.?pp' '#include "[a-z_]+/' "$src" | awk -v floors="$floors" -v src="$src/" '
  BEGIN { n = split(floors, name, " "); for (i = 1; i <= n; i++) rank[name[i]] = i }
  {
    file = substr($0, 1, index($0, ":") - 1); line = substr($0, index($0, ":") + 1)
    relative = substr(file, length(src) + 1); floor = relative; sub(/\/.*/, "", floor)
    target = line; sub(/.*#include "/, "", target); sub(/\/.*/, "", target)
    if ((floor in rank) && (target in rank) && rank[target] > rank[floor]) {
      print relative " includes " target "/ from the lower floor " floor ": " line
      bad = 1
    }
  }
  END { exit bad }' || bad=1
[ "$bad" = 0 ] && echo "no include runs back up the floors $floors"
exit "$bad"
