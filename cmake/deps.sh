#!/usr/bin/env bash
# Makes sure every Debian package chaintwin builds and tests with is installed.
# As root it installs what is missing; otherwise it prints the exact apt line and fails.
set -euo pipefail

packages=(pkg-config cmake ninja-build g++ make
  libboost-graph-dev libeigen3-dev libsqlite3-dev libimgui-dev libglfw3-dev catch2
  nlohmann-json3-dev libcli11-dev libcurl4-openssl-dev libyaml-cpp-dev libcpp-httplib-dev libstb-dev libgoogle-perftools-dev
  libegl-dev xvfb xauth libgl1-mesa-dri libgl-dev
  python3-jsonschema python3-yaml openssl ccache curl)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

line="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  echo "chaintwin: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "chaintwin: missing Debian packages. Run as root:" >&2
  echo "  $line" >&2
  exit 1
fi
