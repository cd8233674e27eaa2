#!/usr/bin/env bash
# Installs the .deb for real and takes it away again: install-test.sh [target/dist/lockstep_*_amd64.deb]. As root
# (.ci/run runs it after the smoke test). With apt: install, the CLI of /opt/lockstep on a scratch data directory
# (list --json, then db stop), the same .deb again over itself (the upgrade path: dpkg unpacks it over the installed
# one), remove; install again and purge; after each nothing of it may be left: /opt/lockstep, the menu entry, the icons, its doc directory,
# dpkg's record. This runs on the machine as it is, with or without /usr/share/applications; the case without a menu
# directory is then exercised too, with dpkg into an empty root directory (dpkg --root), where /usr/share/applications
# does not exist: install, install again, purge, and the root must be empty again (dpkg made the directories, and takes
# them away). The package has no maintainer scripts, so nothing has to run in that root.
# Refuses to start when a lockstep package is installed already (or its configuration is left): it would remove it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
deb="${1:-$(ls target/dist/lockstep_*_amd64.deb)}"
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
[ "$(id -u)" = 0 ] || { echo "install-test.sh installs a package: run it as root" >&2; exit 1; }
status="$(dpkg-query -W -f='${Status}' lockstep 2>/dev/null || true)"
case "$status" in
  "" | "unknown ok not-installed" | "purge ok not-installed" | "deinstall ok not-installed") ;;
  *) echo "a lockstep package is on this machine already ($status): not touching it; remove it first" >&2; exit 1 ;;
esac

scratch="$(mktemp -d)"
installed=
apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0 "$@" >"$scratch/apt.log" 2>&1 ||
  { cat "$scratch/apt.log" >&2; echo "apt-get $* failed" >&2; exit 1; }; }
cleanup() {
  [ -x /opt/lockstep/bin/Lockstep ] && /opt/lockstep/bin/Lockstep --data-dir "$scratch/data" db stop >/dev/null 2>&1 || true
  # Only a package this script installed (it refused to start over another one).
  [ -n "$installed" ] && DEBIAN_FRONTEND=noninteractive apt-get -y -q purge lockstep >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
export XDG_CACHE_HOME="$scratch/cache" XDG_DATA_HOME="$scratch/share" LOCKSTEP_USER=install-test

# What must be there while it is installed, relative to a root; and nothing of it once it is purged.
files=(opt/lockstep/bin/Lockstep usr/share/applications/lockstep.desktop
  usr/share/icons/hicolor/48x48/apps/lockstep.png usr/share/icons/hicolor/scalable/apps/lockstep.svg
  usr/share/doc/lockstep/copyright)
check_installed() {
  local root="$1" f
  for f in "${files[@]}"; do [ -e "$root/$f" ] || { echo "not installed: /$f" >&2; exit 1; }; done
  grep -qx "StartupWMClass=$(sed -n 's/^StartupWMClass=//p' "$here/lockstep.desktop")" \
    "$root/usr/share/applications/lockstep.desktop" || { echo "menu entry without StartupWMClass" >&2; exit 1; }
}
check_gone() {
  local root="$1" left
  left="$(find "$root/opt/lockstep" "$root/usr/share/doc/lockstep" 2>/dev/null; \
    find "$root/usr/share/applications" "$root/usr/share/icons" -name 'lockstep*' 2>/dev/null || true)"
  [ -z "$left" ] || { echo "left behind after purge:" >&2; echo "$left" >&2; exit 1; }
}

menu_dir=without; [ -d /usr/share/applications ] && menu_dir=with
apt_get install "$deb"
installed=yes
[ "$(dpkg-query -W -f='${Status}' lockstep)" = "install ok installed" ] || { echo "lockstep not configured" >&2; exit 1; }
check_installed /
echo "ok   apt install $(basename "$deb") (this machine: $menu_dir /usr/share/applications)"

/opt/lockstep/bin/Lockstep --data-dir "$scratch/data" list --json >"$scratch/list.json"
customers=$(grep -c '"id" :' "$scratch/list.json" || true)
[ "$customers" -gt 0 ] || { echo "/opt/lockstep/bin/Lockstep list --json listed no customers" >&2; exit 1; }
/opt/lockstep/bin/Lockstep --data-dir "$scratch/data" db stop >/dev/null
echo "ok   /opt/lockstep/bin/Lockstep list --json: $customers customers; db stop"

apt_get install --reinstall "$deb"
[ "$(dpkg-query -W -f='${Status}' lockstep)" = "install ok installed" ] || { echo "lockstep not configured" >&2; exit 1; }
check_installed /
echo "ok   apt install --reinstall (the same .deb over itself)"

apt_get remove lockstep
installed=
check_gone /
echo "ok   apt remove: nothing left (it has no configuration files, so dpkg forgets it: $(dpkg-query -W \
  -f='${db:Status-Abbrev}' lockstep 2>/dev/null || echo 'no record'))"
# And purge straight from installed (a removed package has nothing left for apt to purge).
apt_get install "$deb"
installed=yes
check_installed /
apt_get purge lockstep
installed=
check_gone /
if [ -n "$(dpkg-query -W -f='${db:Status-Abbrev}' lockstep 2>/dev/null | tr -d ' ' | grep -v '^un$' || true)" ]; then
  echo "dpkg still knows lockstep: $(dpkg -l lockstep | tail -1)" >&2; exit 1
fi
[ "$menu_dir" = with ] || [ ! -e /usr/share/applications ] || { echo "/usr/share/applications left" >&2; exit 1; }
echo "ok   apt install, apt purge: nothing left (/opt/lockstep, menu entry, icons, dpkg -l lockstep)"

# No menu directory: an empty root for dpkg (its database only), where /usr/share/applications does not exist.
root="$scratch/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
in_root() { dpkg --root="$root" --log=/dev/null --force-depends "$@" >"$scratch/dpkg.log" 2>&1 ||
  { cat "$scratch/dpkg.log" >&2; echo "dpkg --root $* failed" >&2; exit 1; }; }
in_root --install "$deb"
check_installed "$root"
in_root --install "$deb"
check_installed "$root"
in_root --purge lockstep
check_gone "$root"
left="$(cd "$root" && find . -mindepth 1 -not -path ./var -not -path ./var/lib -not -path './var/lib/dpkg*' | head -5)"
[ -z "$left" ] || { echo "left in the empty root after purge: $left" >&2; exit 1; }
echo "ok   without /usr/share/applications (dpkg --root, an empty root): install, again over itself, purge: root empty"
