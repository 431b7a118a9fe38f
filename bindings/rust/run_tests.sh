#!/usr/bin/env bash
# CTest driver of the Rust binding: Debian's cargo and rustc (1.63), offline, against the built library.
# Usage: run_tests.sh BUILD_DIR   (FACTO_FIXTURE_REFERENCE may name the C reference iterate)
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_TARGET_DIR="$build/rust-target" FACTO_LIB_DIR="$build"
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd "$here"
/usr/bin/cargo test --offline --quiet
