/**
 * The Ajv side of the checker: the whole document registered under one `$id`, one compiled validator per schema
 * pointer (a second, coercing instance for parameters and headers, which travel as strings), and the way back from
 * a failing schema object to its pointer in the document.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { escapeToken } from '../json-pointer';
import { type Json, type OperationDef, refTo, SPEC_ID } from './spec-document';

// ajv-formats is CommonJS; under Node's ESM loader its default export may arrive wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

/** The compiled validators of one document. */
export interface SchemaValidators {
  /** The validator of the schema at `pointer`; `forParams` wraps it as `{ value }` and coerces strings. */
  validatorFor(pointer: string, forParams?: boolean): ValidateFunction;
  /** The pointer, inside the document, of a schema object Ajv reports as failing. */
  pointerOfSchema(schema: unknown): string | undefined;
}

/** Compiles every schema the operations use, so that a schema the spec gets wrong fails at once. */
export function compileSchemas(doc: Json, operations: OperationDef[]): SchemaValidators {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12 plus a few OpenAPI keywords (discriminator, xml, externalDocs);
  // strict: false lets those through as annotations. oneOf still decides Card against Draft on its own.
  // verbose: each error carries the schema object that failed, so a finding can name it by pointer (for an overlay).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false, verbose: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, SPEC_ID, undefined, false);
  // Parameters travel as strings: a second instance coerces them to the schema's type before validating.
  const paramAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true, logger: false });
  addFormats(paramAjv);
  paramAjv.addSchema(doc as object, SPEC_ID, undefined, false);

  // The pointer of every schema object of the document, by identity, made on the first finding that needs one.
  let pointers: Map<object, string> | undefined;
  const pointerOfSchema = (schema: unknown): string | undefined => {
    pointers ??= pointersByIdentity(doc);
    return typeof schema === 'object' && schema !== null ? pointers.get(schema) : undefined;
  };

  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (pointer: string, forParams = false): ValidateFunction => {
    const key = `${forParams ? 'p' : 's'}${pointer}`;
    let fn = compiled.get(key);
    if (!fn) {
      const instance = forParams ? paramAjv : ajv;
      fn = forParams
        ? instance.compile({ type: 'object', properties: { value: { $ref: refTo(pointer) } } })
        : instance.compile({ $ref: refTo(pointer) });
      compiled.set(key, fn);
    }
    return fn;
  };
  // Compile everything up front so that a schema the spec gets wrong fails at once, not in the middle of a run.
  for (const op of operations) for (const [pointer, forParams] of schemasOf(op)) validatorFor(pointer, forParams);
  return { validatorFor, pointerOfSchema };
}

/** Every object of the document by identity, with its JSON Pointer (the first place it appears). */
function pointersByIdentity(doc: Json): Map<object, string> {
  const pointers = new Map<object, string>();
  const walk = (node: Json, at: string): void => {
    if (node === null || typeof node !== 'object') return;
    if (!pointers.has(node)) pointers.set(node, at);
    if (Array.isArray(node)) for (const [i, child] of node.entries()) walk(child, `${at}/${i}`);
    else for (const [key, child] of Object.entries(node)) walk(child, `${at}/${escapeToken(key)}`);
  };
  walk(doc, '');
  return pointers;
}

/** The schemas of an operation, each with whether it is read from a string (parameters and headers). */
function* schemasOf(op: OperationDef): Generator<[pointer: string, forParams: boolean]> {
  for (const p of op.parameters) if (p.schemaPointer) yield [p.schemaPointer, true];
  for (const media of Object.values(op.requestBody?.content ?? {}))
    if (media.schemaPointer) yield [media.schemaPointer, false];
  for (const response of op.responses.values()) yield* responseSchemasOf(response);
}

/** Media types or headers by name, each with the pointer of its schema if it has one. */
type SchemaPointers = Record<string, { schemaPointer: string | null }>;

/** The schemas of one response: its bodies (read as JSON) and its headers (read from a string). */
function* responseSchemasOf(response: {
  content: SchemaPointers;
  headers: SchemaPointers;
}): Generator<[pointer: string, forParams: boolean]> {
  for (const media of Object.values(response.content)) if (media.schemaPointer) yield [media.schemaPointer, false];
  for (const header of Object.values(response.headers)) if (header.schemaPointer) yield [header.schemaPointer, true];
}
