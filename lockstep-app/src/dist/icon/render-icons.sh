#!/usr/bin/env bash
# Renders Lockstep's application icon from its SVG master (lockstep.svg, beside this script) into the PNGs the
# windows use (lockstep-desktop/src/main/resources/org/lockstep/shell/icon/lockstep-N.png, N = 16 … 256 px), the PNG jpackage gives the
# Linux app image and .deb, and the .ico for the Windows installer. The outputs are committed, so the build needs no
# ImageMagick; run this again (ImageMagick 6 `convert`) only after changing the SVG.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
resources="$here/../../../../lockstep-desktop/src/main/resources/org/lockstep/shell/icon"
mkdir -p "$resources"

for size in 16 24 32 48 64 128 256; do
  # Rendered at 4x the target and scaled down: ImageMagick's SVG renderer does not anti-alias small sizes well.
  # -strip leaves out the timestamps, so rendering the same SVG again gives the same bytes.
  convert -background none -density $((96 * 4 * size / 256)) "$here/lockstep.svg" \
    -resize "${size}x${size}" -depth 8 -strip "PNG32:$resources/lockstep-$size.png"
done
cp "$resources/lockstep-256.png" "$here/lockstep.png"
convert "$resources"/lockstep-{16,24,32,48,64,256}.png -strip "$here/lockstep.ico"
ls -l "$resources" "$here"
