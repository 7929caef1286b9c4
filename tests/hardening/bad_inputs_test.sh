#!/bin/sh
# The bad-input corpus (issue 23): every case in bad_inputs/cases.txt is a careless or hostile input —
# a scenario, a Kubernetes object, an openb CSV, a kubeconfig or a command line — that chaintwin must
# refuse with exit code 2 within 20 s, a message on stderr containing the expected text (which names
# the file, line or field and what was expected), and nothing written: the working directory holds
# the same files after the command as before it (no results file, no half event log, no scenario).
# cases.txt: one case a line, tab-separated: FILE, ARGS ({} stands for FILE), EXPECTED TEXT.
#
# http_cases.txt holds bad HTTP requests to `chaintwin serve` (of g00-good.yaml), each answered as
# kube-apiserver answers it: METHOD, PATH, BODY ("-" none, "@big" a generated 4 MiB object,
# else the JSON itself), the status code, and text the Status body's "reason message" contains.
# After them the server must still answer a plain list (it stays up under abuse).
# Usage: bad_inputs_test.sh CHAINTWIN [CORPUS_DIR]   (SHOW=1 prints every case's exit and stderr)
set -u
chaintwin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=${2:-$(cd "$(dirname "$0")" && pwd)/bad_inputs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
count=0
tab=$(printf '\t')
while IFS="$tab" read -r file args want; do
  [ -z "$file" ] && continue
  count=$((count + 1))
  work="$tmp/case-$count"
  mkdir "$work"
  line=$(printf '%s' "$args" | sed "s|{}|$file|g")
  # The case's file and every other corpus file its command names (an openb pair).
  for word in $line; do
    [ -f "$corpus/$word" ] && [ "$word" != cases.txt ] && cp "$corpus/$word" "$work/"
  done
  (cd "$work" && ls -A | sort >"$tmp/before")
  (cd "$work" && eval "set -- $line" && timeout 20 "$chaintwin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null)
  rc=$?
  (cd "$work" && ls -A | sort >"$tmp/after")
  if [ "${SHOW:-0}" = 1 ]; then
    printf '%s | %s -> %d: %s\n' "$file" "$line" "$rc" "$(head -c 400 "$tmp/err" | tr '\n' ' ')"
  fi
  problem=""
  [ $rc -ne 2 ] && problem="exit $rc (want 2)"
  if [ -z "$problem" ] && ! grep -qF -- "$want" "$tmp/err"; then problem="stderr lacks: $want"; fi
  if [ -z "$problem" ] && ! cmp -s "$tmp/before" "$tmp/after"; then
    problem="wrote: $(comm -13 "$tmp/before" "$tmp/after" | tr '\n' ' ')"
  fi
  if [ -n "$problem" ]; then
    echo "FAIL: chaintwin $line: $problem; stderr: $(head -c 300 "$tmp/err")"
    failed=1
  fi
  rm -rf "$work"
done <"$corpus/cases.txt"
# The HTTP requests, against one server.
. "$(cd "$(dirname "$0")" && pwd)/../live/serve_helpers.sh"
if ! command -v curl >/dev/null; then
  echo "FAIL: curl is needed for the HTTP cases (cmake/deps.sh installs it)"
  failed=1
elif start_serve "$chaintwin" "$tmp/serve.out" "$corpus/g00-good.yaml"; then
  base="http://127.0.0.1:$port"
  python3 -c "print('{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"big\",\"annotations\":{\"a\":\"' + 'x' * (4 << 20) + '\"}}}')" >"$tmp/big"
  while IFS="$tab" read -r method path body code want; do
    [ -z "$method" ] && continue
    count=$((count + 1))
    case "$body" in
      -) got=$(curl -s -o "$tmp/reply" -w '%{http_code}' -X "$method" "$base$path") ;;
      @big) got=$(curl -s -o "$tmp/reply" -w '%{http_code}' -X "$method" -H 'Content-Type: application/json' \
                    --data-binary "@$tmp/big" "$base$path") ;;
      *)
        printf '%s' "$body" >"$tmp/body"
        type=application/json
        [ "$method" = PATCH ] && type=application/merge-patch+json
        got=$(curl -s -o "$tmp/reply" -w '%{http_code}' -X "$method" -H "Content-Type: $type" --data-binary "@$tmp/body" \
              "$base$path") ;;
    esac
    said=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("kind"), d.get("reason"), d.get("message"))' \
           "$tmp/reply" 2>/dev/null)
    [ "${SHOW:-0}" = 1 ] && printf '%s %s -> %s: %s\n' "$method" "$path" "$got" "$said"
    if [ "$got" != "$code" ] || ! printf '%s' "$said" | grep -qF -- "Status $want"; then
      echo "FAIL: $method $path: $got (want $code), said: $(printf '%s' "$said" | head -c 300) (want: Status $want)"
      failed=1
    fi
  done <"$corpus/http_cases.txt"
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/v1/nodes")" != 200 ]; then
    echo "FAIL: serve no longer answers a plain list after the bad requests"
    failed=1
  fi
  kill "$spid"
  wait "$spid" 2>/dev/null
else
  failed=1
fi
echo "$count bad inputs"
if [ "$count" -lt 150 ]; then
  echo "FAIL: the corpus holds $count cases (at least 150 expected)"
  failed=1
fi
[ $failed -eq 0 ] && echo "bad inputs refused: ok"
exit $failed
