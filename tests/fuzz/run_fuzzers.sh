#!/usr/bin/env bash
# `make fuzz`: runs each libFuzzer target of BUILD for SECONDS, one after the other (-jobs=1: the
# machine's cores are shared), on a copy of its seed corpus (tests/fuzz/corpus/<target> stays as
# checked in). Crashes, hangs, leaks and out-of-memory inputs land in BUILD/crashes/<target>/.
# Prints one line per target: executions, seconds, executions per second, corpus size, findings.
# Exits 1 when any target found something.
# Usage: run_fuzzers.sh BUILD SECONDS TARGET...
set -uo pipefail
build=$1 seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
status=0
summary=()
for target in "$@"; do
  exe="$build/tests/fuzz/${target}_fuzz"
  work="$build/fuzz-work/$target"
  crashes="$build/crashes/$target"
  log="$build/fuzz-work/$target.log"
  rm -rf "$work"
  mkdir -p "$work" "$crashes"
  cp "$here/corpus/$target"/* "$work"/
  echo "== fuzzing $target for ${seconds}s (log: $log)"
  start=$(date +%s)
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$work" >"$log" 2>&1
  rc=$?
  elapsed=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [[ -z "$execs" ]] && execs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*')
  found=$(find "$crashes" -type f | wc -l)
  inputs=$(find "$work" -type f | wc -l)
  line=$(printf '%-13s %12s executions %6ss %8s exec/s  corpus %5s  findings %s' "$target" "${execs:-?}" "$elapsed" \
    "$(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) ))" "$inputs" "$found")
  echo "$line"
  summary+=("$line")
  if [[ $rc -ne 0 || $found -gt 0 ]]; then
    status=1
    echo "   exit $rc; see $log and $crashes/" >&2
    grep -m5 -E 'ERROR: |runtime error|==[0-9]+==' "$log" >&2
  fi
done
echo "== fuzz summary (${seconds}s per target)"
printf '%s\n' "${summary[@]}"
exit $status
