# Shared by the live tests (sourced): starts `chaintwin serve` on a free loopback port and waits
# until it listens. Sets $port and $spid; the caller kills $spid. Usage: start_serve CHAINTWIN OUT ARGS...
start_serve() {
  _bin=$1 _out=$2
  shift 2
  # Create the file first: the background job opens it only once it runs, and a sed of a file not
  # there yet fails the caller's `set -e` (a flake seen under load, failing the test in 0.02 s).
  : >"$_out"
  "$_bin" serve --listen 127.0.0.1:0 "$@" >"$_out" 2>&1 &
  spid=$!
  port=""
  for _ in $(seq 1 300); do
    port=$(sed -n 's|^serving .* on https*://127.0.0.1:\([0-9]*\)$|\1|p' "$_out")
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "serve did not start:"
  cat "$_out"
  return 1
}
