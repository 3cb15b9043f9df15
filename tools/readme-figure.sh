#!/usr/bin/env bash
# Regenerates the README's picture, docs/img/html-report-fig1.png: the HTML report (--html) of the
# seed's Fig. 1 as headless Chromium draws it in a window 1,400 px wide, the way HtmlReportBrowserTest
# renders its pages (same browser, same flags). Run it from anywhere after a change to the page:
#   tools/readme-figure.sh [OUT.png]        (WIDTH=1400 HEIGHT=1500 CHROMIUM=... to change)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(realpath -m "${1:-$ROOT/docs/img/html-report-fig1.png}")"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
if [ -z "$CHROMIUM" ]; then
  echo "tools/readme-figure.sh: no chromium on the PATH (apt-get install chromium)" >&2
  exit 2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# from the root, so that the page's title is the path the README's commands use
cd "$ROOT"
./bitina run topology-configs/paper-fig1-allreduce.conf --quiet --html "$tmp/fig1.html" > "$tmp/run.log" \
  || { cat "$tmp/run.log" >&2; exit 1; }
# a fresh profile, no sandbox (root in a container), no GPU: as the browser test starts it
if ! "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
      --user-data-dir="$tmp/profile" --hide-scrollbars --window-size="${WIDTH:-1400},${HEIGHT:-1500}" \
      --screenshot="$tmp/fig1.png" "file://$tmp/fig1.html" > "$tmp/chromium.log" 2>&1 || [ ! -s "$tmp/fig1.png" ]; then
  cat "$tmp/chromium.log" >&2
  echo "tools/readme-figure.sh: chromium did not draw the page" >&2
  exit 1
fi
mv "$tmp/fig1.png" "$OUT"
echo "$OUT"
