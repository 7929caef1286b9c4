#!/bin/sh
# The live mode's watches against a `chaintwin serve` that answers half the watches from a
# resourceVersion with 410 Gone and drops a third of the streams: the live mode relists and
# reconnects, sees the Node kubectl adds, applies the operator's writes and reports no drift again;
# the server stores exactly kubectl's writes (the Node, its Devices, a Workload) plus those the live
# mode reported.
# A Workload created by hand is then counted in the report's header.
# Exit 77 (skipped, with this message) only without kubectl. Usage: watch_test.sh CHAINTWIN NODE.yaml WORKLOAD.yaml
set -eu
chaintwin=$1 fixture=$2 workload=$3
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIPPED: kubectl is not installed; the watch test did not run"
  exit 77
fi
tmp=$(mktemp -d)
export HOME="$tmp"
. "$(dirname "$0")/serve_helpers.sh"
start_serve "$chaintwin" "$tmp/serve.out" --at 1h --faults gone=0.5,drop=0.3 --fault-seed 3 \
  --role "w4tch=$(dirname "$0")/../../docs/rbac/chaintwin-apply.yaml"
lpid=""
trap 'kill $spid $lpid 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- live stdout"; cat "$tmp/live.out"; echo "--- live stderr"; cat "$tmp/live.err"; exit 1; }
cat >"$tmp/kc.yaml" <<KC
current-context: twin
clusters: [{name: twin, cluster: {server: "http://127.0.0.1:$port"}}]
users: [{name: me, user: {token: w4tch}}]
contexts: [{name: twin, context: {cluster: twin, user: me}}]
KC
"$chaintwin" live --kubeconfig "$tmp/kc.yaml" --apply --interval 2 >"$tmp/live.out" 2>"$tmp/live.err" &
lpid=$!
wait_for() {  # PATTERN COUNT: until stdout has COUNT lines matching
  for _ in $(seq 1 300); do
    [ "$(grep -c "$1" "$tmp/live.out" || true)" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}
wait_for '^no drift: ' 1 || fail "the first report"
kubectl --server "http://127.0.0.1:$port" create --validate=false -f "$fixture" >/dev/null
wait_for 'write(s) the operator would make$' 1 || fail "the drift after the Node joined"
wait_for '^no drift: ' 2 || fail "no drift after applying"
# A Workload alone changes: the header counts it (the operator's controllers do not read Workloads).
pending=$(sed -n 's/.*; Workloads: .*, \([0-9]*\) pending, .*/\1/p' "$tmp/live.out" | tail -1)
kubectl --server "http://127.0.0.1:$port" create --validate=false -f "$workload" >/dev/null
wait_for "; Workloads: .*, $((pending + 1)) pending, " 1 || fail "the new Workload counted ($pending pending before)"
sleep 2  # a few more watch rounds against the faults
kill -TERM $lpid
wait $lpid || fail "live did not stop cleanly"
lpid=""
cat "$tmp/live.out" | grep -v '^[A-Z][a-zA-Z]* '
cat "$tmp/live.err"
relists=$(sed -n 's/.*relisted \([0-9]*\) time(s).*/\1/p' "$tmp/live.err")
reconnects=$(sed -n 's/.*reconnected \([0-9]*\) time(s).*/\1/p' "$tmp/live.err")
[ "${relists:-0}" -gt 0 ] && [ "${reconnects:-0}" -gt 0 ] || fail "no relist or no reconnect happened (the test did not test)"
applied=$(sed -n 's/^chaintwin live: applied \([0-9]*\) of .*/\1/p' "$tmp/live.err" | paste -sd+ - | bc)
kill -TERM $spid
wait $spid || fail "serve did not stop cleanly"
cat "$tmp/serve.out"
writes=$(sed -n 's/^stopped after [0-9]* requests, \([0-9]*\) writes$/\1/p' "$tmp/serve.out")
[ "$writes" = "$((applied + 3))" ] || fail "the server stored $writes writes; kubectl made 3 and the live mode reported $applied"
echo "watch: ok ($relists relists, $reconnects reconnects, $applied writes)"
