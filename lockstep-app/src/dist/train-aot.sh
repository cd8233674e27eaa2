#!/usr/bin/env bash
# Makes the app image's AOT cache (issue 30; JEP 483, 514, 515): train-aot.sh APP_IMAGE SCRATCH_DIR JDK. The dist
# profile runs it after jpackage, with the JDK 25 that made the image (its jar tool). One training run of the image's
# own launcher, bin/Lockstep, so with exactly the options of its lib/app/Lockstep.cfg (a cache trained with other
# module options, e.g. another --enable-native-access, is refused at run time), on a scratch embedded data directory
# under SCRATCH_DIR: a few commands (get, set, lease
# acquire and release, list --json, as `lockstep-bench startup` runs them) and then the desktop to its first page of
# customers, all in the one JVM (lockstep.training.commands, read by org.lockstep.app.Main), which is then ended as an
# operator's window is closed (SIGTERM); the JVM writes the cache as it exits. Only then does the launcher get
# -XX:AOTCache=$APPDIR/lockstep.aot in its options, so that no start uses a cache that is not there.
# The desktop needs a display: DISPLAY, else xvfb-run (apt-get install xvfb xauth); with neither, the training runs the
# commands only, and says so.
# The cache is trained here and used where the .deb installs the image (/opt/lockstep). Java 25 takes that move (the
# class path is the same relative to the image), except for sealed packages: the cache defines an archived class's
# package with the training's jar URL as its seal base, so the first class of that package loaded from the installed
# jar failed with "sealing violation: package org.tukaani.xz is sealed" (xz-1.12.jar, which commons-compress loads to
# unpack the embedded server: every first start of the installed .deb). So the image's jars are unsealed first
# (Sealed: false in their manifests); sealing only guards against classes of another jar joining the package, and the
# image's class path is fixed.
set -euo pipefail
app="$(cd "$1" && pwd)" scratch="$2" jdk="$3"
launcher="$app/bin/Lockstep"
cfg="$app/lib/app/Lockstep.cfg"
cache="$app/lib/app/lockstep.aot"
here="$(cd "$(dirname "$0")" && pwd)"
fail() { echo "train-aot: $*" >&2; exit 1; }

xvfb="$(command -v xvfb-run || true)"
if [ -z "${DISPLAY:-}" ] && [ -z "${LOCKSTEP_TRAINING_DISPLAY:-}" ] && [ -x "$xvfb" ]; then
  # Again under a virtual X server; the variable keeps it from doing so twice.
  LOCKSTEP_TRAINING_DISPLAY=xvfb exec "$xvfb" -a -s '-screen 0 1600x900x24' "$0" "$@"
fi
desktop=yes
if [ -z "${DISPLAY:-}" ]; then
  desktop=
  echo "train-aot: no display and no xvfb-run: the AOT cache is trained on the commands only (the desktop then starts" \
    "without the JavaFX classes in it); apt-get install xvfb xauth to train it on the desktop too" >&2
fi

grep -q 'AOTCache' "$cfg" && fail "$cfg names an AOT cache already: train a fresh app image"
rm -rf "$scratch" "$cache"
mkdir -p "$scratch"
for jar in "$app"/lib/app/*.jar; do
  unzip -p "$jar" META-INF/MANIFEST.MF 2>/dev/null | grep -qi '^Sealed: *true' || continue
  # Rebuilt with the manifest changed: `jar --update --manifest` merges, and warns of the name given twice.
  rm -rf "$scratch/unseal" && mkdir -p "$scratch/unseal/files"
  (cd "$scratch/unseal/files" && unzip -q "$jar")
  mv "$scratch/unseal/files/META-INF/MANIFEST.MF" "$scratch/unseal/sealed.MF"
  sed 's/^Sealed: *true\(\r\?\)$/Sealed: false\1/I' "$scratch/unseal/sealed.MF" >"$scratch/unseal/MANIFEST.MF"
  "$jdk/bin/jar" --create --file "$scratch/unseal/unsealed.jar" --manifest "$scratch/unseal/MANIFEST.MF" \
    -C "$scratch/unseal/files" .
  [ "$(unzip -Z1 "$jar" | sort)" = "$(unzip -Z1 "$scratch/unseal/unsealed.jar" | sort)" ] ||
    fail "unsealing $jar changed its entries"
  mv "$scratch/unseal/unsealed.jar" "$jar"
  echo "train-aot: unsealed $(basename "$jar") (sealed packages break the cache where the image is installed)" >&2
done
rm -rf "$scratch/unseal"
log="$scratch/training.log"
export LOCKSTEP_DATA_DIR="$scratch/data" LOCKSTEP_USER=training
# The commands first, then the desktop, in one JVM: one training run makes one cache. JavaFX's own order of pipelines,
# given: the desktop trains the GPU's probe and the software pipeline both (what a display with a GPU loads, and what
# one without does), whatever the memo of the builder's display says (launcher.sh reads none when the order is given),
# and writes no memo there (org.lockstep.shell.SoftwareDisplay records only a start that chose nothing).
export JAVA_TOOL_OPTIONS="-XX:AOTCacheOutput=$cache -Dlockstep.training.commands=true -Dlockstep.startupReport=true \
-Dprism.order=es2,sw"
stop_server() { env -u JAVA_TOOL_OPTIONS "$launcher" db stop >/dev/null 2>&1 || true; }
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; stop_server; }
trap cleanup EXIT

start=$(date +%s)
if [ -n "$desktop" ]; then
  "$launcher" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 900); do # 180 s at most
    grep -q '^lockstep-startup first-page' "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; fail "the training run ended before the desktop's first page"; }
    sleep 0.2
  done
  grep -q '^lockstep-startup first-page' "$log" || { cat "$log" >&2; fail "no first page within 180 s"; }
  kill -TERM "$pid"
  # Exit 143 (SIGTERM); the cache is written meanwhile, by a second JVM the first one starts.
  wait "$pid" || true
  pid=
else
  "$launcher" --version >"$log" 2>&1 || { cat "$log" >&2; fail "the training run failed"; }
fi
[ -s "$cache" ] || { cat "$log" >&2; fail "the training run wrote no AOT cache ($cache)"; }
grep -q '^lockstep-training commands done' "$log" || { cat "$log" >&2; fail "the training run did not run the commands"; }
echo 'java-options=-XX:AOTCache=$APPDIR/lockstep.aot' >>"$cfg"
unset JAVA_TOOL_OPTIONS
# The launcher uses the cache (-XX:AOTMode=on fails when it cannot), and the commands work with it.
JAVA_TOOL_OPTIONS=-XX:AOTMode=on "$launcher" --version >/dev/null 2>"$scratch/check.log" ||
  { cat "$scratch/check.log" >&2; fail "bin/Lockstep cannot use the AOT cache it was trained for"; }
echo "train-aot: $(du -m "$cache" | cut -f1) MB AOT cache from $( [ -n "$desktop" ] && echo "the commands and the desktop" ||
  echo "the commands only") in $(( $(date +%s) - start )) s (${LOCKSTEP_TRAINING_DISPLAY:-display ${DISPLAY:-none}})"
