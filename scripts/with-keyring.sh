#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so keychain code talks
# to a real Secret Service. Each run gets fresh XDG folders: no keyring state leaks between runs.
set -euo pipefail

if [ -z "${ASSET_DESK_KEYRING_SESSION:-}" ]; then
  command -v dbus-run-session >/dev/null || { echo "dbus-run-session is missing: apt-get install dbus dbus-user-session" >&2; exit 1; }
  command -v gnome-keyring-daemon >/dev/null || { echo "gnome-keyring-daemon is missing: apt-get install gnome-keyring" >&2; exit 1; }
  export ASSET_DESK_KEYRING_SESSION=1
  exec dbus-run-session -- bash "$0" "$@"
fi

scratch=$(mktemp -d)
export XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/runtime" XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME"
chmod 700 "$XDG_RUNTIME_DIR"

# --unlock reads the new login keyring's password from stdin and prints the variables clients need.
eval "$(printf 'asset-desk-ci' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
# The daemon leaves with the D-Bus session that dbus-run-session tears down after us.
cleanup() { rm -rf "$scratch"; }
trap cleanup EXIT

"$@"
