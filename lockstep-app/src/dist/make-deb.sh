#!/usr/bin/env bash
# Makes the .deb from the app image the dist profile made: make-deb.sh APP_IMAGE VERSION ICON_DIR OUT_DIR WORK_DIR
# (lockstep-app/pom.xml calls it where dpkg-deb exists). It is built here, not by jpackage --type deb, because
# jpackage's package ran xdg-desktop-menu in postinst and prerm, which exits 3 on a machine without the menu
# directories (/etc/xdg/menus, /usr/share/desktop-directories: a server, most minimal desktops), so apt left the
# package half-configured and could not remove it; and it depended on xdg-utils, whose Recommends brought Perl,
# X utilities and a terminal emulator. This package has no maintainer scripts at all: the menu entry and the icons are
# files dpkg owns (/usr/share/applications/lockstep.desktop, /usr/share/icons/hicolor/*/apps/lockstep.*), so install,
# upgrade, remove and purge cannot fail on them, and the desktop's own dpkg triggers (desktop-file-utils,
# gtk-update-icon-cache), where installed, refresh their caches.
set -euo pipefail
app="$1" version="$2" icons="$3" out="$4" work="$5"
here="$(cd "$(dirname "$0")" && pwd)"
package=lockstep
revision=1
arch="$(dpkg --print-architecture)"
root="$work/$package"

rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/opt/lockstep" "$root/usr/share/applications" "$root/usr/share/doc/$package"
cp -a "$app/." "$root/opt/lockstep/"
cp "$here/lockstep.desktop" "$root/usr/share/applications/lockstep.desktop"
for png in "$icons"/lockstep-*.png; do
  size="${png##*/lockstep-}"; size="${size%.png}"
  install -D -m 644 "$png" "$root/usr/share/icons/hicolor/${size}x${size}/apps/lockstep.png"
done
install -D -m 644 "$here/icon/lockstep.svg" "$root/usr/share/icons/hicolor/scalable/apps/lockstep.svg"
cat >"$root/usr/share/doc/$package/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Lockstep

Files: *
Copyright: 2026 Lockstep
License: Unknown
EOF
chmod -R u+rwX,go+rX,go-w "$root"

# Depends: what the runtime and JavaFX load (ldd of lib/runtime/lib/*.so, JavaFX's natives among them: the build puts
# them there, where JavaFX loads them from, and jpackage never saw them):
#   libc6 libgcc-s1 libstdc++6 zlib1g  the JVM itself (libjimage, libzip, libjli)
#   libgtk-3-0                         glass (libglassgtk3: GTK 3, GDK, Pango, Cairo, ATK, GLib, X11) and
#                                      javafx_font_pango; .ci/run checks that it is here
#   libxtst6 libx11-6                  glass links them itself
#   libfreetype6                       javafx_font_freetype
#   liblcms2-2                         java.desktop's colour management, which ImageIO may load (timeline PNG export)
# Suggests, not Recommends: libgl1 libxxf86vm1, which Prism's OpenGL pipeline (libprism_es2) links. Every desktop with
# Mesa has them; without them JavaFX draws with its software pipeline, which is what a server (X forwarding, Xvfb)
# gets anyway, and recommending them cost a minimal server 29 more packages and 172 MB (Mesa's drivers, LLVM).
# Left out of jpackage's list: xdg-utils (no maintainer scripts any more), libasound2 (javax.sound, unused),
# libgif7 (the AWT splash screen, unused), and the libraries only AWT's X11 toolkit links (libxi6, libxext6,
# libxrender1: Lockstep never opens an AWT window; GTK brings them anyway).
depends="libc6, libgcc-s1, libstdc++6, zlib1g, libgtk-3-0, libxtst6, libx11-6, libfreetype6, liblcms2-2"
suggests="libgl1, libxxf86vm1"
installed_size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
cat >"$root/DEBIAN/control" <<EOF
Package: $package
Version: $version-$revision
Section: misc
Priority: optional
Architecture: $arch
Maintainer: Lockstep <Unknown>
Installed-Size: $installed_size
Depends: $depends
Suggests: $suggests
Description: Desktop editor for shared customer records
 Lockstep edits the customer records a team shares in PostgreSQL. It brings its
 own Java runtime (in /opt/lockstep) and an embedded PostgreSQL for one operator.
EOF

mkdir -p "$out"
deb="$out/${package}_${version}-${revision}_${arch}.deb"
dpkg-deb --root-owner-group --build "$root" "$deb"
rm -rf "$root"
