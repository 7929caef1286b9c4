#!/bin/bash
# `chaintwin completion bash` loaded into bash: what <TAB> offers after a few command lines.
# Usage: completion_test.sh CHAINTWIN
set -u
chaintwin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$chaintwin" completion bash >"$tmp/completion.bash" || { echo "completion bash failed"; exit 1; }
bash -n "$tmp/completion.bash" || { echo "the script is not valid bash"; exit 1; }
# shellcheck disable=SC1091
source "$tmp/completion.bash"
cd "$tmp" && touch scenario.yaml && mkdir plots
status=0
expect() {  # expect "WANT" WORD... : completing the last word gives exactly WANT
  local want=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _chaintwin
  local got="${COMPREPLY[*]}"
  if [ "$got" != "$want" ]; then
    echo "[$*]: want '$want', got '$got'"
    status=1
  fi
}
expect "run check compare derive import full-demand explain plan gui serve live snapshot help completion" chaintwin ""
expect "run" chaintwin ru
expect "--seed" chaintwin run --se
expect "text json" chaintwin run -o ""
expect "" chaintwin run --seed ""
expect "scenario.yaml" chaintwin run --seed 3 sc
expect "scenario.yaml" chaintwin run --db scenario.yaml sc
expect "merge" chaintwin plan me
expect "plots" chaintwin plan --plots pl
expect "openb" chaintwin import ""
expect "skip include" chaintwin import openb --unscheduled ""
expect "v1beta2 v1beta1" chaintwin serve --kueue-version ""
expect "plan" chaintwin help pl
expect "bash" chaintwin completion ""
expect "drains drift" chaintwin gui --panel dr
[ $status -eq 0 ] && echo "completion: ok"
exit $status
