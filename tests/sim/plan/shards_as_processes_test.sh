#!/bin/sh
# N shards of a plan run as N processes at once, as the pods of an Indexed Job would (the index
# from JOB_COMPLETION_INDEX), then merge: the recommendation is byte-identical to the single
# process's. Usage: shards_as_processes_test.sh CHAINTWIN PLAN WORKDIR N. Registered as the ctest
# plan.shards_as_processes_merge.
set -eu
chaintwin=$1 plan=$2 dir=$3 n=$4
rm -rf "$dir"
mkdir -p "$dir"
pids=""
i=0
while [ "$i" -lt "$n" ]; do
  JOB_COMPLETION_INDEX=$i "$chaintwin" plan "$plan" --grid --shard "$n" -j 1 --db "$dir/shard-$i.db" >"$dir/shard-$i.out" 2>&1 &
  pids="$pids $!"
  i=$((i + 1))
done
for pid in $pids; do wait "$pid"; done
cat "$dir"/shard-*.out
"$chaintwin" plan merge "$dir/merged.db" "$dir"/shard-*.db
"$chaintwin" plan --report "$dir/merged.db" --grid >"$dir/merged.txt"
"$chaintwin" plan "$plan" --grid >"$dir/single.txt" 2>/dev/null
cmp "$dir/merged.txt" "$dir/single.txt" || { diff "$dir/merged.txt" "$dir/single.txt"; exit 1; }
grep "Recommendation" "$dir/merged.txt"
echo "$n shard processes merged: the same bytes as one process"
