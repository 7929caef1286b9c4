#!/usr/bin/env bash
# The build-time measurement behind docs/performance.md, "Building": a fresh build tree, ccache off,
# each target built in the order the build needs it, /usr/bin/time around each; one line per target
# (wall, user and sys seconds) and the total CPU-seconds.
#
#   tests/bench/build_times.sh SOURCE_DIR BUILD_DIR [cmake args...]
#   tests/bench/build_times.sh . /tmp/b-before -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHAINTWIN_PCH=OFF -DCHAINTWIN_UNITY=OFF
#   tests/bench/build_times.sh . /tmp/b-after
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 SOURCE_DIR BUILD_DIR [cmake args...]" >&2
  exit 2
fi
src=$1
b=$2
shift 2
export CCACHE_DISABLE=1
times=$(mktemp)
trap 'rm -f "$times"' EXIT
echo "start $(date +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$b"
/usr/bin/time -f "configure %e wall %U user %S sys" -a -o "$times" cmake -S "$src" -B "$b" -G Ninja "$@" >/dev/null || exit 1
for t in chaintwin_model chaintwin_sim chaintwin_live chaintwin_viz chaintwin_cli chaintwin golden_tests unit_tests all; do
  if [ "$t" = all ]; then target=(); else target=(--target "$t"); fi
  /usr/bin/time -f "$t %e wall %U user %S sys" -a -o "$times" cmake --build "$b" -j 2 "${target[@]}" >"$b.$t.out" 2>&1 ||
    echo "$t FAILED (output in $b.$t.out)" >>"$times"
done
cat "$times"
echo "end $(date +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
awk '/ wall / {cpu += $4 + $6} END {printf "CPU-seconds (user+sys) %.1f\n", cpu}' "$times"
ls -l "$b/chaintwin" | awk '{print "chaintwin binary", $5, "bytes"}'
