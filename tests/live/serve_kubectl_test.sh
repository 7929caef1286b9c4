#!/bin/sh
# kubectl as a real client of `chaintwin serve`: discovery, get with Table columns, get -o json and
# jsonpath, watch, and a clean stop on SIGTERM. Exit 77 (ctest: skipped, with this message) only
# where kubectl is absent. Usage: serve_kubectl_test.sh CHAINTWIN
set -eu
chaintwin=$1
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIPPED: kubectl is not installed; the serve/kubectl test did not run"
  exit 77
fi
tmp=$(mktemp -d)
export HOME="$tmp"  # a fresh discovery cache
. "$(dirname "$0")/serve_helpers.sh"
start_serve "$chaintwin" "$tmp/serve.out" --at 6h
pid=$spid
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
k() { kubectl --server "http://127.0.0.1:$port" --request-timeout 20s "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

k get --raw /version | grep -q '"gitVersion":"v1.32.0-chaintwin"' || fail "/version"
out=$(k get instancetypes)
echo "$out"
echo "$out" | grep -Eq '^NAME +PHASE +EX +SH +SL +PT +CPU$' || fail "the InstanceType columns"
echo "$out" | grep -Eq '^gpustack--nvidia-tesla-t4-linux-amd64 +Active +0/0 +3/18 +0/0 +0/0 +0/0$' || fail "the T4 views at 6h"
out=$(k get clusterqueues)
echo "$out"
echo "$out" | grep -Eq '^gpustack--nvidia-h100-80gb-hbm3-linux-amd64 +None +37 +12 +True \(Ready\) +True \(Ready\)$' || fail "the H100 queue"
[ "$(k get clusterqueues -o json | grep -c '"kind": "ClusterQueue"')" = 4 ] || fail "four ClusterQueues in -o json"
[ "$(k get node h100-0 -o 'jsonpath={.status.capacity.nvidia\.com/gpu\.partitioned}')" = 18 ] || fail "the partitioned key of h100-0"
[ "$(k get localqueues -A --no-headers | wc -l)" = 8 ] || fail "eight LocalQueues"
k get node does-not-exist 2>&1 | grep -q 'NotFound' || fail "NotFound for a missing Node"
# The simulation's Workloads at 6 h, with Kueue's columns.
out=$(k get workloads -A)
echo "$out" | head -3
echo "$out" | head -1 | grep -Eq '^NAMESPACE +NAME +QUEUE +RESERVED IN +ADMITTED +FINISHED$' || fail "the Workload columns"
n=$(k get workloads -A --no-headers | wc -l)
[ "$n" = 84 ] || fail "84 Workloads in the default scenario at 6h (got $n)"
echo "$out" | grep -Eq '^team-a +a10g-inference-3 +gpustack-fnv64-[0-9a-f]+ +gpustack--nvidia-a10g-linux-amd64 +True \(Admitted\) +-$' ||
  fail "an admitted Workload's row"
# A watch lists what is there first, then stays open until its timeout.
timeout 5 kubectl --server "http://127.0.0.1:$port" get resourceflavors -w --no-headers >"$tmp/watch.out" 2>&1 || true
[ "$(wc -l <"$tmp/watch.out")" -ge 4 ] || { cat "$tmp/watch.out"; fail "the watch's initial ResourceFlavors"; }
kill -TERM $pid
wait $pid || fail "serve did not stop cleanly on SIGTERM"
grep -q '^stopped after [0-9]* requests, [0-9]* writes$' "$tmp/serve.out" || fail "the stop line"
echo "kubectl against chaintwin serve: ok"
