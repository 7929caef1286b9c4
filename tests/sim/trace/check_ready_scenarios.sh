#!/bin/sh
# The ready openb scenarios (scenarios/traces/openb-*.yaml) are exactly what `chaintwin import openb`
# writes today: each file's header records the options that wrote it; run them again (from the
# file's folder, to standard output) and diff. Usage: check_ready_scenarios.sh CHAINTWIN DIR
set -u
bin=$1
cd "$2" || exit 2
status=0
count=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for f in openb-*.yaml; do
  opts=$(sed -n '/^#   chaintwin import openb \\$/,/^#     -o FILE$/p' "$f" | sed -e '1d' -e '$d' -e 's/^#     //' -e 's/ \\$//' | tr '\n' ' ')
  if [ -z "$opts" ]; then
    echo "$f: the header records no import options"
    status=1
    continue
  fi
  if ! eval "\"\$bin\" import openb $opts -o -" >"$tmp"; then
    echo "$f: chaintwin import openb $opts failed"
    status=1
    continue
  fi
  if ! diff -u "$f" "$tmp"; then
    echo "$f is out of date: regenerate it with the command in its header"
    status=1
  fi
  count=$((count + 1))
done
echo "$count ready scenarios checked"
[ "$count" -gt 0 ] || status=1
exit $status
