#!/usr/bin/env bash
# Renders Lockstep's application icon from its SVG master (lockstep.svg, beside this script) into the PNGs the
# windows use (lockstep-desktop/src/main/resources/org/lockstep/shell/icon/lockstep-N.png, N = 16 … 128 px), the 256-px PNG jpackage gives the
# Linux app image and .deb, and the .ico for the Windows installer. The outputs are committed, so the build needs no
# ImageMagick; run this again (ImageMagick 6 `convert`) only after changing the SVG.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
resources="$here/../../../../lockstep-desktop/src/main/resources/org/lockstep/shell/icon"
mkdir -p "$resources"

render() {  # render SIZE FILE
  # Rendered at 4x the target and scaled down: ImageMagick's SVG renderer does not anti-alias small sizes well.
  # -strip leaves out the timestamps, so rendering the same SVG again gives the same bytes.
  convert -background none -density $((96 * 4 * $1 / 256)) "$here/lockstep.svg" \
    -resize "$1x$1" -depth 8 -strip "PNG32:$2"
}
# The windows' sizes (AppIcon.SIZES): no 256, which a window's icon is never shown at, and whose decoding was most of
# the icon's cost at every start (docs/benchmarks.md, "Issue 30, phase 4").
for size in 16 24 32 48 64 128; do
  render $size "$resources/lockstep-$size.png"
done
render 256 "$here/lockstep.png"
convert "$resources"/lockstep-{16,24,32,48,64}.png "$here/lockstep.png" -strip "$here/lockstep.ico"
ls -l "$resources" "$here"
