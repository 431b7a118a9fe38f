#!/usr/bin/env bash
# CTest driver of the Rust binding: Debian's cargo and rustc (1.63), offline, against the built library.
# Usage: run_tests.sh BUILD_DIR [bundled]   (FACTO_FIXTURE_REFERENCE may name the C reference iterate;
# FACTO_PRELOAD, set by the sanitizer build's CTest, names the sanitizer runtime to preload). With `bundled`:
# `cargo test --offline --features bundled`, facto-sys building libfacto.a from the sources itself (no
# FACTO_LIB_DIR, no LD_LIBRARY_PATH).
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_TARGET_DIR="$build/rust-target" FACTO_LIB_DIR="$build"
export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -n "${FACTO_PRELOAD:-}" ]; then  # sanitizer runtime for the test binaries only, not for cargo and rustc
  host=$(/usr/bin/rustc -vV | sed -n 's/^host: //p' | tr 'a-z-' 'A-Z_')
  export "CARGO_TARGET_${host}_RUNNER=env LD_PRELOAD=$FACTO_PRELOAD"
fi
cd "$here"
if [ "${2:-}" = bundled ]; then
  export CARGO_TARGET_DIR="$build/rust-bundled-target"
  unset FACTO_LIB_DIR LD_LIBRARY_PATH
  /usr/bin/cargo test --offline --quiet --features bundled
else
  /usr/bin/cargo test --offline --quiet
fi
