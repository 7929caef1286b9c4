#!/bin/sh
# Apply mode against a faulty `chaintwin serve`: a quarter of the writes refused with 409, a quarter
# with 500, some requests throttled (429 with Retry-After) or slow. The live mode retries, re-reads
# and re-plans until no drift is left, and the server's stored writes equal kubectl's 2 plus the
# writes the live mode reported: no write lost, none doubled. Exit 77 (skipped) only without kubectl.
# Usage: faults_test.sh CHAINTWIN NODE_AND_DEVICES.yaml
set -eu
chaintwin=$1 fixture=$2
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIPPED: kubectl is not installed; the fault-injection test did not run"
  exit 77
fi
tmp=$(mktemp -d)
export HOME="$tmp"
. "$(dirname "$0")/serve_helpers.sh"
start_serve "$chaintwin" "$tmp/serve.out" --at 1h --faults conflict=0.25,error=0.25,throttle=0.1,slow=0.05 --fault-seed 11
pid=$spid
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$tmp/kc.yaml" <<KC
current-context: twin
clusters: [{name: twin, cluster: {server: "http://127.0.0.1:$port"}}]
contexts: [{name: twin, context: {cluster: twin}}]
KC
# kubectl gives up on an injected 409 or 500 on create: apply again until both objects are there.
for _ in $(seq 1 30); do
  if kubectl --server "http://127.0.0.1:$port" get node a10g-new >/dev/null 2>&1 &&
     kubectl --server "http://127.0.0.1:$port" get devices a10g-new >/dev/null 2>&1; then break; fi
  kubectl --server "http://127.0.0.1:$port" create --validate=false -f "$fixture" >/dev/null 2>&1 || true
done
kubectl --server "http://127.0.0.1:$port" get devices a10g-new >/dev/null 2>&1 || fail "the new Node never got in"
set +e
"$chaintwin" live --kubeconfig "$tmp/kc.yaml" --once --apply >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
cat "$tmp/err"
[ $rc -eq 0 ] || fail "apply converges despite the faults (exit $rc): $(tail -5 "$tmp/out")"
tail -1 "$tmp/out" | grep -q '^no drift: ' || fail "no drift at the end"
grep -q 'stopped: .*409 Conflict' "$tmp/err" || fail "no conflict was met (the test did not test)"
applied=$(sed -n 's/^chaintwin live: applied \([0-9]*\) of .*/\1/p' "$tmp/err" | paste -sd+ - | bc)
kill -TERM $pid
wait $pid || fail "serve did not stop cleanly"
cat "$tmp/serve.out"
grep -Eq '^injected faults: .*conflict=[1-9].*error=[1-9].*throttle=[1-9]' "$tmp/serve.out" || fail "faults of each kind were injected"
writes=$(sed -n 's/^stopped after [0-9]* requests, \([0-9]*\) writes$/\1/p' "$tmp/serve.out")
[ "$writes" = "$((applied + 2))" ] || fail "the server stored $writes writes; kubectl made 2 and the live mode reported $applied"
echo "faults: ok ($applied writes applied through the faults)"
