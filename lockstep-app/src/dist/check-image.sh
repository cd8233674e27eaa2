#!/usr/bin/env bash
# Checks what README ("Install it") and make-deb.sh promise of the app image and the .deb, in seconds, from what the
# dist profile made: check-image.sh APP_IMAGE DEB (.ci/run runs it after `verify` and `-Pdist -DskipTests package`,
# which is README's order: package first, then -Pdist).
#  - lib/app holds no shaded jar: lockstep.jar is the wiring only, no other jar holds Lockstep's entry point, and no
#    JavaFX jar is there (JavaFX is in the runtime, as modules). The order of the builds once put the 54 MB fat jar
#    beside every jar it contains (issue 27).
#  - the image and the .deb weigh what README says, within 10 % either way: README's figures stay true, and a jar
#    that comes twice shows at once.
#  - the .deb depends on exactly the list make-deb.sh states and explains, recommends nothing, and has no
#    maintainer scripts: it pulls in no more than it needs, and nothing can fail on install or removal.
set -euo pipefail
app="$1" deb="$2"
here="$(cd "$(dirname "$0")" && pwd)"
readme="$here/../../../README.md"
fail() { echo "check-image: $*" >&2; exit 1; }

# 1. No shaded jar in lib/app.
lib="$app/lib/app"
[ -f "$lib/lockstep.jar" ] || fail "$lib/lockstep.jar is missing"
outside="$(unzip -Z1 "$lib/lockstep.jar" | grep '\.class$' | grep -v '^org/lockstep/app/' | head -3 || true)"
[ -z "$outside" ] || fail "$lib/lockstep.jar holds classes that are not the wiring's (a shaded jar?): $outside"
for jar in "$lib"/*.jar; do
  case "$(basename "$jar")" in
    lockstep.jar) ;;
    javafx-*) fail "$jar: JavaFX belongs in the runtime (lib/runtime), not on the class path" ;;
    *) if unzip -Z1 "$jar" org/lockstep/app/Main.class >/dev/null 2>&1; then # (unzip exits 11 without it)
         fail "$jar holds Lockstep's entry point: a shaded jar in the app image"
       fi ;;
  esac
done
echo "ok   $lib: $(ls "$lib" | wc -l) jars, lockstep.jar the wiring only, no shaded jar, no JavaFX"

# 2. Sizes as README says ("it makes the same image (109 MB; the `.deb` 82 MB)").
said="$(tr '\n' ' ' <"$readme" | grep -o 'same image ([0-9]* MB; the `\.deb` *[0-9]* MB)' || true)"
[ -n "$said" ] || fail "README no longer says the image's and the .deb's sizes as 'same image (N MB; the \`.deb\` N MB)'"
read -r image_said deb_said <<<"$(echo "$said" | grep -o '[0-9]\+' | tr '\n' ' ')"
image_mb="$(du -sm "$app" | cut -f1)"
deb_mb="$(( ($(stat -c %s "$deb") + 524288) / 1048576 ))"
within() { [ $(( $1 * 10 )) -ge $(( $2 * 9 )) ] && [ $(( $1 * 10 )) -le $(( $2 * 11 )) ]; }
within "$image_mb" "$image_said" || fail "the app image is $image_mb MB; README says $image_said MB"
within "$deb_mb" "$deb_said" || fail "the .deb is $deb_mb MB; README says $deb_said MB"
echo "ok   image $image_mb MB, .deb $deb_mb MB (README: $image_said and $deb_said MB)"

# 3. The .deb's relations and scripts.
intended() { sed -n "s/^$1=\"\(.*\)\"$/\1/p" "$here/make-deb.sh"; }
[ "$(dpkg-deb -f "$deb" Depends)" = "$(intended depends)" ] ||
  fail "Depends: $(dpkg-deb -f "$deb" Depends); make-deb.sh states: $(intended depends)"
[ "$(dpkg-deb -f "$deb" Suggests)" = "$(intended suggests)" ] ||
  fail "Suggests: $(dpkg-deb -f "$deb" Suggests); make-deb.sh states: $(intended suggests)"
for field in Pre-Depends Recommends Enhances; do
  [ -z "$(dpkg-deb -f "$deb" "$field")" ] || fail "$field: $(dpkg-deb -f "$deb" "$field") (make-deb.sh states none)"
done
scripts="$(dpkg-deb -I "$deb" | grep -oE '\b(preinst|postinst|prerm|postrm|config|triggers)\b' | sort -u || true)"
[ -z "$scripts" ] || fail "maintainer scripts in the .deb: $scripts"
echo "ok   $deb depends on $(intended depends); suggests $(intended suggests); no maintainer scripts"
