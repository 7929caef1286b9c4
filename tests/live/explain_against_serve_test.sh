#!/bin/sh
# `chaintwin explain --kubeconfig` against `chaintwin serve` on loopback: the explanation read from
# the served cluster's state (read-only) says what `chaintwin explain SCENARIO --at T --no-search`
# says of the same instant — the gate, Kueue's message, the quota lines, the holders, the place in
# the queue — for every pending Workload; a Workload not in the cluster exits 2, no server exits 3.
# Usage: explain_against_serve_test.sh CHAINTWIN
set -eu
chaintwin=$1
tmp=$(mktemp -d)
. "$(dirname "$0")/serve_helpers.sh"
start_serve "$chaintwin" "$tmp/serve.out" --at 330m
pid=$spid
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$tmp/kc.yaml" <<KC
apiVersion: v1
kind: Config
current-context: twin
clusters: [{name: twin, cluster: {server: "http://127.0.0.1:$port"}}]
users: [{name: me, user: {token: t}}]
contexts: [{name: twin, context: {cluster: twin, user: me}}]
KC
"$chaintwin" explain --kubeconfig "$tmp/kc.yaml" --all-pending -o json >"$tmp/live.json" || fail "explain --kubeconfig exit $?"
"$chaintwin" explain --all-pending --at 330m --no-search -o json >"$tmp/sim.json" || fail "explain of the scenario exit $?"
python3 - "$tmp/live.json" "$tmp/sim.json" <<'PY' || fail "the live explanation differs from the simulated one"
import json, sys
live = {w["workload"]: w for w in json.load(open(sys.argv[1]))["workloads"]}
sim = {w["workload"]: w for w in json.load(open(sys.argv[2]))["workloads"]}
assert len(live) == 53, len(live)  # the default scenario at 5 h 30 m: 53 pending
assert sorted(live) == sorted(sim), (sorted(set(live) ^ set(sim)))[:5]
for key, l in live.items():
    s = sim[key]
    for field in ("heldAt", "quota", "standing", "queuePosition", "queueWaiting", "clusterQueue"):
        assert l[field] == s[field], (key, field, l[field], s[field])
    strip = lambda hs: [(h["workload"], h["admitted"], h["held"]) for h in hs]  # the API has no reservation time
    assert strip(l["holders"]) == strip(s["holders"]), (key, "holders")
print("53 pending Workloads explained alike")
PY
"$chaintwin" explain --kubeconfig "$tmp/kc.yaml" team-a/h100-training-3 >"$tmp/one.txt" || fail "one Workload"
grep -q '^Live cluster http://127.0.0.1:' "$tmp/one.txt" || fail "the header"
grep -q '^  Held at Gate 2 (Kueue quota and topology)$' "$tmp/one.txt" || fail "the gate: $(cat "$tmp/one.txt")"
grep -q 'who occupies them is not read' "$tmp/one.txt" || fail "the live mode says it reads no Pods"
set +e
"$chaintwin" explain --kubeconfig "$tmp/kc.yaml" team-a/nobody-0 2>"$tmp/err"; rc=$?
"$chaintwin" explain --kubeconfig "$tmp/kc.yaml" team-a/h100-training-3 --at 1h 2>"$tmp/err2"; rc2=$?
kill $pid; wait $pid 2>/dev/null
"$chaintwin" explain --kubeconfig "$tmp/kc.yaml" team-a/h100-training-3 2>"$tmp/err3"; rc3=$?
set -e
[ $rc -eq 2 ] && grep -q "no Workload 'team-a/nobody-0' in the cluster" "$tmp/err" || fail "a missing Workload: exit $rc"
[ $rc2 -eq 2 ] && grep -q "no --at" "$tmp/err2" || fail "--at with --kubeconfig: exit $rc2"
[ $rc3 -eq 3 ] || fail "no server: exit $rc3 ($(cat "$tmp/err3"))"
echo "explain against serve: ok"
