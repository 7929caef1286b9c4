#!/bin/sh
# `chaintwin explain --db RUN.sqlite` makes the run again from the scenario and seed the file names
# and explains exactly what `chaintwin explain SCENARIO --at <the run's end>` explains; it refuses a
# scenario changed since the run, an instant after the run's end, and a Workload that never arrived
# (exit 2, each with its reason).
# Usage: explain_db_test.sh CHAINTWIN SOURCE_DIR
set -eu
chaintwin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cp "$src/scenarios/regression/livelock-without-fit-pin.yaml" "$tmp/s.yaml"
"$chaintwin" run "$tmp/s.yaml" --until 4m --db "$tmp/run.sqlite" >/dev/null || fail "run --db"
"$chaintwin" explain --db "$tmp/run.sqlite" probe-0 --within 10m >"$tmp/from-db.txt" || fail "explain --db exit $?"
"$chaintwin" explain "$tmp/s.yaml" probe-0 --at 4m --within 10m >"$tmp/from-scenario.txt" || fail "explain SCENARIO"
cmp "$tmp/from-db.txt" "$tmp/from-scenario.txt" || fail "explain --db differs from explain SCENARIO --at 4m"
grep -q '^  Retry loop: 7 gpustack-node-devices Retry verdicts, 7 of them on node node-a' "$tmp/from-db.txt" || fail "the loop"
grep -q '^    yes  release default/seed-0 (on node node-a) — admitted 1s later   ← the smallest change$' "$tmp/from-db.txt" ||
  fail "the smallest change: $(cat "$tmp/from-db.txt")"
"$chaintwin" explain --db "$tmp/run.sqlite" probe-0 --no-search -o json >"$tmp/db.json" || fail "-o json"
grep -q '"gate": "gate3"' "$tmp/db.json" || fail "the JSON's gate"
set +e
"$chaintwin" explain --db "$tmp/run.sqlite" probe-0 --at 5m 2>"$tmp/e1"; r1=$?
"$chaintwin" explain --db "$tmp/run.sqlite" nobody-0 2>"$tmp/e2"; r2=$?
echo "# changed" >>"$tmp/s.yaml"
"$chaintwin" explain --db "$tmp/run.sqlite" probe-0 2>"$tmp/e3"; r3=$?
"$chaintwin" explain "$tmp/s.yaml" 2>"$tmp/e4"; r4=$?
set -e
[ $r1 -eq 2 ] && grep -q "^chaintwin explain: --at 5m is after the run's end 4m in " "$tmp/e1" || fail "--at after the end: $r1 $(cat "$tmp/e1")"
[ $r2 -eq 2 ] && grep -q "^chaintwin explain: no Workload 'nobody-0' arrived by then (5 did: " "$tmp/e2" || fail "an unknown Workload: $r2 $(cat "$tmp/e2")"
[ $r3 -eq 2 ] && grep -q "changed since the run (hash " "$tmp/e3" || fail "a changed scenario: $r3 $(cat "$tmp/e3")"
[ $r4 -eq 2 ] && grep -q "name a Workload" "$tmp/e4" || fail "no Workload named: $r4 $(cat "$tmp/e4")"
echo "explain --db: ok"
