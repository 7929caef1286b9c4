#!/bin/sh
# Apply mode end to end: kubectl applies a new Node and its Devices to `chaintwin serve` (beside
# Kueue objects someone else owns, which no write may touch); shadow
# mode sees the drift the operator would write; --dry-run changes nothing; --apply writes it; shadow
# mode then finds no drift; and the server counts exactly the writes kubectl and the live mode
# reported (none lost, none doubled). Exit 77 (skipped, with this message) only without kubectl.
# KUEUE_VERSION (v1beta2, or v1beta1 for a cluster with Kueue up to v0.14) is the version serve
# serves Kueue's group at; the live mode reads and writes whichever the cluster serves.
# Usage: apply_against_serve_test.sh CHAINTWIN NODE_AND_DEVICES.yaml [KUEUE_VERSION]
set -eu
chaintwin=$1 fixture=$2 kueue=${3:-v1beta2}
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIPPED: kubectl is not installed; the apply test did not run"
  exit 77
fi
tmp=$(mktemp -d)
export HOME="$tmp"
. "$(dirname "$0")/serve_helpers.sh"
# The live mode's token is bound to the apply ClusterRole shipped in docs/rbac (kubectl's requests
# carry none and are not restricted); a second token is bound to the shadow role.
rbac="$(dirname "$0")/../../docs/rbac"
start_serve "$chaintwin" "$tmp/serve.out" --at 1h --kueue-version "$kueue" \
  --role "t0ken=$rbac/chaintwin-apply.yaml" --role "sh4dow=$rbac/chaintwin-shadow.yaml"
pid=$spid
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$tmp/kc.yaml" <<KC
current-context: twin
clusters: [{name: twin, cluster: {server: "http://127.0.0.1:$port"}}]
users: [{name: me, user: {token: t0ken}}]
contexts: [{name: twin, context: {cluster: twin, user: me}}]
KC
live() { "$chaintwin" live --kubeconfig "$tmp/kc.yaml" --once "$@"; }
status() { set +e; "$@"; rc=$?; set -e; }

# Kueue objects someone else owns: no drift, and nothing the live mode writes touches them.
foreign="$(dirname "$0")/foreign-queue.yaml"
sed "s|kueue.x-k8s.io/v1beta2|kueue.x-k8s.io/$kueue|" "$foreign" >"$tmp/foreign.yaml"
kubectl --server "http://127.0.0.1:$port" apply --validate=false -f "$tmp/foreign.yaml"
versions() {
  for o in clusterqueue/team-research resourceflavor/default-flavor "localqueue/research -n team-a"; do
    # shellcheck disable=SC2086
    kubectl --server "http://127.0.0.1:$port" get $o -o 'jsonpath={.metadata.resourceVersion}'
    echo
  done
}
versions >"$tmp/foreign.before"
# A Workload the model cannot read is named, and changes nothing else.
sed "s|kueue.x-k8s.io/v1beta2|kueue.x-k8s.io/$kueue|" "$(dirname "$0")/broken-workload.yaml" >"$tmp/broken.yaml"
kubectl --server "http://127.0.0.1:$port" create --validate=false -f "$tmp/broken.yaml"
status live >/dev/null 2>"$tmp/first.err"
[ $rc -eq 0 ] || fail "no drift before the Node joins (exit $rc)"
grep -q '^chaintwin live: not read: Workload team-a/broken: spec.podSets: must have at least one PodSet$' "$tmp/first.err" ||
  fail "the unreadable Workload named: $(cat "$tmp/first.err")"
grep -q '^chaintwin live: not read: ClusterQueue team-research: spec.namespaceSelector: only {} (every namespace) is modelled' "$tmp/first.err" ||
  fail "the foreign ClusterQueue the model cannot hold is set aside: $(cat "$tmp/first.err")"
kubectl --server "http://127.0.0.1:$port" apply --validate=false -f "$fixture"
status live >"$tmp/drift" 2>/dev/null
cat "$tmp/drift"
[ $rc -eq 1 ] || fail "drift after the Node joins (exit $rc, want 1)"
grep -Eq '^ResourceFlavor +gpustack--amd-epyc-7r32-linux-amd64-4c-[a-z0-9-]+ +create +NodeFlavor ' "$tmp/drift" ||
  fail "the new CPU flavor in the drift"
grep -Eq '^Node +a10g-new +update-status +NodeProfile +capacity counting keys' "$tmp/drift" || fail "the new Node's keys"
# The shadow role reads but may not write: its apply is refused with RBAC's 403.
sed 's/token: t0ken/token: sh4dow/' "$tmp/kc.yaml" >"$tmp/shadow.yaml"
status "$chaintwin" live --kubeconfig "$tmp/shadow.yaml" --once --apply >/dev/null 2>"$tmp/forbidden"
cat "$tmp/forbidden"
[ $rc -eq 1 ] && grep -q 'HTTP 403: .*is forbidden: User \\"clusterrole:chaintwin-shadow\\" cannot' "$tmp/forbidden" ||
  fail "the shadow role may not write (exit $rc)"
status live --apply --dry-run 2>"$tmp/dry"
[ $rc -eq 1 ] || fail "a dry run leaves the drift (exit $rc)"
grep -q 'dry run: the cluster accepted' "$tmp/dry" || fail "the dry-run line"
status live --apply >"$tmp/applied" 2>"$tmp/applied.err"
cat "$tmp/applied.err"
[ $rc -eq 0 ] || fail "apply converges (exit $rc): $(cat "$tmp/applied")"
tail -1 "$tmp/applied" | grep -q '^no drift: ' || fail "no drift after applying"
status live >/dev/null 2>&1
[ $rc -eq 0 ] || fail "shadow mode after apply finds no drift (exit $rc)"
# kubectl finds the queues at the served version only.
kubectl --server "http://127.0.0.1:$port" get clusterqueues.$kueue.kueue.x-k8s.io -o name | grep -q '^clusterqueue.kueue.x-k8s.io/gpustack--nvidia-a10g-linux-amd64$' ||
  fail "the A10G ClusterQueue at kueue.x-k8s.io/$kueue"
kubectl --server "http://127.0.0.1:$port" get node a10g-new -o 'jsonpath={.metadata.labels.gpustack\.ai/managed}' | grep -qx true ||
  fail "the operator's managed mark on the new Node"
versions >"$tmp/foreign.after"
cmp -s "$tmp/foreign.before" "$tmp/foreign.after" || fail "the foreign objects were written: $(cat "$tmp/foreign.before" "$tmp/foreign.after")"
applied=$(sed -n 's/^chaintwin live: applied \([0-9]*\) of .*/\1/p' "$tmp/applied.err" | paste -sd+ - | bc)
kill -TERM $pid
wait $pid || fail "serve did not stop cleanly"
cat "$tmp/serve.out"
writes=$(sed -n 's/^stopped after [0-9]* requests, \([0-9]*\) writes$/\1/p' "$tmp/serve.out")
[ "$writes" = "$((applied + 6))" ] || fail "the server stored $writes writes; kubectl made 6 and the live mode reported $applied"
echo "apply against serve (Kueue $kueue): ok ($applied writes applied)"
