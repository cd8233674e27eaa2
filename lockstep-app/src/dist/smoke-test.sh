#!/usr/bin/env bash
# Checks the app image ./mvnw -Pdist package made (target/dist/Lockstep, or the directory given) on a fresh data
# directory: the CLI answers (--version, list --json on the embedded database with its sample customers), and the
# desktop app opens its main window under Xvfb, with the window class (WM_CLASS) the menu entry names and JavaFX's native
# libraries from the runtime's lib directory (needs xvfb-run, xwininfo and xprop: apt-get install xvfb x11-utils).
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
# A cache of its own for the windows' starts: the app records there whether the display xvfb-run picks took the GPU.
XDG_CACHE_HOME="$data/cache" xvfb-run -a -s "-screen 0 1366x768x24" sh -c "\"$launcher\" & app=\$!
  for i in \$(seq 1 600); do
    id=\$(xwininfo -root -tree | grep '\"Lockstep — smoke\"' | awk '{ print \$1; exit }')
    [ -n \"\$id\" ] && { echo shown; xprop -id \"\$id\" WM_CLASS;
      grep -oE '/[^ ]*/lib(glass|prism|javafx|decora)[^/ ]*[.]so' /proc/\$app/maps | sort -u | sed 's/^/native /'
      kill \$app; exit 0; }
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
  # JavaFX's native libraries come from the runtime's lib directory, where the build puts them (lockstep-app's pom):
  # not copies unpacked under the account's home (~/.openjfx/cache), which a home mounted noexec refuses to load, and
  # which each start read out of the image and hashed again.
  natives="$(sed -n 's/^native //p' "$data/ui.out")"
  runtime_lib="$(realpath "$app")/lib/runtime/lib"
  echo "$natives" | grep -q '/libglass[.]so$' ||
    { echo "no JavaFX native library (libglass.so) among the main window's mappings" >&2; exit 1; }
  elsewhere="$(echo "$natives" | while read -r f; do [ "$(dirname "$f")" = "$runtime_lib" ] || echo "$f"; done)"
  [ -z "$elsewhere" ] || { echo "JavaFX loaded native libraries from outside $runtime_lib:" >&2; echo "$elsewhere" >&2; exit 1; }
  echo "ok   JavaFX's native libraries loaded from lib/runtime/lib: $(echo "$natives" | xargs -n1 basename | tr '\n' ' ')"
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
# What launcher.sh makes of a display memo and of the operator's choices, for every kind of memo and environment: a
# copy of the image's launcher and Lockstep.cfg with a java that prints what it was given. A start must never stop,
# print or be slowed by a memo, never override a pipeline chosen for it, and read the memo where the app writes it.
stub="$data/stub"
mkdir -p "$stub/bin" "$stub/lib/app" "$stub/lib/runtime/bin" "$data/home"
cp "$launcher" "$stub/bin/Lockstep"
cp "$app/lib/app/Lockstep.cfg" "$stub/lib/app/Lockstep.cfg"
printf '%s\n' '#!/bin/bash' \
  'printf "GDK_GL=%s sw=%s\n" "${GDK_GL-unset}" "$(printf "%s\n" "$@" | grep -cx -e -Dprism.order=sw)"' \
  >"$stub/lib/runtime/bin/java"
chmod +x "$stub/lib/runtime/bin/java"
shelf="$data/cache/lockstep/display"
mkdir -p "$shelf"
now_s=$(date +%s)
# decides EXPECTED MEMO-NAME MEMO-KIND [VAR=VALUE...]: starts the stub with the memo (a time in seconds, or: none,
# dir, fifo, zero, text:...) and the environment given; EXPECTED is sw (software forced, GDK_GL=disable), as-is or
# what the stub prints.
decides() {
  local expected="$1" name="$2" kind="$3"; shift 3
  rm -rf "${shelf:?}"/* "$data/home/.cache"
  case "$kind" in
    none) ;;
    dir) mkdir "$shelf/$name" ;;
    fifo) mkfifo "$shelf/$name" ;;
    zero) ln -s /dev/zero "$shelf/$name" ;;
    text:*) printf '%s' "${kind#text:}" >"$shelf/$name" ;;
    *) printf '%s\nJavaFX refused\n' "$kind" >"$shelf/$name" ;;
  esac
  local out rc=0
  out=$(env -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS -u _JAVA_OPTIONS -u GDK_GL XDG_CACHE_HOME="$data/cache" \
    DISPLAY=:0 "$@" timeout 10 "$stub/bin/Lockstep" list 2>"$data/decides.err") || rc=$?
  local want="$expected"
  [ "$expected" = sw ] && want="GDK_GL=disable sw=1"
  [ "$expected" = as-is ] && want="GDK_GL=unset sw=0"
  if [ "$rc" != 0 ] || [ "$out" != "$want" ] || [ -s "$data/decides.err" ]; then
    echo "launcher.sh with memo '$kind' at $name and $*: exit $rc, '$out' (want '$want'), stderr:" >&2
    cat "$data/decides.err" >&2
    exit 1
  fi
}
decides sw _0 "$now_s"
decides sw _0 "$((now_s - 7 * 86400 + 60))"
decides sw _0 "0$now_s"
decides sw _0 "text:$now_s"
decides as-is _0 "$((now_s - 7 * 86400 - 60))"
decides as-is _0 "$((now_s + 3600))"
decides as-is _0 "-$now_s"
decides as-is _0 9999999999999
decides as-is _0 "text:08"
decides as-is _0 "text:"
decides as-is _0 "text:garbage"
decides as-is _0 "text:$now_s"$'\r\n'
decides as-is _0 none
for kind in dir fifo zero; do decides as-is _0 "$kind"; done
decides as-is _0 "$now_s" DISPLAY=
decides sw localhost_10_0 "$now_s" DISPLAY=localhost:10.0
decides sw ___x__1 "$now_s" DISPLAY=../x/:1
decides sw __0 "$now_s" DISPLAY=é:0
decides as-is _0 "$now_s" DISPLAY="$(printf ':%0300d' 0)"
decides "GDK_GL=always sw=1" _0 "$now_s" GDK_GL=always
# A blank XDG_CACHE_HOME is no XDG_CACHE_HOME (LockstepConfig.cacheDir): not a directory named by blanks.
decides as-is "_smoke_$$" "$now_s" XDG_CACHE_HOME=' ' DISPLAY=":smoke-$$"
for var in JAVA_TOOL_OPTIONS JDK_JAVA_OPTIONS _JAVA_OPTIONS; do
  decides as-is _0 "$now_s" "$var=-Dprism.order=es2,sw"
  decides as-is _0 "$now_s" "$var=-Xmx300m -Dprism.forceGPU=true"
done
# Java's user.home is the account's home, not $HOME: a memo under another $HOME is not the app's.
mkdir -p "$data/home/.cache/lockstep/display"
printf '%s\n' "$now_s" >"$data/home/.cache/lockstep/display/_smoke_$$"
out=$(env -u XDG_CACHE_HOME -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS -u _JAVA_OPTIONS HOME="$data/home" \
  DISPLAY=":smoke-$$" "$stub/bin/Lockstep" 2>&1)
[ "$out" = "GDK_GL=unset sw=0" ] || { echo "launcher.sh read a memo under \$HOME, not the account's home: $out" >&2; exit 1; }
echo "java-options=-Dprism.order=es2" >>"$stub/lib/app/Lockstep.cfg"
decides as-is _0 "$now_s"
echo "ok   launcher.sh: a recent memo forces software rendering; any other memo, a chosen pipeline or GDK_GL are left"
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
if XDG_CACHE_HOME="$data/cache" xvfb-run -a -s "-screen 0 1366x768x24" bash "$data/display.sh" "$launcher" "$data/cache" \
    >"$data/display.out" 2>"$data/display.err"; then
  echo "ok   a display without a GPU JavaFX takes: remembered, then software rendering at once ($(took "$start"))"
else
  echo "the software-display memo did not work (launcher.sh, SoftwareDisplay):" >&2
  cat "$data/display.out" "$data/display.err" >&2
  exit 1
fi
