#!/bin/sh
# Sends one request signed with openssl and sent with curl: a client that shares no code with the SDK.
# Usage: API_KEY=k API_SECRET=s curl-signed.sh METHOD URL [BODY]
# TAMPER=1 sends a body other than the signed one. Prints the HTTP status on the first line, then the body.
set -eu
method=$1
url=$2
body=${3-}
timestamp=$(date +%s)
nonce=$(openssl rand -hex 16)
if [ -n "$body" ]; then
  content_hash=$(printf '%s' "$body" | openssl dgst -sha256 -binary | openssl base64 -A)
else
  content_hash=
fi
lower_url=$(printf '%s' "$url" | tr '[:upper:]' '[:lower:]')
string_to_sign="${API_KEY}${method}${lower_url}${timestamp}${nonce}${content_hash}"
signature=$(printf '%s' "$string_to_sign" | openssl dgst -sha256 -hmac "$API_SECRET" -binary | openssl base64 -A)
authorization="HMAC-SHA256 ${API_KEY}:${signature}:${nonce}:${timestamp}"
if [ "${TAMPER-}" = 1 ]; then body=$(printf '%s' "$body" | sed 's/a/b/'); fi
out=$(mktemp)
if [ -n "$body" ]; then
  status=$(curl -sS -o "$out" -w '%{http_code}' -X "$method" -H "Authorization: $authorization" \
    -H 'Content-Type: application/json' --data-binary "$body" "$url")
else
  status=$(curl -sS -o "$out" -w '%{http_code}' -X "$method" -H "Authorization: $authorization" "$url")
fi
echo "$status"
cat "$out"
rm -f "$out"
