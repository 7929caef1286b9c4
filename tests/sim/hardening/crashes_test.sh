#!/bin/sh
# Inputs that once crashed or hung chaintwin (issue 23), each refused with exit 2, a message naming
# the file, the line or field and what is wrong, and nothing written: a self-referencing YAML alias
# (run, check, derive, serve), aliases repeated within each other ("billion laughs"), /dev/zero as a
# scenario, an included file, a derive input, an openb CSV or a kubeconfig, a Node name or a CSV
# field that is not UTF-8 text (run --db wrote half a results file), a NUL byte in a CSV.
# Usage: crashes_test.sh CHAINTWIN
set -u
chaintwin=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
failed=0
# expect WANT_TEXT CMD...: exit 2 within 20 s, stderr containing WANT_TEXT.
expect() {
  want=$1
  shift
  timeout 20 "$@" >out.txt 2>err.txt
  rc=$?
  if [ $rc -ne 2 ] || ! grep -qF -- "$want" err.txt; then
    echo "FAIL: $* -> exit $rc (want 2), stderr: $(head -c 300 err.txt) (want: $want)"
    failed=1
  else
    echo "ok: $*"
  fi
}
head='apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: bad}'
printf '%s\nsettings: &s {x: *s}\n' "$head" >alias.yaml
expect "alias.yaml:4: nested more than 200 levels deep (a YAML alias that refers to itself?)" "$chaintwin" run alias.yaml
expect "alias.yaml:4: nested more than 200 levels deep" "$chaintwin" check alias.yaml
expect "alias.yaml:4: nested more than 200 levels deep" "$chaintwin" serve alias.yaml --listen 127.0.0.1:0
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: &d {a: *d}\n' >alias-objects.yaml
expect "alias-objects.yaml:4: nested more than 200 levels deep" "$chaintwin" derive alias-objects.yaml
{
  printf '%s\nx0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' "$head"
  i=1
  while [ $i -le 9 ]; do
    p=$((i - 1))
    printf 'x%d: &a%d [*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d]\n' $i $i $p $p $p $p $p $p $p $p $p
    i=$((i + 1))
  done
} >laughs.yaml
expect "values (YAML aliases repeated within each other?)" "$chaintwin" run laughs.yaml
printf '%s\ncluster:\n  include: [/dev/zero]\n' "$head" >include.yaml
expect "include.yaml:5: cluster.include[0]: '/dev/zero' is not a regular file" "$chaintwin" run include.yaml
expect "/dev/zero: the scenario file is not a regular file" "$chaintwin" run /dev/zero
expect "/dev/zero: is not a regular file" "$chaintwin" derive /dev/zero
expect "/dev/zero: is not a regular file" "$chaintwin" import openb --nodes /dev/zero --pods /dev/zero -o imported.yaml
expect "/dev/zero: the kubeconfig is not a regular file" "$chaintwin" live --kubeconfig /dev/zero --once
printf '%s\nhorizon: 1h\ncluster:\n  nodes:\n    - name: "n\377\376"\n      cpu: {vendor: AMD, name: "AMD EPYC 7763 64-Core Processor", cores: 64}\n      memory: 256Gi\n' "$head" >utf.yaml
expect "utf.yaml:7: cluster.nodes[0].name: not valid UTF-8 text (byte 0xFF at offset 1)" "$chaintwin" run utf.yaml --db utf.db
printf 'sn,cpu_milli,memory_mib,num_gpu,model\nnode\377,32000,262144,2,V100M16\n' >nodes.csv
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,creation_time,deletion_time,scheduled_time,pod_phase\np-0,1000,1024,1,1000,0,10,1,Succeeded\n' >pods.csv
expect "nodes.csv:2: sn: not valid UTF-8 text (byte 0xFF at offset 4)" "$chaintwin" import openb --nodes nodes.csv --pods pods.csv -o imported.yaml
printf 'sn,cpu_milli,memory_mib,num_gpu,model\nnode-\000a,32000,262144,2,V100M16\n' >nul.csv
expect "nul.csv:2: sn: not valid UTF-8 text (a NUL byte at offset 5)" "$chaintwin" import openb --nodes nul.csv --pods pods.csv -o imported.yaml
# A key twice in one mapping: YAML forbids it, and keeping either value silently hides the other.
printf '%s\nseed: 1\nhorizon: 1h\nseed: 2\n' "$head" >dup.yaml
expect "dup.yaml:6: seed: the key 'seed' appears twice in one mapping (the line of the second)" "$chaintwin" run dup.yaml
# Values the API server would refuse, refused by name.
printf '%s\ncluster:\n  nodes:\n    - name: n-0\n      cpu: {vendor: AMD, name: "AMD EPYC 7763 64-Core Processor", cores: -16}\n      memory: 256Gi\n' "$head" >cores.yaml
expect "cores.yaml:7: cluster.nodes[0].cpu.cores: expected a positive number of cores, got '-16'" "$chaintwin" run cores.yaml
printf '%s\ncluster:\n  nodes:\n    - name: n-0\n      memory: 0\n' "$head" >memory.yaml
expect "memory.yaml:7: cluster.nodes[0].memory: expected a positive memory size such as 256Gi, got '0'" "$chaintwin" run memory.yaml
printf '%s\ncluster:\n  nodes:\n    - name: Node_0\n' "$head" >nodename.yaml
expect "nodename.yaml:6: cluster.nodes[0].name: 'Node_0' is not a valid Node name (expected a DNS-1123 subdomain" "$chaintwin" run nodename.yaml
printf '%s\ncluster:\n  namespaces: [Team_A]\n' "$head" >ns.yaml
expect "ns.yaml:5: cluster.namespaces[0]: 'Team_A' is not a valid Namespace name (expected a DNS-1123 label" "$chaintwin" run ns.yaml
printf '%s\ncluster:\n  objects:\n    - apiVersion: v1\n      kind: Node\n      metadata: {labels: {a: b}}\n' "$head" >noname.yaml
expect "noname.yaml:8: metadata.name: a Node needs a non-empty name" "$chaintwin" run noname.yaml
printf 'apiVersion: v1\nkind: Node\nmetadata:\n  name: GPU_Node\n' >badname.yaml
expect "badname.yaml:4: metadata.name: 'GPU_Node' is not a valid name for a Node (expected a DNS-1123 subdomain" "$chaintwin" derive badname.yaml
printf 'apiVersion: gpustack.ai/v1\nkind: InstanceType\nmetadata:\n  name: x\n  namespace: Team_A\n' >badns.yaml
expect "badns.yaml:5: metadata.namespace: 'Team_A' is not a valid Namespace name (expected a DNS-1123 label)" "$chaintwin" derive badns.yaml
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,pod_phase\np-0,1000,1024,1,1000,Exploded\n' >phase.csv
printf 'sn,cpu_milli,memory_mib,gpu,model\nnode-0,32000,262144,2,V100M16\n' >goodnodes.csv
expect "phase.csv:2: pod_phase: 'Exploded' is not a pod phase (expected Running, Succeeded, Failed or Pending)" "$chaintwin" import openb --nodes goodnodes.csv --pods phase.csv -o imported.yaml
# Devices and Node fields no Device Manager writes (the walkthrough's objects, one field changed).
src=$here/../../../scenarios/walkthroughs
sed '0,/      mode: 0$/s//      mode: 42/' "$src/four-node-cluster.yaml" >mode42.yaml
expect "Devices/node-a10g: status.groups[0].accelerators[0].mode: expected an integer within [0, 5], got 42" "$chaintwin" derive mode42.yaml
sed "s/nvidia-a10g.count: '1'/nvidia-a10g.count: '1000000000'/" "$src/four-node-cluster.yaml" >count.yaml
expect "count 1000000000 is more cards than a node holds (at most 1024)" "$chaintwin" derive count.yaml
sed '0,/      index: 4$/s//      index: 4000/' "$src/h100-mig-config-3-mixed.yaml" >index.yaml
expect "spec.groups[0].accelerators[4].index: card index 4000 on a node of 8 card(s) (expected 0..7)" "$chaintwin" derive index.yaml
# A document that would begin with a lone ',' (found by fuzzing): yaml-cpp 0.7 looped forever on it.
printf '%s\n---\n,\n' "$head" >comma.yaml
expect "comma.yaml:5: not valid YAML or JSON: ',' at column 1 cannot begin a document" "$chaintwin" run comma.yaml
printf ',' >comma-objects.yaml
expect "comma-objects.yaml:1: not valid YAML or JSON: ',' at column 1 cannot begin a document" "$chaintwin" derive comma-objects.yaml
# Nothing written by any of them.
for f in utf.db imported.yaml imported.yaml.partial; do
  if [ -e "$f" ]; then echo "FAIL: $f was written"; failed=1; fi
done
[ $failed -eq 0 ] && echo "crashes and hangs refused: ok"
exit $failed
