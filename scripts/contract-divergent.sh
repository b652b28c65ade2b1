#!/usr/bin/env bash
# `npm run test:contract:divergent` (npm puts the pinned Node on PATH): `card-issuing-contract run` against the
# divergent server (test/divergent/server.ts), as a CI job would run it
# against a sandbox: it must exit 1 and name each planted difference; signed as the default it must exit 2 and name
# the secret encoding that works. Leaves test-results/contract-divergent.{xml,json}.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
info=$(mktemp)
node_modules/.bin/tsx test/divergent/cli.ts >"$info" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$info"' EXIT
for _ in $(seq 1 100); do [ -s "$info" ] && break; sleep 0.1; done
field() { node -e "process.stdout.write(String(JSON.parse(require('fs').readFileSync('$info','utf8'))$1))"; }
url=$(field .url); key=$(field .apiKey); secret=$(field .apiSecret); corporate=$(field .corporate.corporateUuid)

set +e
node contract/dist/cli.js run --base-url "$url" --api-key "$key" --api-secret "$secret" 2>test-results/contract-divergent-utf8.txt
utf8=$?
node contract/dist/cli.js run --base-url "$url" --api-key "$key" --api-secret "$secret" --secret-encoding base64 \
  --corporate "$corporate" --junit test-results/contract-divergent.xml --json test-results/contract-divergent.json >test-results/contract-divergent.txt
base64=$?
set -e
cat test-results/contract-divergent-utf8.txt
[ "$utf8" = 2 ] && grep -q 'pass --secret-encoding base64' test-results/contract-divergent-utf8.txt
sed -n '/^Mismatches/,/^Tests:/p' test-results/contract-divergent.txt
tail -4 test-results/contract-divergent.txt
[ "$base64" = 1 ]
for planted in "must have required property 'dateOfBirth'" "must NOT have additional properties: 'birthDate'" \
  '200 is not documented' 'came "USER_NOT_FOUND"'; do
  grep -qF "$planted" test-results/contract-divergent.txt || { echo "not named: $planted"; exit 1; }
done
echo "contract-divergent: exit codes 2 (default signing) and 1 (base64), every planted difference named"
