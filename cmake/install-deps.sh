#!/usr/bin/env bash
# Installs the Debian 12 packages facto needs to build and test, when any is missing.
# Usage: bash cmake/install-deps.sh [extra-package ...]
set -euo pipefail
packages=(g++ cmake make pkg-config libxtensor-dev libxtensor-blas-dev libopenblas-dev liblapack-dev
          libboost-test-dev liblbfgsb-dev libhnswlib-dev zlib1g-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
