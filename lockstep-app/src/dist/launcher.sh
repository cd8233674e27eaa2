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
exec -a "$image/bin/Lockstep" "$image/lib/runtime/bin/java" -classpath "$classpath" "${options[@]}" \
  "-Djpackage.app-path=$image/bin/Lockstep" "$main" "$@"
