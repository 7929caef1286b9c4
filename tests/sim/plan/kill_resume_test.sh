#!/bin/sh
# A plan killed with SIGKILL in the middle of its runs leaves a consistent SQLite file, and the plan
# run again on that file redoes none of the runs it completed and prints what a plan run without
# interruption prints. Usage: kill_resume_test.sh CHAINTWIN PLAN WORKDIR. Registered as the ctest
# plan.killed_plan_resumes.
set -eu
chaintwin=$1
plan=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"

"$chaintwin" plan "$plan" --grid -j 1 --db "$dir/plan.db" >"$dir/first.out" 2>"$dir/first.err" &
pid=$!
# Wait until a few runs are in the file, then kill the plan without warning.
for _ in $(seq 1 600); do
  n=$(python3 -c "import sqlite3,sys; c=sqlite3.connect('file:$dir/plan.db?mode=ro', uri=True); print(c.execute('select count(*) from plan_runs').fetchone()[0])" 2>/dev/null || echo 0)
  [ "$n" -ge 3 ] && break
  sleep 0.1
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true

python3 - "$dir/plan.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
ok = c.execute("pragma integrity_check").fetchone()[0]
n = c.execute("select count(*) from plan_runs").fetchone()[0]
print(f"after the kill: integrity {ok}, {n} runs in the file")
sys.exit(0 if ok == "ok" and n >= 3 else 1)
PY
before=$(python3 -c "import sqlite3; print(sqlite3.connect('$dir/plan.db').execute('select count(*) from plan_runs').fetchone()[0])")
total=$("$chaintwin" plan "$plan" --dry-run | sed -n 's/.*(\([0-9]*\) runs in the full grid).*/\1/p')
[ "$before" -lt "$total" ] || { echo "the plan finished before it was killed ($before of $total runs); nothing was tested"; exit 1; }

"$chaintwin" plan "$plan" --grid -j 2 --db "$dir/plan.db" >"$dir/resumed.out" 2>"$dir/resumed.err"
want="$((total - before)) runs simulated, $before already in $dir/plan.db"
grep -q "$want" "$dir/resumed.err" || { echo "expected '$want' on standard error, got:"; cat "$dir/resumed.err"; exit 1; }
"$chaintwin" plan "$plan" --grid -j 2 >"$dir/fresh.out" 2>/dev/null
cmp "$dir/resumed.out" "$dir/fresh.out" || { echo "the resumed plan's result differs from a fresh one"; diff "$dir/resumed.out" "$dir/fresh.out"; exit 1; }
echo "killed after $before of $total runs; resumed with $want; the result is the fresh plan's"
