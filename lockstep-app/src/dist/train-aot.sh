#!/usr/bin/env bash
# Makes the app image's AOT cache (issue 30; JEP 483, 514, 515): train-aot.sh APP_IMAGE SCRATCH_DIR. The dist profile
# runs it after jpackage. One training run of the image's own launcher, bin/Lockstep, so with exactly the options of
# its lib/app/Lockstep.cfg (a cache trained with other module options, e.g. another --enable-native-access, is
# refused at run time), on a scratch embedded data directory under SCRATCH_DIR: a few commands (get, set, lease
# acquire and release, list --json, as `lockstep-bench startup` runs them) and then the desktop to its first page of
# customers, all in the one JVM (lockstep.training.commands, read by org.lockstep.app.Main), which is then ended as an
# operator's window is closed (SIGTERM); the JVM writes the cache as it exits. Only then does the launcher get
# -XX:AOTCache=$APPDIR/lockstep.aot in its options, so that no start uses a cache that is not there.
# The desktop needs a display: DISPLAY, else xvfb-run (apt-get install xvfb xauth); with neither, the training runs the
# commands only, and says so.
set -euo pipefail
app="$(cd "$1" && pwd)" scratch="$2"
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
log="$scratch/training.log"
export LOCKSTEP_DATA_DIR="$scratch/data" LOCKSTEP_USER=training
# The commands first, then the desktop, in one JVM: one training run makes one cache.
export JAVA_TOOL_OPTIONS="-XX:AOTCacheOutput=$cache -Dlockstep.training.commands=true -Dlockstep.startupReport=true"
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
