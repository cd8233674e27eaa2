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
# A display whose GPU JavaFX refused (Xvfb has only Mesa's software OpenGL): the first start records it, the next
# one renders in software at once without loading OpenGL at all, and a pipeline the operator chose is left alone
# (launcher.sh; org.lockstep.shell.SoftwareDisplay). Three starts in one Xvfb, so that they share one display name.
cat >"$data/display.sh" <<'EOF'
set -euo pipefail
launcher="$1" cache="$2"
memo="$cache/lockstep/display/${DISPLAY//[^[:alnum:]]/_}"
rm -f "$memo"
# Starts the windows, waits for the main one, runs the check given on the java process's pid, ends it.
shown() {
  "$launcher" & local app=$!
  for _ in $(seq 1 600); do
    if xwininfo -root -tree | grep -q '"Lockstep — smoke"'; then
      local ok=0
      "$@" "$app" || ok=1
      kill "$app"; wait "$app" || true
      return "$ok"
    fi
    kill -0 "$app" 2>/dev/null || { echo "bin/Lockstep ended before its main window" >&2; return 1; }
    sleep 0.2
  done
  kill "$app"; echo "no main window within 120 s" >&2; return 1
}
loaded_gl() { grep -q -E '/libGL(X)?[._]' "/proc/$1/maps"; }
pipeline() { tr '\0' '\n' <"/proc/$1/cmdline" | grep -x -e '-Dprism.order=sw' || true; }
gdk_gl() { tr '\0' '\n' <"/proc/$1/environ" | grep '^GDK_GL=' || true; }
first() { [ -z "$(pipeline "$1")" ]; }
shown first
[[ "$(head -1 "$memo" 2>/dev/null)" =~ ^[0-9]+$ ]] || { echo "the first start recorded no memo in $memo" >&2; exit 1; }
echo "memo $memo"
second() {
  [ -n "$(pipeline "$1")" ] || { echo "the second start was not told -Dprism.order=sw" >&2; return 1; }
  [ "$(gdk_gl "$1")" = GDK_GL=disable ] || { echo "the second start's GTK was not told GDK_GL=disable" >&2; return 1; }
  ! loaded_gl "$1" || { echo "the second start loaded OpenGL: $(grep -o '/[^ ]*libGL[^ ]*' "/proc/$1/maps" | sort -u)" >&2; return 1; }
}
shown second
echo "second start: software rendering, no OpenGL loaded"
chosen() {
  [ -z "$(pipeline "$1")" ] && [ -z "$(gdk_gl "$1")" ] ||
    { echo "the launcher overrode the operator's prism.order" >&2; return 1; }
}
JAVA_TOOL_OPTIONS="-Dprism.order=es2,sw" shown chosen
echo "an operator's prism.order: left as chosen"
EOF
start=$(now)
if xvfb-run -a -s "-screen 0 1366x768x24" bash "$data/display.sh" "$launcher" "${XDG_CACHE_HOME:-$HOME/.cache}" \
    >"$data/display.out" 2>"$data/display.err"; then
  echo "ok   a display without a GPU JavaFX takes: remembered, then software rendering at once ($(took "$start"))"
else
  echo "the software-display memo did not work (launcher.sh, SoftwareDisplay):" >&2
  cat "$data/display.out" "$data/display.err" >&2
  exit 1
fi
