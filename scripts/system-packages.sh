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

# `env` inside sudo: sudo drops variables such as DEBIAN_FRONTEND from the caller's environment.
apt_get=(env DEBIAN_FRONTEND=noninteractive LC_ALL=C apt-get -o DPkg::Lock::Timeout=300)
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    apt_get=(sudo "${apt_get[@]}")
  else
    echo "Missing system packages: ${missing[*]}" >&2
    echo "Install them once with:  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

echo "Installing system packages: ${missing[*]}"
# Another make run/make test (or unattended-upgrades) may be using apt at the same time. apt waits
# for dpkg's lock by itself (DPkg::Lock::Timeout), but `apt-get update` gives up at once when the
# package lists are locked: try it again for up to five minutes then.
for attempt in $(seq 60); do
  if output=$("${apt_get[@]}" update -qq 2>&1); then
    [ -z "$output" ] || echo "$output" >&2
    break
  fi
  if [ "$attempt" -eq 60 ] || ! grep -q "Could not get lock" <<<"$output"; then
    echo "$output" >&2
    exit 1
  fi
  sleep 5
done
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
