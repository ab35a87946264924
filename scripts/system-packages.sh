#!/usr/bin/env bash
# Make sure the Debian/Ubuntu packages named on the command line are installed.
# Installs the missing ones with apt when it can (as root, or with password-less sudo);
# otherwise says exactly what to install and fails.
set -euo pipefail

missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  apt_get=(apt-get)
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  apt_get=(sudo apt-get)
else
  echo "Missing system packages: ${missing[*]}" >&2
  echo "Install them once with:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "Installing system packages: ${missing[*]}"
# Serialise with any other make run/make test doing the same on this machine.
exec 8>/tmp/.cgs-apt.lock
flock 8
export DEBIAN_FRONTEND=noninteractive
"${apt_get[@]}" update -qq
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
