#!/usr/bin/env bash
# Checks the app image ./mvnw -Pdist package made (target/dist/Lockstep, or the directory given) on a fresh data
# directory: the CLI answers (--version, list --json on the embedded database with its sample customers), and the
# desktop app opens its main window under Xvfb, with the window class (WM_CLASS) the menu entry names (needs xvfb-run,
# xwininfo and xprop: apt-get install xvfb x11-utils).
# Prints how long each took; .ci/run runs it after the tests. Exits non-zero on the first check that fails.
set -euo pipefail
app="${1:-target/dist/Lockstep}"
launcher="$app/bin/Lockstep"
data="$(mktemp -d)"
export LOCKSTEP_DATA_DIR="$data" LOCKSTEP_USER=smoke
ui_pid=
cleanup() {
  [ -n "$ui_pid" ] && kill "$ui_pid" 2>/dev/null || true
  "$launcher" db stop >/dev/null 2>&1 || true
  rm -rf "$data"
}
trap cleanup EXIT
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

version="$("$launcher" --version)"
[ "$version" = "Lockstep 0.1" ] || { echo "bin/Lockstep --version said: $version" >&2; exit 1; }
echo "ok   bin/Lockstep --version: $version"

start=$(now)
"$launcher" list --json >"$data/list.json"
first=$(took "$start")
customers=$(grep -c '"id" :' "$data/list.json" || true)
[ "$customers" -gt 0 ] || { echo "bin/Lockstep list --json listed no customers" >&2; exit 1; }
start=$(now)
"$launcher" list --json >/dev/null
echo "ok   bin/Lockstep list --json: $customers customers ($first with the first start of the server, $(took "$start") after)"

# The main window's title is "Lockstep — <user>"; the starting window's "Lockstep — starting".
start=$(now)
xvfb-run -a -s "-screen 0 1366x768x24" sh -c "\"$launcher\" & app=\$!
  for i in \$(seq 1 600); do
    id=\$(xwininfo -root -tree | grep '\"Lockstep — smoke\"' | awk '{ print \$1; exit }')
    [ -n \"\$id\" ] && { echo shown; xprop -id \"\$id\" WM_CLASS; kill \$app; exit 0; }
    kill -0 \$app 2>/dev/null || exit 1
    sleep 0.2
  done
  kill \$app; exit 1" >"$data/ui.out" 2>"$data/ui.err" &
ui_pid=$!
if wait "$ui_pid" && grep -q shown "$data/ui.out"; then
  ui_pid=
  echo "ok   bin/Lockstep opened its main window under Xvfb in $(took "$start") (server already running)"
  # The dock finds the menu entry by the window's class (WM_CLASS): it must be the entry's StartupWMClass.
  wm_class="$(sed -n 's/^StartupWMClass=//p' "$(dirname "$0")/lockstep.desktop")"
  if ! grep -qx "WM_CLASS(STRING) = \"$wm_class\", \"$wm_class\"" "$data/ui.out"; then
    echo "the main window's class is not the menu entry's StartupWMClass ($wm_class): $(grep WM_CLASS "$data/ui.out")" >&2
    exit 1
  fi
  echo "ok   the main window's WM_CLASS is the menu entry's StartupWMClass: $wm_class"
  # JavaFX is in the runtime as modules: it must not warn that it was loaded from the class path.
  if grep -q "Unsupported JavaFX configuration" "$data/ui.err"; then
    echo "bin/Lockstep loaded JavaFX from the class path (Unsupported JavaFX configuration)" >&2
    exit 1
  fi
else
  ui_pid=
  echo "bin/Lockstep did not open its main window under Xvfb within 120 s:" >&2
  cat "$data/ui.err" >&2
  exit 1
fi
