#!/usr/bin/env bash
# Generates spec/signing-test-vectors.json: request-signing test vectors for
# "HMACSHA256 Authentication" (see the product contract, section 2).
#
# The expected values are computed here with openssl only, independently of
# the SDK's TypeScript code, so the SDK's tests can check signRequest and
# verifySignature against them. Two profiles:
#
#   published (the default, as the service's page has it):
#     stringToSign  = apiKey + METHOD + lowercase(absoluteUrl) + timestamp + nonce
#   bodyHash (opt-in, for deployments that want the body covered):
#     stringToSign  = apiKey + METHOD + lowercase(absoluteUrl) + timestamp + nonce + contentHash
#     contentHash   = base64(SHA-256(raw body bytes)) when the request has a body,
#                     else "" (no body = null/undefined OR the empty string "")
#
#   Authorization = "HMAC-SHA256 " apiKey ":" signature ":" nonce ":" timestamp
#   signature     = base64(HMAC-SHA256(key, msg = UTF-8(stringToSign)))
#   key           = UTF-8(apiSecret)            with secretEncoding "utf8" (the default)
#                 = base64-decode(apiSecret)    with secretEncoding "base64" (the option for a
#                   service that issues secrets as base64 of random bytes and decodes them to sign)
#
# Tools used: bash, printf, tr, od, openssl. Nothing else touches the hashed or
# signed bytes. The script file is UTF-8, so non-ASCII string literals below
# are UTF-8 bytes, and `printf '%s'` writes them verbatim, with no newline.
#
# Usage: bash spec/signing-test-vectors.sh   (rewrites the JSON beside it)
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out_file="${script_dir}/signing-test-vectors.json"

die() { printf 'signing-test-vectors.sh: %s\n' "$*" >&2; exit 1; }

command -v openssl >/dev/null 2>&1 || die "openssl not found"

# ---------------------------------------------------------------------------
# Crypto and string helpers (openssl / tr only)
# ---------------------------------------------------------------------------

# base64(SHA-256(bytes of $1)), standard alphabet, with padding, one line.
sha256_b64() {
  printf '%s' "$1" | openssl dgst -sha256 -binary | openssl base64 -A
}

# base64(HMAC-SHA256(key = bytes of $1, message = bytes of $2)).
hmac_sha256_b64() {
  printf '%s' "$2" | openssl dgst -sha256 -hmac "$1" -binary | openssl base64 -A
}

# base64(HMAC-SHA256(key = the bytes the base64 text $1 encodes, message = bytes of $2)). The key goes to
# openssl as hex, since decoded bytes may be anything (NUL, bytes that are no UTF-8).
hmac_sha256_b64_keyb64() {
  local hexkey
  hexkey="$(printf '%s' "$1" | openssl base64 -d -A | od -An -v -tx1 | tr -d ' \n')"
  [[ -n "$hexkey" ]] || die "secret is not base64: $1"
  printf '%s' "$2" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:${hexkey}" -binary | openssl base64 -A
}

# Lower-case ASCII letters only (LC_ALL=C: byte-wise, A-Z -> a-z).
# URLs in the vectors are percent-encoded, so they are pure ASCII, exactly as
# they travel on the wire; this also lower-cases the hex digits of percent
# escapes (%2B -> %2b, %C3%AB -> %c3%ab). ascii_url() below enforces that.
lower_ascii() {
  printf '%s' "$1" | LC_ALL=C tr '[:upper:]' '[:lower:]'
}

upper_ascii() {
  printf '%s' "$1" | LC_ALL=C tr '[:lower:]' '[:upper:]'
}

# Fail unless $1 is printable ASCII with no spaces (a URL as sent on the wire).
ascii_url() {
  if [[ -n "$(printf '%s' "$1" | LC_ALL=C tr -d '!-~')" ]]; then
    die "URL is not percent-encoded printable ASCII: $1"
  fi
}

# JSON string literal for $1. Escapes backslash, double quote and the control
# characters the vectors may contain; UTF-8 bytes >= 0x80 are copied verbatim
# (valid JSON, RFC 8259 section 8.1). Any other control character is refused.
json_str() {
  local s="$1"
  if [[ -n "$(printf '%s' "$s" | LC_ALL=C tr -dc '\001-\010\013\014\016-\037\177')" ]]; then
    die "unsupported control character in string: $s"
  fi
  s="${s//\\/\\\\}"
  s="${s//\"/\\\"}"
  s="${s//$'\n'/\\n}"
  s="${s//$'\r'/\\r}"
  s="${s//$'\t'/\\t}"
  printf '"%s"' "$s"
}

# ---------------------------------------------------------------------------
# Vector builder
# ---------------------------------------------------------------------------

vectors_json=""
vector_count=0

# add_vector PROFILE NAME DESCRIPTION METHOD URL BODY_KIND BODY API_KEY API_SECRET TIMESTAMP NONCE [SECRET_ENCODING]
#   PROFILE:   "published" (five parts) or "bodyHash" (five parts + contentHash)
#   BODY_KIND: "null"   -> input.body is null (request without body); BODY ignored
#              "string" -> input.body is BODY (may be "", which also means no body)
add_vector() {
  local profile="$1"; shift
  local name="$1" description="$2" method="$3" url="$4" body_kind="$5" body="$6"
  local api_key="$7" api_secret="$8" timestamp="$9" nonce="${10}" secret_encoding="${11:-utf8}"

  # A GUID, with or without dashes, any case (what a verifier accepts; the SDK sends 32 lower-case hex).
  [[ "$nonce" =~ ^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$ ]] \
    || die "$name: nonce must be a GUID"
  [[ "$profile" == published || "$profile" == bodyHash ]] || die "$name: unknown profile $profile"
  [[ "$timestamp" =~ ^[0-9]+$ ]] || die "$name: timestamp must be decimal Unix seconds"
  [[ "$secret_encoding" == utf8 || "$secret_encoding" == base64 ]] || die "$name: secret encoding must be utf8 or base64"
  ascii_url "$url"

  local upper_method lower_url content_hash string_to_sign signature authorization body_json
  upper_method="$(upper_ascii "$method")"
  lower_url="$(lower_ascii "$url")"

  case "$body_kind" in
    null)
      content_hash=""
      body_json="null"
      ;;
    string)
      if [[ -z "$body" ]]; then
        # Zero-byte body: treated exactly like "no body".
        content_hash=""
      else
        content_hash="$(sha256_b64 "$body")"
      fi
      body_json="$(json_str "$body")"
      ;;
    *) die "$name: body kind must be null or string" ;;
  esac

  local body_hash=false
  if [[ "$profile" == published ]]; then
    content_hash=""   # the published scheme signs five parts; the body is not covered
  else
    body_hash=true
  fi
  string_to_sign="${api_key}${upper_method}${lower_url}${timestamp}${nonce}${content_hash}"
  if [[ "$secret_encoding" == base64 ]]; then
    [[ "$api_secret" =~ ^[A-Za-z0-9+/]+={0,2}$ ]] || die "$name: apiSecret must be standard base64 with secretEncoding base64"
    signature="$(hmac_sha256_b64_keyb64 "$api_secret" "$string_to_sign")"
  else
    signature="$(hmac_sha256_b64 "$api_secret" "$string_to_sign")"
  fi
  authorization="HMAC-SHA256 ${api_key}:${signature}:${nonce}:${timestamp}"

  local sep=""
  [[ $vector_count -gt 0 ]] && sep=$',\n'
  vectors_json+="${sep}    {
      \"name\": $(json_str "$name"),
      \"profile\": $(json_str "$profile"),
      \"description\": $(json_str "$description"),
      \"input\": {
        \"method\": $(json_str "$method"),
        \"url\": $(json_str "$url"),
        \"body\": ${body_json},
        \"apiKey\": $(json_str "$api_key"),
        \"apiSecret\": $(json_str "$api_secret"),
        \"timestamp\": $(json_str "$timestamp"),
        \"nonce\": $(json_str "$nonce"),
        \"bodyHash\": ${body_hash},
        \"secretEncoding\": $(json_str "$secret_encoding")
      },
      \"expected\": {
        \"contentHash\": $(json_str "$content_hash"),
        \"stringToSign\": $(json_str "$string_to_sign"),
        \"signature\": $(json_str "$signature"),
        \"authorization\": $(json_str "$authorization")
      }
    }"
  vector_count=$((vector_count + 1))
}

# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

TEST_KEY="test_key"          # default mock credentials (contract section 1)
TEST_SECRET="test_secret"

API="https://api.example.test"
MOCK="http://localhost:4010"  # non-default port: kept in the signed URL

USER_ID="911bf3ae-af5c-4a9e-8762-8acc1b85e467"
USER_ID_2="b38f73a9-4a03-495d-b425-b4c75e808987"
CARD_ID="e5f81086-25b1-4f94-9882-4116e0bca885"
CORPORATE_UUID="e3b9a357-007d-49df-b630-2ccf10b7d982"
APPROVAL_UUID="23b6d232-2ba4-419c-8a78-fa6918c24713"
CORPORATE_USER_UUID="ca14a941-8f9b-4fde-868e-27e5c468c280"
CONFIG_ID="8f2f0c22-079a-4c44-9eb3-825e386050ce"
VISUAL_ID="dadd1164-e054-4d75-be85-db0444ee5233"

# RSA-2048 public key: base64url (no padding) of the DER SubjectPublicKeyInfo,
# as sent in the `publicKey` query parameter (contract section 3).
PUBLIC_KEY_B64URL="MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA6tS_pzqL7Ov44Rr96Hv8Fbi_6h14_L-LFE51s1hPE4FttUSyhCsmNpEDBEYVhM8TzF2oqg7BaILp8NOzU3DwedoLPiZqw2KmykwELUipYdY0fti1VLFL0tdTmKBsCou_xJNO0SNPRiq5jfCrLGJy5uJTN0rFUi_z9gVRqZ6yGnTb-1G0QRbhjrsz1LCrbwNNqna1Rex6TYBIImxHT3ukAoNpOJN_i31dJCjmELwll0lzLOOjg7hnWtbnJ1Lr5cqCAfTqGRmIRdH_kievo-Y94yfiMhDnxR9_PYGUFfQhOtbh2jK6gewM59SpjBCuMlVbb-mPdTxf7rq2XIGYaR64BwIDAQAB"

# ---------------------------------------------------------------------------
# Profile "published": the five parts of the service's HMACSHA256 page
# ---------------------------------------------------------------------------

# The page's worked example, with its api key, URL, timestamp and nonce. The page gives the string to sign
# (checked below, character for character) but no secret; the secret here is ours, for the signature.
PUBLISHED_STRING='16de9f8b-b414-4c50-b3c8-cf8355683a42POSThttps://api.mobilum.com/s2s/health?arg1=test1167474201375293d8ca0e6453f823fe87315e9483b'
add_vector published "published-example" \
  "The service's published worked example: POST https://api.mobilum.com/s2s/health?arg1=test1, api key 16de9f8b-b414-4c50-b3c8-cf8355683a42, timestamp 1674742013, nonce 75293d8ca0e6453f823fe87315e9483b. stringToSign is the page's raw string exactly; the page gives no secret, so apiSecret is ours." \
  "POST" "https://api.mobilum.com/s2s/health?arg1=test1" \
  null "" "16de9f8b-b414-4c50-b3c8-cf8355683a42" "published-example-secret" "1674742013" "75293d8ca0e6453f823fe87315e9483b"
[[ "$(printf '%s' "$vectors_json" | grep -c -F "\"stringToSign\": \"${PUBLISHED_STRING}\"")" == 1 ]] \
  || die "published-example: stringToSign differs from the page's raw string"

add_vector published "get-with-query" \
  "GET with a query string and no body." \
  "GET" "${API}/s2s/balances?userId=${USER_ID}" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767225600" "7f28d11bedef191daf8ea14b88c98df9"

add_vector published "post-json-body-not-signed" \
  "POST with a compact JSON body: the published scheme does not sign the body, so stringToSign ends with the nonce." \
  "POST" "${API}/s2s/users/${USER_ID}/cards" \
  string "{\"configId\":\"${CONFIG_ID}\",\"visualId\":\"${VISUAL_ID}\"}" \
  "$TEST_KEY" "$TEST_SECRET" "1767225661" "4a6170d2001ed26daa04f2119490fa14"

add_vector published "get-uppercase-path-and-query" \
  "Upper-case letters in host, path, query names and query values: the whole absolute URL is lower-cased in stringToSign, while the request itself (input.url) keeps its case." \
  "GET" "https://API.Example.TEST/S2S/Cards?userId=$(upper_ascii "$USER_ID_2")&Status=ACTIVE" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767225783" "51ef129863833bdfb9aec0478cfba1d0"

add_vector published "get-localhost-non-default-port" \
  "URL with a non-default port (the mock server on localhost:4010): the port is part of the signed URL." \
  "GET" "${MOCK}/s2s/cards?userId=${USER_ID}" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767225844" "17ac240e2a4b01fac66fe2af2a87c513"

add_vector published "post-empty-body" \
  "POST with no body (charge a draft)." \
  "POST" "${MOCK}/s2s/cards/${CARD_ID}/charge-draft" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767225905" "17c8af9706a11c31ec219219e101b30b"

add_vector published "post-create-approval" \
  "Business cards: create an approval on the path that holds the segment 'corporates' twice, with non-default credentials; the body is not signed." \
  "POST" "${API}/corporates/corporates/${CORPORATE_UUID}/approvals" \
  string "{\"userUuid\":\"${CORPORATE_USER_UUID}\",\"budget\":{\"amount\":150000,\"currency\":\"EUR\"},\"validFrom\":\"2026-01-05T00:00:00Z\",\"validTo\":\"2026-03-31T23:59:59Z\"}" \
  "corp_key_8c41e2" "corp_secret_Q7v2Xk9LmP4w" "1767225966" "0d480429f99195266e3b16d12520150e"

add_vector published "get-card-details-public-key" \
  "Card details with the RSA public key in the query as base64url (no padding, with '-' and '_'): the key is signed, lower-cased like the rest of the URL." \
  "GET" "${API}/s2s/cards/${CARD_ID}/details?publicKey=${PUBLIC_KEY_B64URL}" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767226027" "4edcb95fa3ae92520dd63868542d3f6d"

add_vector published "get-percent-encoded-query" \
  "Percent-encoded query values ('+' as %2B, '@' as %40, '/' as %2F, space as %20, UTF-8 %C3%AB/%C3%BC): the URL is signed as sent on the wire, and the upper-case hex digits of the escapes are lower-cased with the rest (%2B -> %2b). Never decode or re-encode before signing." \
  "GET" "${API}/s2s/balances?userId=${USER_ID}&email=zoe%2Bcards%40example.test&label=Travel%20%2F%20Zo%C3%AB%20M%C3%BCller" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767226088" "6c80793a5880197b3e2a0df990ffc235"

add_vector published "raw-target-dot-segment-and-quote" \
  "A target with a dot segment and a quote, exactly as sent: no normalisation ('/./' stays, \"'\" is not percent-encoded) before signing or verifying." \
  "GET" "${MOCK}/s2s/./users/${USER_ID}?note='x'" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767226100" "5b0f1c7e9a2d4e3f8a6b1c0d9e8f7a6b"

add_vector published "guid-nonce-with-dashes" \
  "A nonce that is a GUID with dashes in upper case, as the page allows ('a random string (a GUID)'): signed exactly as sent, not lower-cased." \
  "GET" "${API}/corporates/${CORPORATE_UUID}/approvals/${APPROVAL_UUID}" \
  null "" "corp_key_8c41e2" "corp_secret_Q7v2Xk9LmP4w" "1767226271" "9F1C2D3E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"

add_vector published "non-ascii-api-secret" \
  "API secret with non-ASCII characters: the HMAC key is the UTF-8 bytes of apiSecret (here 16 bytes for 11 characters)." \
  "POST" "${API}/corporates/${CORPORATE_UUID}/approvals/${APPROVAL_UUID}/increase-budget" \
  string '{"additionalBudget":{"amount":25000,"currency":"EUR"}}' \
  "corp_key_8c41e2" "sëcret-ключ" "1767226149" "a1fa079a232b3abb665a62227a4d6fbe"

# ---------------------------------------------------------------------------
# Profile "bodyHash": + base64(SHA-256(raw body bytes)), opt-in
# ---------------------------------------------------------------------------

add_vector bodyHash "body-get-with-query" \
  "GET with a query string and no body: contentHash is empty, the same string as the published profile." \
  "GET" "${API}/s2s/balances?userId=${USER_ID}" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767225600" "7f28d11bedef191daf8ea14b88c98df9"

add_vector bodyHash "body-post-json-body" \
  "POST with a compact JSON body: contentHash is base64(SHA-256) of the exact body bytes." \
  "POST" "${API}/s2s/users/${USER_ID}/cards" \
  string "{\"configId\":\"${CONFIG_ID}\",\"visualId\":\"${VISUAL_ID}\"}" \
  "$TEST_KEY" "$TEST_SECRET" "1767225661" "4a6170d2001ed26daa04f2119490fa14"

add_vector bodyHash "body-post-non-ascii-body" \
  "POST whose JSON body holds non-ASCII characters (Latin letters with diacritics and an emoji outside the BMP): the body is hashed as its UTF-8 bytes, never as UTF-16 code units or Latin-1." \
  "POST" "${API}/s2s/users" \
  string '{"firstName":"Zoë","lastName":"Müller-Łukasik","displayName":"Zoë Müller-Łukasik 🚀","email":"zoe.muller@example.test"}' \
  "$TEST_KEY" "$TEST_SECRET" "1767225722" "580af9e8b151b17b6a5978133d657628"

add_vector bodyHash "body-post-null-body" \
  "POST with no body (body null/undefined): contentHash is empty and stringToSign ends with the nonce." \
  "POST" "${MOCK}/s2s/users/${USER_ID}/email/otp" \
  null "" "$TEST_KEY" "$TEST_SECRET" "1767225905" "17c8af9706a11c31ec219219e101b30b"

add_vector bodyHash "body-post-empty-string-body" \
  "POST whose body is the empty string (zero bytes): treated exactly as no body, so contentHash is empty (not base64(SHA-256(\"\"))). Same inputs as body-post-null-body, hence the same signature." \
  "POST" "${MOCK}/s2s/users/${USER_ID}/email/otp" \
  string "" "$TEST_KEY" "$TEST_SECRET" "1767225905" "17c8af9706a11c31ec219219e101b30b"

add_vector bodyHash "body-post-create-approval" \
  "Business cards: create an approval, body signed, non-default credentials." \
  "POST" "${API}/corporates/corporates/${CORPORATE_UUID}/approvals" \
  string "{\"userUuid\":\"${CORPORATE_USER_UUID}\",\"budget\":{\"amount\":150000,\"currency\":\"EUR\"},\"validFrom\":\"2026-01-05T00:00:00Z\",\"validTo\":\"2026-03-31T23:59:59Z\"}" \
  "corp_key_8c41e2" "corp_secret_Q7v2Xk9LmP4w" "1767225966" "0d480429f99195266e3b16d12520150e"

add_vector bodyHash "body-non-ascii-api-secret" \
  "API secret with non-ASCII characters and a signed body." \
  "POST" "${API}/corporates/${CORPORATE_UUID}/approvals/${APPROVAL_UUID}/increase-budget" \
  string '{"additionalBudget":{"amount":25000,"currency":"EUR"}}' \
  "corp_key_8c41e2" "sëcret-ключ" "1767226149" "a1fa079a232b3abb665a62227a4d6fbe"

add_vector bodyHash "body-post-body-with-newlines" \
  "Pretty-printed JSON body with LF line breaks and a trailing newline: every byte counts, nothing is trimmed or re-serialised before hashing." \
  "POST" "${API}/s2s/users/${USER_ID}/email/confirm" \
  string $'{\n  "code": "482913"\n}\n' \
  "$TEST_KEY" "$TEST_SECRET" "1767226210" "37bcea5ffd68f4fda796e4565abdb644"

add_vector bodyHash "body-uppercase-url-guid-nonce" \
  "Upper-case URL and a dashed GUID nonce with a signed body: the URL is lower-cased, the nonce kept as sent." \
  "POST" "${MOCK}/S2S/Users/${USER_ID}/Email/Confirm" \
  string '{"code":"000111"}' \
  "$TEST_KEY" "$TEST_SECRET" "1767226300" "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"

# ---------------------------------------------------------------------------
# secretEncoding "base64": the HMAC key is the bytes the secret encodes (both profiles)
# ---------------------------------------------------------------------------

# 32 random bytes, base64 (with '+' and '/', and bytes >= 0x80 that are no UTF-8 text).
B64_KEY="b64_key_5d2e"
B64_SECRET="q3+7Jf0mPz/9vL2kXyQ8sW1nR4tU6hE0aG5bC7dI9oM="

add_vector published "base64-secret-get-with-query" \
  "secretEncoding base64: the key is the 32 bytes apiSecret encodes, not its 44 characters. GET with a query string." \
  "GET" "${API}/s2s/balances?userId=${USER_ID}" \
  null "" "$B64_KEY" "$B64_SECRET" "1767225600" "7f28d11bedef191daf8ea14b88c98df9" base64

add_vector published "base64-secret-published-example" \
  "The service's published example (POST https://api.mobilum.com/s2s/health?arg1=test1) with a base64 secret: the same stringToSign as published-example, another key." \
  "POST" "https://api.mobilum.com/s2s/health?arg1=test1" \
  null "" "16de9f8b-b414-4c50-b3c8-cf8355683a42" "$B64_SECRET" "1674742013" "75293d8ca0e6453f823fe87315e9483b" base64

add_vector published "base64-secret-post-body-not-signed" \
  "secretEncoding base64, POST with a JSON body that the published scheme does not sign." \
  "POST" "${API}/s2s/users/${USER_ID}/cards" \
  string "{\"configId\":\"${CONFIG_ID}\",\"visualId\":\"${VISUAL_ID}\"}" \
  "$B64_KEY" "$B64_SECRET" "1767225661" "4a6170d2001ed26daa04f2119490fa14" base64

add_vector published "base64-secret-that-is-also-text" \
  "A secret that reads as text and as base64 (dGVzdF9zZWNyZXQ= encodes test_secret): with secretEncoding base64 the key is the 11 bytes of test_secret, so the signature is the one test_secret (utf8) would give for this string; with utf8 the key would be the 16 characters." \
  "GET" "${API}/s2s/balances?userId=${USER_ID}" \
  null "" "$B64_KEY" "dGVzdF9zZWNyZXQ=" "1767225600" "7f28d11bedef191daf8ea14b88c98df9" base64

add_vector published "base64-secret-short-unpadded" \
  "A short base64 secret that needs no padding: 8 characters encode the 6 bytes 00 01 02 03 04 05 (a NUL byte first), which are the key." \
  "GET" "${MOCK}/s2s/cards?userId=${USER_ID}" \
  null "" "$B64_KEY" "AAECAwQF" "1767225844" "17ac240e2a4b01fac66fe2af2a87c513" base64

add_vector published "utf8-same-base64-looking-secret" \
  "The base64-looking secret of base64-secret-get-with-query with the default secretEncoding utf8: the key is its 44 characters, so the signature differs." \
  "GET" "${API}/s2s/balances?userId=${USER_ID}" \
  null "" "$B64_KEY" "$B64_SECRET" "1767225600" "7f28d11bedef191daf8ea14b88c98df9" utf8

add_vector bodyHash "base64-secret-body-post-json-body" \
  "secretEncoding base64 with the body hash: POST with a compact JSON body." \
  "POST" "${API}/s2s/users/${USER_ID}/cards" \
  string "{\"configId\":\"${CONFIG_ID}\",\"visualId\":\"${VISUAL_ID}\"}" \
  "$B64_KEY" "$B64_SECRET" "1767225661" "4a6170d2001ed26daa04f2119490fa14" base64

add_vector bodyHash "base64-secret-body-non-ascii-body" \
  "secretEncoding base64 with the body hash: a non-ASCII body, hashed as its UTF-8 bytes." \
  "POST" "${API}/s2s/users" \
  string '{"firstName":"Zoë","lastName":"Müller-Łukasik","email":"zoe.muller@example.test"}' \
  "$B64_KEY" "$B64_SECRET" "1767225722" "580af9e8b151b17b6a5978133d657628" base64

add_vector bodyHash "base64-secret-body-post-null-body" \
  "secretEncoding base64 with the body hash: POST without a body, contentHash empty." \
  "POST" "${MOCK}/s2s/users/${USER_ID}/email/otp" \
  null "" "$B64_KEY" "$B64_SECRET" "1767225905" "17c8af9706a11c31ec219219e101b30b" base64

# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

top_description="Test vectors for HMACSHA256 Authentication (request signing), generated by signing-test-vectors.sh with openssl, independently of the SDK. Authorization: 'HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>'. Profile 'published' (the default, as the service's page has it): stringToSign = apiKey + METHOD (upper case) + lowercase(absoluteUrl) + timestamp (Unix seconds, decimal) + nonce (a GUID, with or without dashes; the SDK sends 32 lower-case hex chars), and the body is not signed. Profile 'bodyHash' (opt-in, input.bodyHash true): the same + contentHash. absoluteUrl is the full URL as sent on the wire (scheme, host, port when not default, path, query), percent-encoded and therefore ASCII, then lower-cased as a whole, percent-escape hex digits included. contentHash = base64(SHA-256(raw body bytes)) when the request has a body; a request without a body (input.body null) and a request whose body is the empty string (zero bytes) both count as 'no body', so contentHash is the empty string. String bodies are hashed as their UTF-8 bytes. signature = base64(HMAC-SHA256(key, message = UTF-8 bytes of stringToSign)), standard base64 alphabet with '=' padding; key = the UTF-8 bytes of apiSecret when input.secretEncoding is 'utf8' (the default), or the bytes apiSecret encodes when it is 'base64'. input.timestamp is a string of decimal Unix seconds."

{
  printf '{\n'
  printf '  "description": %s,\n' "$(json_str "$top_description")"
  printf '  "algorithm": "HMAC-SHA256",\n'
  printf '  "vectors": [\n'
  printf '%s\n' "$vectors_json"
  printf '  ]\n'
  printf '}\n'
} > "${out_file}.tmp"
mv "${out_file}.tmp" "$out_file"

printf 'wrote %d vectors to %s\n' "$vector_count" "$out_file"
