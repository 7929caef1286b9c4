#!/bin/sh
# The openb default replay's event log, to the end of the trace, is the one recorded in
# openb-event-log.sha256 (issue 20: every speed step keeps it byte-identical). A step that must
# change a log line records the new hash here and explains the line in its commit and in
# docs/performance.md. Usage: openb_event_log_test.sh CHAINTWIN SOURCE_DIR
set -u
bin=$1
src=$2
expected=$(sed -n 's/^\([0-9a-f]\{64\}\) .*/\1/p' "$src/tests/sim/trace/openb-event-log.sha256")
if [ -z "$expected" ]; then
  echo "tests/sim/trace/openb-event-log.sha256 holds no hash"
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$bin" run "$src/scenarios/traces/openb-default.yaml" --events "$log" >/dev/null; then
  echo "chaintwin run scenarios/traces/openb-default.yaml failed"
  exit 1
fi
actual=$(sha256sum "$log" | cut -d' ' -f1)
lines=$(wc -l <"$log")
if [ "$actual" != "$expected" ]; then
  echo "the openb event log changed: sha256 $actual ($lines lines), recorded $expected"
  exit 1
fi
echo "openb event log unchanged: sha256 $actual ($lines lines)"
