#!/bin/sh
# Shadow mode watching `chaintwin serve --play`: the simulation moves (Workloads arrive, run and
# finish; the operator's objects follow) and every state it publishes is the operator's fixpoint, so
# the live mode, planning on what its watches show, finds no drift to speak of. Watches of different
# kinds may show one publication a moment apart, so a report may see a half-published state; the
# test allows such a report but never two in a row, and asks that the live mode really followed the
# run (several reports, the Workload counts moving).
# Usage: play_test.sh CHAINTWIN
set -eu
chaintwin=$1
tmp=$(mktemp -d)
. "$(dirname "$0")/serve_helpers.sh"
start_serve "$chaintwin" "$tmp/serve.out" --play --speed 3600
lpid=""
trap 'kill $spid $lpid 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/live.out" "$tmp/live.err"; exit 1; }
cat >"$tmp/kc.yaml" <<KC
current-context: twin
clusters: [{name: twin, cluster: {server: "http://127.0.0.1:$port"}}]
contexts: [{name: twin, context: {cluster: twin}}]
KC
"$chaintwin" live --kubeconfig "$tmp/kc.yaml" >"$tmp/live.out" 2>"$tmp/live.err" &
lpid=$!
sleep 12
kill -TERM $lpid
wait $lpid || fail "live did not stop cleanly"
lpid=""
reports=$(grep -c '^# http' "$tmp/live.out" || true)
[ "$reports" -ge 5 ] || fail "only $reports reports in 12 s"
counts=$(grep '^# http' "$tmp/live.out" | sed 's/.*; Workloads: //' | sort -u | wc -l)
[ "$counts" -ge 3 ] || fail "the Workload counts did not move ($counts distinct)"
# Each report ends with its verdict line: "no drift: ..." or "N write(s) the operator would make".
verdicts=$(grep -E '^(no drift: |[0-9]+ write\(s\) the operator would make$)' "$tmp/live.out" | sed 's/^no drift: .*/ok/; s/^[0-9]* write.*/drift/')
[ "$(echo "$verdicts" | wc -l)" -eq "$reports" ] || fail "a report without its verdict"
if echo "$verdicts" | paste -sd' ' - | grep -q 'drift drift'; then fail "drift in two reports in a row"; fi
echo "play: ok ($reports reports, $counts distinct Workload counts, $(echo "$verdicts" | grep -c '^drift$' || true) with transient drift)"
