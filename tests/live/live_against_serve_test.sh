#!/bin/sh
# The live mode against `chaintwin serve` on loopback: shadow mode over the served cluster finds no
# drift (the served cluster is the operator's fixpoint), -o json prints nothing for no drift, bad
# input exits 2, an unreachable server exits 3, and the token never appears in any output.
# Usage: live_against_serve_test.sh CHAINTWIN SOURCE_DIR SCENARIO_WITH_SETTINGS
set -eu
chaintwin=$1
tmp=$(mktemp -d)
. "$(dirname "$0")/serve_helpers.sh"
# The token below is bound to the shadow ClusterRole shipped in docs/rbac: every read here (lists,
# watches, the snapshot) must be allowed by it.
start_serve "$chaintwin" "$tmp/serve.out" --at 330m --role "not-to-be-seen-0123=$(dirname "$0")/../../docs/rbac/chaintwin-shadow.yaml"
pid=$spid
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
kubeconfig() {  # SERVER
  cat <<KC
apiVersion: v1
kind: Config
current-context: twin
clusters: [{name: twin, cluster: {server: "$1"}}]
users: [{name: me, user: {token: not-to-be-seen-0123}}]
contexts: [{name: twin, context: {cluster: twin, user: me}}]
KC
}
kubeconfig "http://127.0.0.1:$port" >"$tmp/kc.yaml"
"$chaintwin" live --kubeconfig "$tmp/kc.yaml" --once >"$tmp/out" 2>"$tmp/err" || fail "live --once exit $? (want 0): $(cat "$tmp/out" "$tmp/err")"
cat "$tmp/out" "$tmp/err"
grep -q '^no drift: the cluster is where the operator would leave it$' "$tmp/out" || fail "no drift"
grep -q 'objects at resourceVersion' "$tmp/out" || fail "the header"
if grep -q 'not served' "$tmp/err"; then fail "serve serves every kind the live mode reads"; fi
KUBECONFIG="$tmp/kc.yaml" "$chaintwin" live --once -o json >"$tmp/json" || fail "live -o json via KUBECONFIG"
[ ! -s "$tmp/json" ] || fail "-o json prints a line per drift, none here"
set +e
"$chaintwin" live --kubeconfig "$tmp/kc.yaml" --context nope --once 2>"$tmp/err2"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "no context named 'nope'" "$tmp/err2" || fail "a missing context: exit $rc"
# The header counts the served Workloads (the default scenario at 5 h 30 m: 16 admitted, 53 pending).
grep -q 'Workloads: 16 admitted, 0 waiting for admission checks, 53 pending, 0 finished$' "$tmp/out" || fail "the Workload counts"
# On a terminal the watch loop redraws its table in place (script(1) gives it one; util-linux).
timeout 5 script -qfec "'$chaintwin' live --kubeconfig '$tmp/kc.yaml'" /dev/null >"$tmp/tty.out" 2>&1 || true
esc=$(printf '\033')
grep -q "^${esc}\[H${esc}\[2J# http://127.0.0.1:$port " "$tmp/tty.out" || fail "the table redrawn in place: $(cat -v "$tmp/tty.out")"
grep -q '^(watching; drawn at 20[0-9-]*T[0-9:]*Z; Ctrl-C stops)' "$tmp/tty.out" || fail "when the table was drawn"
# A snapshot of the served cluster is a scenario `chaintwin run` accepts, with the Workloads in flight.
"$chaintwin" snapshot --kubeconfig "$tmp/kc.yaml" -o "$tmp/snap.yaml" --horizon 1h >"$tmp/snap.out" || fail "snapshot"
cat "$tmp/snap.out"
grep -q ': 45 objects and 69 Workloads in flight (16 holding quota, 53 pending) from ' "$tmp/snap.out" || fail "the snapshot's counts"
grep -q '^kind: Scenario$' "$tmp/snap.yaml" || fail "the snapshot is a scenario"
[ "$(grep -c '^    kind: Node$' "$tmp/snap.yaml")" = 5 ] || fail "five Nodes in the snapshot"
[ "$(grep -c '^  instanceType: gpustack--' "$tmp/snap.yaml")" = 69 ] || fail "69 captured Workloads"
"$chaintwin" run "$tmp/snap.yaml" >"$tmp/run.out" || fail "chaintwin run of the snapshot: $(cat "$tmp/run.out")"
grep -q '^Pools in cards (' "$tmp/run.out" || fail "the snapshot's run has a pool table in cards"
grep -Eq '^gpustack--nvidia-h100-80gb-hbm3-linux-amd64 +credits\.gpustack\.ai/nvidia +8\.000 ' "$tmp/run.out" || fail "the H100 pool in the snapshot's run"
# Within a minute the twin admits 7 of the 40 captured in the H100 pool; 33 still pending: the chat
# backlog is reserved onto h100-0 before its fit labels follow and sent back by Gate 3 (31 Retries).
"$chaintwin" run "$tmp/snap.yaml" --until 1m >"$tmp/run1m.out" || fail "the snapshot's first minute"
grep -Eq '^gpustack--nvidia-h100-80gb-hbm3-linux-amd64 +40 +7 +7 +33 +0 +0 +31 +0 +31 ' "$tmp/run1m.out" || fail "7 H100 Workloads admitted again: $(cat "$tmp/run1m.out")"
# Without Workloads the ledgers keep their cards and the scenario has no workloads.
"$chaintwin" snapshot --kubeconfig "$tmp/kc.yaml" -o "$tmp/bare.yaml" --no-workloads >"$tmp/bare.out" || fail "snapshot --no-workloads"
grep -q ' and 0 Workloads in flight' "$tmp/bare.out" || fail "no Workloads captured"
if grep -q '^workloads:' "$tmp/bare.yaml"; then fail "--no-workloads writes no workloads"; fi
for bad in "--run-time 0s" "--run-time soon" "--run-time 1h --no-workloads"; do
  set +e
  # shellcheck disable=SC2086
  "$chaintwin" snapshot --kubeconfig "$tmp/kc.yaml" -o "$tmp/bad.yaml" $bad 2>"$tmp/errb"; rc=$?
  set -e
  [ $rc -eq 2 ] && grep -q -- '--run-time' "$tmp/errb" && [ ! -e "$tmp/bad.yaml" ] || fail "snapshot $bad: exit $rc"
done
set +e
"$chaintwin" snapshot --kubeconfig "$tmp/kc.yaml" 2>"$tmp/err4"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q -- '-o SCENARIO.yaml is required' "$tmp/err4" || fail "snapshot without -o: exit $rc"
kubeconfig "http://127.0.0.1:1" >"$tmp/closed.yaml"
set +e
"$chaintwin" live --kubeconfig "$tmp/closed.yaml" --once --timeout 5 >"$tmp/out3" 2>"$tmp/err3"; rc=$?
set -e
cat "$tmp/err3"
[ $rc -eq 3 ] || fail "an unreachable server: exit $rc (want 3)"
if cat "$tmp"/out* "$tmp"/err* | grep -q 'not-to-be-seen-0123'; then fail "the token was printed"; fi
# A scenario with a non-default Setting (instance-type-aware-cpu-manufacturer: true): the served
# Settings carry it, so the live mode judges with it and finds no drift either.
kill $pid
start_serve "$chaintwin" "$tmp/serve2.out" "$3" --at 5m
pid=$spid
kubeconfig "http://127.0.0.1:$port" >"$tmp/kc2.yaml"
"$chaintwin" live --kubeconfig "$tmp/kc2.yaml" --once >"$tmp/out5" 2>&1 || fail "no drift with the scenario's Settings: $(cat "$tmp/out5")"
echo "live against serve: ok"
