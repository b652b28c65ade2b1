// Builds the Postman collection and the mock's environment that card-issuing-contract ships (dist/postman/), from
// the spec, with Postman's own converter (openapi-to-postmanv2), as a Postman user would import it; then adds what
// the converter cannot know: the collection-level pre-request script that signs every request (pre-request.js), and
// tests that each answer accepted the signature and has a status the spec documents for the operation.
// Run by the package's build (`npm run build:js`); fails when the converter puts any auth on a request, which
// would overwrite the signature (the spec declares the scheme as `type: http`, `scheme: HMAC-SHA256` for that).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import Converter from 'openapi-to-postmanv2';
import { parse } from 'yaml';

const here = (path) => new URL(path, import.meta.url);
const spec = parse(readFileSync(here('../../spec/openapi.yaml'), 'utf8'));
const convert = promisify(Converter.convertV2);
const result = await convert({ type: 'json', data: spec }, { folderStrategy: 'Tags', parametersResolution: 'Example' });
if (!result.result) throw new Error(`openapi-to-postmanv2 could not convert the spec: ${result.reason}`);
const collection = result.output[0].data;

const requests = [];
const walk = (items) => {
  for (const item of items) item.item ? walk(item.item) : requests.push(item);
};
walk(collection.item);
const authed = [collection, ...requests.map((r) => r.request)].filter((x) => x.auth && x.auth.type !== 'noauth');
if (authed.length > 0)
  throw new Error(`the converter put auth on ${authed.length} request(s): it would overwrite the signature`);

/** The statuses the spec documents for a method and a converted path (`:userId` segments). */
function documented(method, segments) {
  for (const [template, item] of Object.entries(spec.paths)) {
    const parts = template.split('/').slice(1);
    const same =
      parts.length === segments.length &&
      parts.every((part, i) => part === segments[i] || (part.startsWith('{') && segments[i].startsWith(':')));
    if (same && item[method.toLowerCase()]) return Object.keys(item[method.toLowerCase()].responses);
  }
  throw new Error(`no operation of the spec for ${method} /${segments.join('/')}`);
}

const script = (lines) => ({ type: 'text/javascript', exec: lines });
for (const item of requests) {
  const statuses = documented(item.request.method, item.request.url.path);
  // The success examples only: the converter's one per documented status make the file ten times larger.
  item.response = (item.response ?? []).filter((example) => example.code >= 200 && example.code < 300);
  item.event = [
    {
      listen: 'test',
      script: script([
        `const documented = ${JSON.stringify(statuses)};`,
        "pm.test('the status is one the spec documents for the operation', () => {",
        '  const code = String(pm.response.code);',
        '  pm.expect(documented.includes(code) || documented.includes(code[0] + "XX"), code).to.be.true;',
        '});',
      ]),
    },
  ];
}
collection.info.name = 'card-issuing API (signed)';
collection.info.description = {
  content:
    'Every request of the card-issuing API, generated from the spec by card-issuing-contract. The collection signs each request (HMACSHA256 Authentication, the five published parts) in its pre-request script, with apiKey, apiSecret and secretEncoding (utf8 or base64) from the environment; card-issuing-mock.postman_environment.json holds those of the standalone mock (npx card-issuing-mock).',
  type: 'text/plain',
};
collection.event = [
  { listen: 'prerequest', script: script(readFileSync(here('./pre-request.js'), 'utf8').trimEnd().split('\n')) },
  {
    listen: 'test',
    script: script([
      "pm.test('the signature is accepted (not 401)', () => pm.expect(pm.response.code, pm.response.text()).to.not.equal(401));",
      "pm.test('no server error', () => pm.expect(pm.response.code, pm.response.text()).to.be.below(500));",
    ]),
  },
];

const environment = {
  name: 'card-issuing-mock (npx card-issuing-mock)',
  values: [
    { key: 'baseUrl', value: 'http://127.0.0.1:4010', type: 'default', enabled: true },
    { key: 'apiKey', value: 'test_key', type: 'default', enabled: true },
    { key: 'apiSecret', value: 'test_secret', type: 'secret', enabled: true },
    { key: 'secretEncoding', value: 'utf8', type: 'default', enabled: true },
  ],
};
mkdirSync(here('../dist/postman/'), { recursive: true });
writeFileSync(here('../dist/postman/card-issuing.postman_collection.json'), `${JSON.stringify(collection, null, 2)}\n`);
writeFileSync(
  here('../dist/postman/card-issuing-mock.postman_environment.json'),
  `${JSON.stringify(environment, null, 2)}\n`,
);
