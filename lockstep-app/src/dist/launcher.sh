#!/bin/bash
# The app image's bin/Lockstep on Linux (issue 30): starts org.lockstep.app.Main on the image's own runtime with the
# class path and options of lib/app/Lockstep.cfg, the file jpackage wrote, exactly as jpackage's native launcher passed
# them (the same -classpath, the options in their order, -Djpackage.app-path), so the AOT cache trained with that
# launcher is used, and an administrator's option added to that file still applies. The dist profile puts it in place
# of jpackage's launcher before the training run.
# Why not jpackage's launcher: at every start it asks the package manager whether it was installed by a package
# (rpm -qf and dpkg -S on itself, twice, and when installed dpkg -L of the package to find its libapplauncher.so:
# jdk.jpackage's LinuxPackage.c, with no way to turn it off). dpkg -S reads the list of every installed package's
# files: twice, 0.16 CPU-s and 0.25-0.33 s on a machine of 781 packages (load 4), a fifth of a command's CPU on the
# image and half of the 0.6 s a command may take (docs/benchmarks.md, "Issue 30, phase 2").
# bash, not sh: the options are an array (one may hold spaces); bash is an essential package on Debian.
set -euo pipefail
image="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
appdir="$image/lib/app"
options=()
classpath=""
main=""
while IFS= read -r line || [ -n "$line" ]; do
  line="${line//\$APPDIR/$appdir}"
  case "$line" in
    java-options=*) options+=("${line#java-options=}") ;;
    app.classpath=*) classpath="${classpath:+$classpath:}${line#app.classpath=}" ;;
    app.mainclass=*) main="${line#app.mainclass=}" ;;
  esac
done <"$appdir/Lockstep.cfg"
# A display on which JavaFX refused the GPU at a start in the last 7 days (org.lockstep.shell.SoftwareDisplay wrote
# the memo: its first line is that time in seconds): the software pipeline at once, the one JavaFX fell back to, and
# GTK told not to load OpenGL either. Both would otherwise load Mesa's GL stack only to drop it: 49 MB resident and
# about 0.1 CPU-s a start (docs/benchmarks.md, "Issue 30, phase 5"). Not when a pipeline was chosen already: a
# prism.order, or prism.forceGPU (JavaFX's way to take a GPU it would refuse), in any of the variables java reads
# options from or in Lockstep.cfg.
# The memo's path as the app names it (LockstepConfig.cacheDir): $XDG_CACHE_HOME unless blank, else the .cache of
# Java's user.home, which is the account's home directory (getpwuid; bash's ~ when HOME is unset), not $HOME, unless
# that is shorter than two characters; the display with every character but an ASCII letter or digit as _.
# Nothing here may stop or slow the start, nor print: a memo that is not a regular file holding a recent time, or
# that cannot be read, is no memo.
account_home() { local HOME; unset HOME; home=~; }
if [ -n "${DISPLAY:-}" ] &&
  [[ "${JAVA_TOOL_OPTIONS:-} ${JDK_JAVA_OPTIONS:-} ${_JAVA_OPTIONS:-} ${options[*]:-}" != *prism.@(order|forceGPU)* ]]; then
  cache="${XDG_CACHE_HOME:-}"
  if [[ "$cache" != *[![:space:]]* ]]; then
    home=
    account_home
    (( ${#home} >= 2 )) || home="${HOME:-}"
    cache="${home:+$home/.cache}"
  fi
  refused=
  if [ -n "$cache" ]; then
    memo="$cache/lockstep/display/${DISPLAY//[^0-9A-Za-z]/_}"
    # A regular file only, and one short line of it: a FIFO or a link to /dev/zero there must not hold the start.
    { [ -f "$memo" ] && read -r -n 24 refused <"$memo"; } 2>/dev/null || true
  fi
  # 10#: a time written with leading zeros is decimal, not octal (bash's arithmetic would print an error for 08).
  if [[ "$refused" =~ ^[0-9]{1,12}$ ]]; then
    age=$(( $(printf '%(%s)T' -1) - 10#$refused ))
    if (( age >= 0 && age < 7 * 86400 )); then
      export GDK_GL="${GDK_GL:-disable}"
      options+=(-Dprism.order=sw)
    fi
  fi
fi
exec -a "$image/bin/Lockstep" "$image/lib/runtime/bin/java" -classpath "$classpath" "${options[@]}" \
  "-Djpackage.app-path=$image/bin/Lockstep" "$main" "$@"
