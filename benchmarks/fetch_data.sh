#!/usr/bin/env bash
# Rebuilds the benchmark data sets (symnmf/*, merit/*) from their public upstream sources and
# verifies them by SHA-256.
# Usage: bash benchmarks/fetch_data.sh [--data DIR] [--raw DIR]
#   --data DIR  where the converted files go (default: $FACTO_DATA, else benchmarks/data)
#   --raw DIR   raw cache of the upstream files (default: DIR/raw); a file already in it is not
#               downloaded again
# Steps: download the raw files that benchmarks/data.sha256 lists under raw/ and the cache lacks
# (curl, from raw.githubusercontent.com at pinned commits), check them against data.sha256, convert
# them with benchmarks/convert_data.py, then check every converted file against data.sha256.
#
# NEEDS A NETWORK for the downloads (about 57 MB, 1215 files). It was written on a machine without
# one and tested only by filling the raw cache from local copies of the upstream repositories at
# the commits below: the download step itself has never run.
# Needs Debian's python3-numpy, python3-scipy and python3-h5py; when they are missing and the
# script runs as root it installs them with apt-get, otherwise it says what to install.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sums=$here/data.sha256
python=${PYTHON:-/usr/bin/python3} # Debian's interpreter, the one the python3-* packages serve

data=${FACTO_DATA:-$here/data}
raw=
while [ $# -gt 0 ]; do
  case $1 in
    --data) data=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    *) echo "usage: bash benchmarks/fetch_data.sh [--data DIR] [--raw DIR]" >&2; exit 2 ;;
  esac
done
raw=${raw:-$data/raw}

# The upstream repositories, pinned to full commit ids.
gh=https://raw.githubusercontent.com
quartic=$gh/RaduAlexandruDragomir/QuarticLowRankOptimization/739d377c34377710d262014bd3a716e2051af87a
geonmf=$gh/XueyuMao/XueyuMao.github.io/ed34f4fb5e7e18f90210bb85125d8cd4bf1b567c
nmflib=$gh/hiroyuki-kasai/NMFLibrary/ed44132dfe1b5495df685006b42259f0bd16bea3
merit=$gh/XiaoFuLab/Frank-Wolfe-based-method-for-SD-MMV/f2612ec5e56d142313c2cb7142496e5e2a6343aa

# Maps a raw-cache path (as data.sha256 names it, without raw/) to its upstream URL.
url_of() {
  case $1 in
    QuarticLowRankOptimization/*) echo "$quartic/SymNMF/data/${1#*/}" ;;
    XueyuMao.github.io/*) echo "$geonmf/data/coauthorship/${1#*/}" ;;
    NMFLibrary/TDT2.mat) echo "$nmflib/applications/document_clustering/TDT2.mat" ;;
    NMFLibrary/Reuters21578.mat) echo "$nmflib/applications/topic_extraction/Reuters21578.mat" ;;
    Frank-Wolfe-based-method-for-SD-MMV/*) echo "$merit/exp_real/topic_modeling/data/${1#*/}" ;;
    *) echo "no upstream URL known for raw/$1" >&2; return 1 ;;
  esac
}

# Installs numpy, scipy and h5py from Debian when python cannot import them (as root only).
ensure_python_deps() {
  "$python" -c 'import numpy, scipy.io, h5py' 2>/dev/null && return 0
  local packages=(python3-numpy python3-scipy python3-h5py)
  if [ "$(id -u)" -ne 0 ]; then
    echo "$python lacks numpy, scipy or h5py: install ${packages[*]} (e.g. sudo apt-get install ${packages[*]})" >&2
    exit 1
  fi
  echo "installing: ${packages[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
}

# Downloads every raw file data.sha256 lists that the raw cache lacks; a download goes to a
# .part file first, so an interrupted run leaves no truncated file behind.
download_missing() {
  local rel url n=0
  while read -r _ rel; do
    rel=${rel#raw/}
    [ -f "$raw/$rel" ] && continue
    url=$(url_of "$rel")
    mkdir -p "$(dirname "$raw/$rel")"
    curl --fail --silent --show-error --location --retry 3 -o "$raw/$rel.part" "$url" ||
      { echo "download failed: $url (for $raw/$rel)" >&2; exit 1; }
    mv "$raw/$rel.part" "$raw/$rel"
    n=$((n + 1))
  done < <(grep -E '^[0-9a-f]{64}  raw/' "$sums")
  echo "downloaded $n raw files into $raw"
}

ensure_python_deps
mkdir -p "$data" "$raw"
download_missing
"$python" "$here/convert_data.py" --check raw --raw "$raw" --data "$data" ||
  { echo "raw files differ from upstream: delete the files named above and run again" >&2; exit 1; }
echo "converting into $data"
"$python" "$here/convert_data.py" --raw "$raw" --data "$data"
"$python" "$here/convert_data.py" --check data --raw "$raw" --data "$data" ||
  { echo "converted files differ from data.sha256 (named above)" >&2; exit 1; }
