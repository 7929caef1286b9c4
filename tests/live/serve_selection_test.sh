#!/bin/sh
# kubectl and curl against `chaintwin serve`: label and field selectors, chunked lists, and the
# refusals kube-apiserver makes, each with its status code and Status reason. Exit 77 (ctest:
# skipped, with this message) only where kubectl or curl is absent. Usage: serve_selection_test.sh CHAINTWIN
set -eu
chaintwin=$1
for tool in kubectl curl python3; do
  if ! command -v $tool >/dev/null 2>&1; then
    echo "SKIPPED: $tool is not installed; the serve selection test did not run"
    exit 77
  fi
done
tmp=$(mktemp -d)
export HOME="$tmp"  # a fresh discovery cache
. "$(dirname "$0")/serve_helpers.sh"
start_serve "$chaintwin" "$tmp/serve.out" --at 6h
pid=$spid
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
base="http://127.0.0.1:$port"
k() { kubectl --server "$base" --request-timeout 20s "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
names() { k get "$@" --no-headers -o custom-columns=NAME:.metadata.name | tr '\n' ' '; }
expect() {  # expect WHAT WANT GOT
  [ "$3" = "$2" ] || fail "$1: expected '$2', got '$3'"
  echo "ok: $1: $3"
}

# Label selectors: equality, set, existence, and an AND of them.
expect "-l kubernetes.io/hostname=cpu-1" "cpu-1 " "$(names nodes -l kubernetes.io/hostname=cpu-1)"
expect "-l 'kubernetes.io/hostname in (cpu-0,h100-0)'" "cpu-0 h100-0 " "$(names nodes -l 'kubernetes.io/hostname in (cpu-0,h100-0)')"
expect "-l 'feature.gpustack.ai/acceleratable notin (true)'" "cpu-0 cpu-1 " "$(names nodes -l 'feature.gpustack.ai/acceleratable notin (true)')"
expect "-l '!shared-free-cards.fit.gpustack.ai/nvidia-a10g,kubernetes.io/os=linux'" "cpu-0 cpu-1 h100-0 t4-0 " \
  "$(names nodes -l '!shared-free-cards.fit.gpustack.ai/nvidia-a10g,kubernetes.io/os=linux')"
# Field selectors.
expect "--field-selector metadata.name=h100-0" "h100-0 " "$(names nodes --field-selector metadata.name=h100-0)"
expect "--field-selector spec.unschedulable=true" "cpu-1 " "$(names nodes --field-selector spec.unschedulable=true)"
expect "localqueues -A --field-selector metadata.namespace=team-b" 4 \
  "$(k get localqueues -A --field-selector metadata.namespace=team-b --no-headers | wc -l | tr -d ' ')"
# Chunked lists list everything, in order, whatever the chunk.
expect "nodes --chunk-size 2" "a10g-0 cpu-0 cpu-1 h100-0 t4-0 " "$(names nodes --chunk-size 2)"
all=$(k get workloads -A --no-headers --chunk-size 0 | md5sum)
expect "workloads -A --chunk-size 7" "$all" "$(k get workloads -A --no-headers --chunk-size 7 | md5sum)"
team_a=$(k get workloads -A --no-headers --field-selector metadata.namespace=team-a --chunk-size 0)
[ -n "$team_a" ] || fail "team-a has Workloads"
expect "workloads -A --field-selector metadata.namespace=team-a --chunk-size 3" "$(echo "$team_a" | md5sum)" \
  "$(k get workloads -A --no-headers --field-selector metadata.namespace=team-a --chunk-size 3 | md5sum)"
k get nodes -l 'a in b' 2>&1 | grep -q 'unable to parse requirement' || fail "kubectl shows the selector refusal"

# The list metadata of a page: continue and remainingItemCount.
curl -s "$base/api/v1/nodes?limit=2" >"$tmp/page1"
expect "page 1 of nodes" "a10g-0 cpu-0 | 3" "$(python3 -c "import json,sys;b=json.load(open(sys.argv[1]));print(' '.join(i['metadata']['name'] for i in b['items']),'|',b['metadata']['remainingItemCount'])" "$tmp/page1")"

# Refusals: status code and the Status body's reason.
status() {  # status METHOD URL [BODY-FILE [CONTENT-TYPE]]: "<code> <reason>"
  if [ $# -ge 3 ]; then
    code=$(curl -s -o "$tmp/reply" -w '%{http_code}' -X "$1" -H "Content-Type: ${4:-application/json}" --data-binary "@$3" "$2")
  else
    code=$(curl -s -o "$tmp/reply" -w '%{http_code}' -X "$1" "$2")
  fi
  echo "$code $(python3 -c "import json,sys;b=json.load(open(sys.argv[1]));assert b['kind']=='Status' and b['apiVersion']=='v1' and b['status']=='Failure' and b['code']==int(sys.argv[2]);print(b['reason'])" "$tmp/reply" "$code")"
}
expect "a malformed labelSelector" "400 BadRequest" "$(status GET "$base/api/v1/nodes?labelSelector=a%20in%20b")"
expect "an unsupported field" "400 BadRequest" "$(status GET "$base/api/v1/nodes?fieldSelector=spec.nodeName%3Dx")"
grep -q 'field label not supported: spec.nodeName' "$tmp/reply" || fail "the field refusal's message"
expect "limit=abc" "400 BadRequest" "$(status GET "$base/api/v1/nodes?limit=abc")"
expect "an invalid continue token" "400 BadRequest" "$(status GET "$base/api/v1/nodes?limit=2&continue=abc")"
grep -q 'continue key is not valid' "$tmp/reply" || fail "the continue refusal's message"
expect "resourceVersion=bogus on a list" "400 BadRequest" "$(status GET "$base/api/v1/nodes?resourceVersion=bogus")"
expect "resourceVersion=bogus on a get" "400 BadRequest" "$(status GET "$base/api/v1/nodes/cpu-0?resourceVersion=bogus")"
expect "resourceVersion=bogus on a watch" "400 BadRequest" "$(status GET "$base/api/v1/nodes?watch=1&resourceVersion=bogus")"
expect "timeoutSeconds=abc" "400 BadRequest" "$(status GET "$base/api/v1/nodes?watch=1&timeoutSeconds=abc")"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/v1/nodes?limit=-1")" = 200 ] || fail "limit=-1 is no limit"

curl -s "$base/api/v1/nodes/cpu-0" >"$tmp/node.json"
edit() {  # edit OUT PYTHON-STATEMENTS-ON-m
  python3 -c "import json,sys;m=json.load(open(sys.argv[1]));$2;json.dump(m,open(sys.argv[3],'w'))" "$tmp/node.json" "" "$1"
}
edit "$tmp/renamed.json" "m['metadata']['name']='other'"
expect "a PUT naming another object" "400 BadRequest" "$(status PUT "$base/api/v1/nodes/cpu-0" "$tmp/renamed.json")"
grep -q 'the name of the object (other) does not match the name on the URL (cpu-0)' "$tmp/reply" || fail "the name refusal's message"
edit "$tmp/long-label.json" "m['metadata']['labels']['x']='v'*100"
expect "a label value past 63 characters" "422 Invalid" "$(status PUT "$base/api/v1/nodes/cpu-0" "$tmp/long-label.json")"
grep -q '"field":"metadata.labels"' "$tmp/reply" || fail "the cause names metadata.labels"
edit "$tmp/bad-key.json" "m['metadata']['labels']['-x/y']='v'"
expect "an invalid label key" "422 Invalid" "$(status PUT "$base/api/v1/nodes/cpu-0" "$tmp/bad-key.json")"
edit "$tmp/bad-name.json" "[m['metadata'].pop(f,None) for f in ('resourceVersion','uid')];m['metadata']['name']='Bad_Name'"
expect "a name that is not DNS-1123" "422 Invalid" "$(status POST "$base/api/v1/nodes" "$tmp/bad-name.json")"
edit "$tmp/no-name.json" "[m['metadata'].pop(f,None) for f in ('resourceVersion','uid','name')]"
expect "no metadata.name" "422 Invalid" "$(status POST "$base/api/v1/nodes" "$tmp/no-name.json")"
edit "$tmp/bad-quantity.json" "m['status']['capacity']['memory']='12Gix'"
expect "a capacity that is not a quantity" "400 BadRequest" "$(status PUT "$base/api/v1/nodes/cpu-0/status" "$tmp/bad-quantity.json")"
cq=$(k get clusterqueues -o jsonpath='{.items[0].metadata.name}')
curl -s "$base/apis/kueue.x-k8s.io/v1beta2/clusterqueues/$cq" |
  python3 -c "import json,sys;q=json.load(sys.stdin);q['spec']['resourceGroups'][0]['flavors'][0]['resources'][0]['nominalQuota']='12Gix';json.dump(q,open(sys.argv[1],'w'))" "$tmp/cq.json"
expect "a quota that is not a quantity" "422 Invalid" "$(status PUT "$base/apis/kueue.x-k8s.io/v1beta2/clusterqueues/$cq" "$tmp/cq.json")"
edit "$tmp/huge.json" "m['metadata']['labels']['x']='v'*(10*1024*1024)"
expect "a 10 MB body" "413 RequestEntityTooLarge" "$(status PUT "$base/api/v1/nodes/cpu-0" "$tmp/huge.json")"
# Nothing refused was stored.
expect "cpu-0 unchanged" "cpu-0 " "$(names nodes -l '!x' --field-selector metadata.name=cpu-0)"
echo "serve selection and refusals: ok"
