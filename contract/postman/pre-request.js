// card-issuing-contract's Postman collection: signs every request the five-part way (HMACSHA256 Authentication)
// before it is sent, in Postman's sandbox (CryptoJS), from the environment's apiKey, apiSecret and secretEncoding.
//   stringToSign = apiKey + METHOD + lowercase(absoluteUrl) + timestamp + nonce
//   signature    = base64(HMAC-SHA256(key, stringToSign)), key = the secret's UTF-8 bytes (secretEncoding utf8,
//                  the default) or the bytes it encodes in base64 (secretEncoding base64)
//   Authorization: HMAC-SHA256 <apiKey>:<signature>:<nonce>:<timestamp>
(() => {
  const apiKey = pm.variables.get('apiKey');
  const apiSecret = pm.variables.get('apiSecret');
  if (!apiKey || !apiSecret) throw new Error('Set apiKey and apiSecret in the environment to sign requests.');
  const encoding = pm.variables.get('secretEncoding') || 'utf8';
  if (encoding !== 'utf8' && encoding !== 'base64') throw new Error('secretEncoding must be utf8 or base64.');

  // The absolute URL as it goes on the wire: {{variables}} resolved, :path variables filled in, enabled query only.
  const { Url } = require('postman-collection');
  const url = new Url(pm.variables.replaceIn(pm.request.url.toString()));
  for (const variable of pm.request.url.variables.all())
    url.variables.upsert({ key: variable.key, value: pm.variables.replaceIn(String(variable.value)) });
  const absoluteUrl = `${url.protocol || 'http'}://${url.getRemote()}${url.getPathWithQuery()}`;

  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = CryptoJS.lib.WordArray.random(16).toString(CryptoJS.enc.Hex);
  const stringToSign = apiKey + pm.request.method.toUpperCase() + absoluteUrl.toLowerCase() + timestamp + nonce;
  const key = encoding === 'base64' ? CryptoJS.enc.Base64.parse(apiSecret) : CryptoJS.enc.Utf8.parse(apiSecret);
  const signature = CryptoJS.enc.Base64.stringify(CryptoJS.HmacSHA256(CryptoJS.enc.Utf8.parse(stringToSign), key));
  pm.request.headers.upsert({
    key: 'Authorization',
    value: `HMAC-SHA256 ${apiKey}:${signature}:${nonce}:${timestamp}`,
  });
})();
