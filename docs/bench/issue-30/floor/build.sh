#!/usr/bin/env bash
# Builds the two floor programs of issue 30's phase 2 into OUT (default /tmp/lockstep-floor): bare-table.jar (a Stage
# with a TableView of 59 rows under AtlantaFX) and bare-select.jar (one JDBC connection, SELECT 1), each with its
# libraries beside it (JavaFX 21's jars and atlantafx-base; pgjdbc), taken from what `./mvnw -Pdist package` left in
# lockstep-app/target. JavaFX is on the class path, as in target/lockstep.jar (which shades it), so the table starts
# under `java -jar` on any Java 17 or newer as Lockstep's jar does.
# docs/benchmarks.md, "Issue 30, phase 2", runs them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
app="$here/../../../../lockstep-app/target"
out="${1:-/tmp/lockstep-floor}"
javafx=("$app"/dist-javafx/javafx-*.jar)
atlantafx=("$app"/dist-input/atlantafx-base-*.jar)
pgjdbc=("$app"/dist-input/postgresql-*.jar)
[ -f "${atlantafx[0]}" ] && [ -f "${pgjdbc[0]}" ] && [ -f "${javafx[0]}" ] ||
  { echo "build.sh: run ./mvnw -Pdist -DskipTests package first (it leaves the jars in lockstep-app/target)" >&2; exit 1; }
rm -rf "$out"; mkdir -p "$out/classes"
cp "${atlantafx[0]}" "${pgjdbc[0]}" "${javafx[@]}" "$out/"
cp_fx="$(IFS=:; echo "${javafx[*]}")"
javac --release 17 -d "$out/classes" -cp "$cp_fx" "$here/BareTable.java" "$here/BareSelect.java"
printf 'Main-Class: BareTable\nClass-Path: %s\n' "$(for j in "${atlantafx[0]}" "${javafx[@]}"; do basename "$j"; done |
  tr '\n' ' ')" >"$out/table.mf"
printf 'Main-Class: BareSelect\nClass-Path: %s\n' "$(basename "${pgjdbc[0]}")" >"$out/select.mf"
jar --create --file "$out/bare-table.jar" --manifest "$out/table.mf" -C "$out/classes" BareTable.class \
  -C "$out/classes" 'BareTable$Window.class'
jar --create --file "$out/bare-select.jar" --manifest "$out/select.mf" -C "$out/classes" BareSelect.class
echo "$out/bare-table.jar $out/bare-select.jar"
