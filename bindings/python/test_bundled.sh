#!/usr/bin/env bash
# CTest driver of `pip install bindings/python` as a user runs it: no FACTO_LIBRARY and no prebuilt
# library, so the in-tree backend builds libfacto from the repository's sources with CMake (minutes) and
# ships it in the wheel; then the installed package must load that copy and fit an estimator.
# Usage: test_bundled.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
venv="$build/python-bundled-venv"
/usr/bin/python3 -m venv --system-site-packages --clear "$venv"
env -u FACTO_LIBRARY -u FACTO_PREBUILT_LIBRARY \
  "$venv/bin/pip" install --quiet --no-index --disable-pip-version-check "$here"
cd "$venv"  # import the installed package, not the source tree
env -u FACTO_LIBRARY -u LD_LIBRARY_PATH "$venv/bin/python" - <<'PY'
import os
import facto
loaded = facto._lib.lib._name
bundled = os.path.join(os.path.dirname(facto.__file__), "_native", "libfacto.so.0")
assert os.path.samefile(loaded, bundled), (loaded, bundled)
X, y = facto.manifold_points("blobs", 120, 0.1, seed=2)
labels = facto.NOMADClustering(n_clusters=6).fit_predict(X)
assert facto.clustering_accuracy(labels, y) == 1.0
print("pip-built libfacto", facto.library_version, "loaded from", loaded)
PY
