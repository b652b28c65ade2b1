#!/bin/sh
# Sends one request signed with openssl and sent with curl: a client that shares no code with the SDK.
# Usage: API_KEY=k API_SECRET=s curl-signed.sh METHOD URL [BODY]
# Signs the five parts of the service's HMACSHA256 page: apiKey + METHOD + lowercase(url) + timestamp + nonce.
# SIGN_BODY=1 appends base64(SHA-256(body)) (the opt-in profile). NONCE=... sends that nonce (default: 32 hex).
# TAMPER=1 sends a body other than the signed one. The URL is sent as given (--path-as-is: no /./ removal).
# Prints the HTTP status on the first line, then the body.
set -eu
method=$1
url=$2
body=${3-}
timestamp=$(date +%s)
nonce=${NONCE:-$(openssl rand -hex 16)}
content_hash=
if [ "${SIGN_BODY-}" = 1 ] && [ -n "$body" ]; then
  content_hash=$(printf '%s' "$body" | openssl dgst -sha256 -binary | openssl base64 -A)
fi
lower_url=$(printf '%s' "$url" | tr '[:upper:]' '[:lower:]')
string_to_sign="${API_KEY}${method}${lower_url}${timestamp}${nonce}${content_hash}"
signature=$(printf '%s' "$string_to_sign" | openssl dgst -sha256 -hmac "$API_SECRET" -binary | openssl base64 -A)
authorization="HMAC-SHA256 ${API_KEY}:${signature}:${nonce}:${timestamp}"
if [ "${TAMPER-}" = 1 ]; then body=$(printf '%s' "$body" | sed 's/a/b/'); fi
out=$(mktemp)
if [ -n "$body" ]; then
  status=$(curl -sS --path-as-is -o "$out" -w '%{http_code}' -X "$method" -H "Authorization: $authorization" \
    -H 'Content-Type: application/json' --data-binary "$body" "$url")
else
  status=$(curl -sS --path-as-is -o "$out" -w '%{http_code}' -X "$method" -H "Authorization: $authorization" "$url")
fi
echo "$status"
cat "$out"
rm -f "$out"
