#!/bin/sh
# The live mode over HTTPS against `chaintwin serve --tls-cert --tls-key --client-ca --token`: a
# test CA, a server certificate for 127.0.0.1 and a client certificate made with openssl(1). The
# server's certificate is verified against the kubeconfig's CA (file or data), the client
# certificate and key (files or data) are sent, the bearer token comes from the kubeconfig or from an
# exec credential plugin; without the CA the handshake is refused (exit 3), without a client
# certificate the server refuses it (exit 3), a wrong token is a 401 (exit 3),
# insecure-skip-tls-verify works with a warning, and no secret appears in any output. kubectl reads
# the same kubeconfig when it is installed.
# Usage: tls_test.sh CHAINTWIN
set -eu
chaintwin=$1
tmp=$(mktemp -d)
trap 'kill $spid 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp"
ssl() { openssl "$@" 2>/dev/null || fail "openssl $1"; }
ssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=chaintwin-test-ca"
ssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1"
printf 'subjectAltName=IP:127.0.0.1\n' >san.ext
ssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile san.ext
ssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/CN=chaintwin-user"
ssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out client.crt -days 2
token=tls-test-token-0451
. "$(dirname "$0")/serve_helpers.sh"
start_serve "$chaintwin" serve.out --tls-cert server.crt --tls-key server.key --client-ca ca.crt --token "$token"
grep -q "on https://127.0.0.1:$port\$" serve.out || fail "serve says https: $(cat serve.out)"
server="https://127.0.0.1:$port"
b64() { base64 -w0 "$1"; }
kc() {  # CLUSTER-FIELDS USER-FIELDS
  cat <<KC
apiVersion: v1
kind: Config
current-context: tls
clusters: [{name: tls, cluster: {server: "$server"$1}}]
users: [{name: me, user: {$2}}]
contexts: [{name: tls, context: {cluster: tls, user: me}}]
KC
}
files_user="token: $token, client-certificate: client.crt, client-key: client.key"
data_user="token: $token, client-certificate-data: $(b64 client.crt), client-key-data: $(b64 client.key)"
kc ", certificate-authority: ca.crt" "$files_user" >files.yaml
kc ", certificate-authority-data: $(b64 ca.crt)" "$data_user" >data.yaml
kc "" "$files_user" >noca.yaml
kc ", certificate-authority: ca.crt" "token: $token" >nocert.yaml
kc ", certificate-authority: ca.crt" "token: wrong-token-7, client-certificate: client.crt, client-key: client.key" >badtoken.yaml
kc ", insecure-skip-tls-verify: true" "$files_user" >insecure.yaml
cat >plugin.sh <<PLUGIN
#!/bin/sh
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"$token"}}\n'
PLUGIN
chmod +x plugin.sh
kc ", certificate-authority: ca.crt" "client-certificate: client.crt, client-key: client.key, exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin.sh, interactiveMode: Never}" >exec.yaml

run() {  # WANT KUBECONFIG
  set +e
  "$chaintwin" live --kubeconfig "$2" --once --timeout 5 >"$2.out" 2>"$2.err"
  rc=$?
  set -e
  cat "$2.out" "$2.err"
  [ $rc -eq "$1" ] || fail "$2: exit $rc, want $1"
  if grep -q -e "$token" -e 'BEGIN' "$2.out" "$2.err"; then fail "$2: a secret in the output"; fi
}
for ok in files.yaml data.yaml exec.yaml; do
  run 0 $ok
  grep -q "^# $server (context tls), " $ok.out && grep -q '^no drift: ' $ok.out || fail "$ok: the report"
done
run 3 noca.yaml
grep -qi 'certificate' noca.yaml.err || fail "the refused server certificate is named"
run 3 nocert.yaml
run 3 badtoken.yaml
grep -q '401 Unauthorized' badtoken.yaml.err || fail "a wrong token is a 401"
run 0 insecure.yaml
grep -q 'warning: insecure-skip-tls-verify is set' insecure.yaml.err || fail "the insecure warning"
if command -v kubectl >/dev/null 2>&1; then
  HOME="$tmp" kubectl --kubeconfig files.yaml get clusterqueues -o name >kubectl.out || fail "kubectl over TLS"
  grep -q '^clusterqueue.kueue.x-k8s.io/gpustack--nvidia-h100-80gb-hbm3-linux-amd64$' kubectl.out || fail "kubectl's ClusterQueues"
else
  echo "kubectl is not installed: its part of this test did not run"
fi
echo "tls: ok"
