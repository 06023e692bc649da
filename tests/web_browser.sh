#!/bin/sh
# The page of `make web` (build-wasm/web/index.html; issue 28, docs/web.md;
# make test-web-browser) in Debian's chromium driven by puppeteer-core, from
# file:// with the network off: four corpus files (W3D, B3D, P3D, a BIG
# archive) dropped on its file input show the findings of the native
# w3dlint --format json; the highlighted elements of a degenerate triangle,
# an open P3D component and a B3D bone binding are those the native
# w3ddump --geometry names; the whole W3D folder's findings equal the native
# report's, with the page's lint time against the CLI's; no request leaves
# the page.  Screenshots and timing.txt go to ARTIFACTS.
# Usage: tests/web_browser.sh BUILD_DIR WASM_DIR ARTIFACTS; skips with one
# line without the corpus, node, chromium or the page.
set -u
name=web_browser
here=$(cd "$(dirname "$0")" && pwd)
corpus=${CORPUS:-$here/../../shared/corpus}
if [ ! -d "$corpus" ]; then
	echo "$name: skipped: no corpus at $corpus"
	exit 0
fi
chromium=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$chromium" ]; then
	echo "$name: skipped: no chromium (apt-get install chromium, or sh scripts/setup-deps.sh web)"
	exit 0
fi
if ! command -v node > /dev/null 2>&1 || [ ! -f "$2/web/index.html" ] || [ ! -d "$2/web-npm/node_modules/puppeteer-core" ]; then
	echo "$name: skipped: needs node and the page (make web)"
	exit 0
fi
# web/locate.js over every finding of the corpus (node alone)
node "$here/locate_check.mjs" "$1" "$corpus" || exit 1
CHROMIUM=$chromium exec node "$here/web_browser.mjs" "$1" "$2" "$corpus" "$3"
