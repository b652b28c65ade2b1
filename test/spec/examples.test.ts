/**
 * The spec's examples as other tools read them: every example (schemas, parameters, headers, request and response
 * bodies) is valid against its own schema by Ajv, the `publicKey` example is a real RSA key of at least 2048 bits
 * (read by node:crypto), and every operation sent with nothing but the spec's examples is accepted by the mock:
 * not refused as invalid (400) or unsigned (401). Ids in examples name nothing in the mock, so 404 is a fine answer.
 * A body is the media type's example or, as Prism and Portman read it, the body schema's first `examples` entry.
 */
import { createPublicKey } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { escapeToken, valueAt } from '../../contract/src/json-pointer';
import { loadSpec, specOperations } from '../helpers/spec';
import { BASE_URL, mockHarness, send } from '../mock/helpers';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

type Node = Record<string, unknown>;
const SPEC_ID = 'urn:card-issuing-sdk:spec-examples';
const spec = loadSpec() as unknown as Node;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Follows `{ $ref }` (a reference object, or an example given as a reference to a schema's example). */
function deref(node: unknown, pointer: string): { node: unknown; pointer: string } {
  while (isNode(node) && typeof node.$ref === 'string') {
    pointer = decodeURIComponent(node.$ref.slice(1));
    node = valueAt(spec, pointer);
  }
  return { node, pointer };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, SPEC_ID);
// Parameters and headers travel as text: coerced to the schema's type, as a server reads them.
const paramAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
addFormats(paramAjv);
paramAjv.addSchema(spec, SPEC_ID);
const ref = (pointer: string) => `${SPEC_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}`;

interface Example {
  where: string;
  schemaPointer: string;
  value: unknown;
  text: boolean;
}
const examples: Example[] = [];

/** Schema examples (the JSON Schema `examples` keyword), at every depth of a schema. */
function walkSchema(node: unknown, pointer: string): void {
  if (!isNode(node)) return;
  if (Array.isArray(node.examples))
    for (const [i, value] of node.examples.entries())
      examples.push({ where: `${pointer}/examples/${i}`, schemaPointer: pointer, value, text: false });
  if (isNode(node.properties))
    for (const name of Object.keys(node.properties))
      walkSchema(node.properties[name], `${pointer}/properties/${escapeToken(name)}`);
  for (const key of ['items', 'additionalProperties', 'not']) walkSchema(node[key], `${pointer}/${key}`);
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'])
    if (Array.isArray(node[key]))
      for (const [i, s] of (node[key] as unknown[]).entries()) walkSchema(s, `${pointer}/${key}/${i}`);
}
/** A parameter's or header's `example`/`examples`, against its schema. */
function walkParameter(node: unknown, pointer: string): void {
  const { node: p, pointer: at } = deref(node, pointer);
  if (!isNode(p) || !isNode(p.schema)) return;
  if (p.example !== undefined)
    examples.push({ where: `${at}/example`, schemaPointer: `${at}/schema`, value: p.example, text: true });
  if (isNode(p.examples))
    for (const [name, e] of Object.entries(p.examples))
      examples.push({
        where: `${at}/examples/${name}`,
        schemaPointer: `${at}/schema`,
        value: (deref(e, '').node as Node).value,
        text: true,
      });
}
/** A request or response body's `example`/`examples` per media type, against the media type's schema. */
function walkContent(node: unknown, pointer: string): void {
  const { node: owner, pointer: at } = deref(node, pointer);
  if (!isNode(owner)) return;
  if (isNode(owner.headers))
    for (const name of Object.keys(owner.headers))
      walkParameter(owner.headers[name], `${at}/headers/${escapeToken(name)}`);
  if (!isNode(owner.content)) return;
  for (const [type, media] of Object.entries(owner.content)) {
    if (!isNode(media) || media.schema === undefined) continue;
    const mediaPointer = `${at}/content/${escapeToken(type)}`;
    if (media.example !== undefined)
      examples.push({
        where: `${mediaPointer}/example`,
        schemaPointer: `${mediaPointer}/schema`,
        value: deref(media.example, '').node,
        text: false,
      });
    if (isNode(media.examples)) {
      for (const [name, e] of Object.entries(media.examples)) {
        examples.push({
          where: `${mediaPointer}/examples/${name}`,
          schemaPointer: `${mediaPointer}/schema`,
          value: (deref(e, '').node as Node).value,
          text: false,
        });
      }
    }
  }
}

const components = spec.components as Node;
for (const [name, schema] of Object.entries(components.schemas as Node))
  walkSchema(schema, `/components/schemas/${escapeToken(name)}`);
for (const name of Object.keys(components.parameters as Node))
  walkParameter((components.parameters as Node)[name], `/components/parameters/${escapeToken(name)}`);
for (const name of Object.keys((components.headers as Node) ?? {}))
  walkParameter((components.headers as Node)[name], `/components/headers/${escapeToken(name)}`);
for (const [path, item] of Object.entries(spec.paths as Node)) {
  for (const [method, op] of Object.entries(item as Node)) {
    if (!isNode(op) || !isNode(op.responses)) continue;
    const at = `/paths/${escapeToken(path)}/${method}`;
    if (Array.isArray(op.parameters))
      for (const [i, p] of op.parameters.entries()) walkParameter(p, `${at}/parameters/${i}`);
    if (op.requestBody !== undefined) walkContent(op.requestBody, `${at}/requestBody`);
    for (const status of Object.keys(op.responses)) walkContent(op.responses[status], `${at}/responses/${status}`);
  }
}

describe('every example in the spec is valid against its schema (Ajv, JSON Schema 2020-12)', () => {
  it('finds examples everywhere tools read them', () => {
    const kinds = new Set(examples.map((e) => e.where.split('/')[1]));
    expect(kinds).toEqual(new Set(['components', 'paths']));
    expect(examples.length).toBeGreaterThan(150);
  });

  it('each example validates', () => {
    // One validator per schema (several examples share one; compiling is most of this test's time).
    const validators = new Map<string, ValidateFunction>();
    const validatorOf = (e: Example) => {
      const key = `${e.text}${e.schemaPointer}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = e.text
          ? paramAjv.compile({ type: 'object', properties: { value: { $ref: ref(e.schemaPointer) } } })
          : ajv.compile({ $ref: ref(e.schemaPointer) });
        validators.set(key, validate);
      }
      return validate;
    };
    const invalid = examples.flatMap((e) => {
      const validate = validatorOf(e);
      const ok = validate(e.text ? { value: typeof e.value === 'string' ? e.value : String(e.value) } : e.value);
      return ok ? [] : [`${e.where}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });

  it('the publicKey example is the base64url DER SubjectPublicKeyInfo of an RSA key of 2048 bits or more', () => {
    const example = (components.parameters as Node).PublicKeyQuery as Node;
    const key = createPublicKey({
      key: Buffer.from(String(example.example), 'base64url'),
      format: 'der',
      type: 'spki',
    });
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
  });
});

describe("every operation sent with only the spec's examples is accepted by the mock", () => {
  const h = mockHarness();

  /** The request a tool builds from the examples: path and required query parameters, the body example. */
  function exampleRequest(path: string, method: string, op: Node): { url: string; body?: unknown; missing: string[] } {
    const params = [
      ...((((spec.paths as Node)[path] as Node).parameters as unknown[]) ?? []),
      ...((op.parameters as unknown[]) ?? []),
    ].map((p) => deref(p, '').node as Node);
    const missing: string[] = [];
    let url = path;
    const query = new URLSearchParams();
    for (const p of params) {
      const value = p.example ?? ((p.schema as Node | undefined)?.examples as unknown[] | undefined)?.[0];
      if (p.in === 'path') {
        if (value === undefined) missing.push(`${method} ${path} path.${String(p.name)}`);
        url = url.replace(`{${String(p.name)}}`, encodeURIComponent(String(value)));
      } else if (p.in === 'query' && p.required === true) {
        if (value === undefined) missing.push(`${method} ${path} query.${String(p.name)}`);
        else query.set(String(p.name), String(value));
      }
    }
    let body: unknown;
    if (op.requestBody !== undefined) {
      const media = ((deref(op.requestBody, '').node as Node).content as Node)['application/json'] as Node;
      // As Prism and Portman do: the media type's example, else the body schema's first `examples` entry.
      body =
        media.example === undefined
          ? ((deref(media.schema, '').node as Node).examples as unknown[] | undefined)?.[0]
          : deref(media.example, '').node;
      if (body === undefined && (deref(op.requestBody, '').node as Node).required === true)
        missing.push(`${method} ${path} body`);
    }
    return { url: `${url}${query.size > 0 ? `?${query}` : ''}`, body, missing };
  }

  it('every path parameter, required query parameter and required body has an example', () => {
    const missing = specOperations().flatMap(
      (o) => exampleRequest(o.path, o.method.toLowerCase(), o.operation as unknown as Node).missing,
    );
    expect(missing).toEqual([]);
  });

  it('none is refused as invalid (400) or unsigned (401)', async () => {
    h.start();
    const refused: string[] = [];
    for (const o of specOperations()) {
      const { url, body } = exampleRequest(o.path, o.method.toLowerCase(), o.operation as unknown as Node);
      const response = await send(o.method, `${BASE_URL}${url}`, body === undefined ? {} : { body: body as object });
      if (response.status === 400 || response.status === 401)
        refused.push(`${o.operationId} ${o.method} ${url}: ${response.status} ${await response.text()}`);
    }
    expect(refused).toEqual([]);
  });
});
