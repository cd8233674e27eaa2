#!/usr/bin/env bash
# Prints the home of the JDK the app image is made with and ships (issue 30): a JDK 25 with jlink and jpackage. The
# build itself stays on Java 17 (release 17, JavaFX 21); the image carries Java 25 for its AOT cache (JEP 483, 514,
# 515), which the training run at build time makes (train-aot.sh) and which only the runtime that made it can use.
#   find-jdk.sh [GIVEN]   GIVEN: -Ddist.jdk's value, or empty to look for one
# Looks, in this order, at GIVEN, at JAVA_HOME, and at every JDK under /usr/lib/jvm (where Debian's and Adoptium's
# packages put them: /usr/lib/jvm/temurin-25-jdk-amd64), and takes the first whose `release` file says Java 25 and
# that has bin/jlink and bin/jpackage. None: exits 1 with one sentence saying what to install (the dist profile fails
# with it), never later with a class-version error.
set -euo pipefail
given="${1:-}"

major() { # the feature release of the JDK at $1 (25 of JAVA_VERSION="25.0.3"), or nothing
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true
}
usable() { [ -x "$1/bin/jlink" ] && [ -x "$1/bin/jpackage" ] && [ "$(major "$1")" = 25 ]; }

if [ -n "$given" ]; then
  usable "$given" && { echo "$given"; exit 0; }
  echo "-Ddist.jdk=$given is not a JDK 25 with jlink and jpackage (its release file says Java" \
    "$(major "$given" | grep . || echo '?')): give the directory of a JDK 25, e.g. -Ddist.jdk=/usr/lib/jvm/temurin-25-jdk-amd64." >&2
  exit 1
fi
for jdk in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
  [ -n "$jdk" ] && [ -d "$jdk" ] && usable "$jdk" && { echo "$jdk"; exit 0; }
done
echo "The app image ships Java 25 and no JDK 25 was found (JAVA_HOME, /usr/lib/jvm): install one, e.g." \
  "'apt install temurin-25-jdk' from Adoptium's repository (https://adoptium.net/installation/linux/), or give" \
  "its directory with -Ddist.jdk=/path/to/jdk-25." >&2
exit 1
