#!/bin/sh
# build-wasm-deps.sh - the library's dependencies built for WebAssembly
# (issue 28, docs/web.md): scripts/build-deps.sh for the target wasm.
#
#   sh scripts/build-wasm-deps.sh PREFIX
#
# (kept for `make web` and the cache folder build-wasm-deps it names)
set -eu
exec sh "$(dirname "$0")/build-deps.sh" wasm "${1:?usage: build-wasm-deps.sh PREFIX}"
