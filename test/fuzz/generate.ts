/**
 * Inputs for the fuzz run, generated from the spec's own JSON Schemas (the raw YAML, not our generated zod), so that
 * a mistake in our schemas cannot hide itself: a value that the spec allows, or one that breaks it in one place.
 * Deterministic for a seed. Strings follow the spec's formats and patterns; a pattern this file does not know fails
 * the run, so that a new one in the spec is noticed rather than fuzzed with nonsense.
 * @module
 */
import { valueAt } from '../../contract/src/json-pointer';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON Schema of the spec: the keywords the generator reads; any other stays opaque. */
export interface Schema {
  $ref?: string;
  const?: Json;
  enum?: Json[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  type?: string | string[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** A small seeded PRNG (mulberry32). */
export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state += 0x6d2b79f5;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
    return s;
  }
  uuid(): string {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${this.pick(['8', '9', 'a', 'b'])}${this.hex(3)}-${this.hex(12)}`;
  }
}

/** What the generator knows of the running mock: ids by the name of the field or parameter that holds them. */
export interface Pools {
  /** Known ids by name (`userId`, `cardId`, ...); a valid id is one of these most of the time, else a random UUID. */
  ids: Record<string, string[]>;
  /** A real RSA public key as base64url DER, for `publicKey`. */
  publicKey: string;
}

const TEXT = '^[^\\x00-\\x1F\\x7F]*$';
const TEXT_CHARS = ['a', 'Z', 'é', 'ß', ' ', '-', "'", '漢', '🚀', '"', '\\', '/', '<', '%'];

/** Generates valid and invalid values of the spec's schemas. */
export class Generator {
  constructor(
    readonly doc: unknown,
    readonly random: Random,
    readonly pools: Pools,
  ) {}

  /** `node` (a schema, or another node of the spec such as a parameter) with its `$ref`s followed. */
  resolve<T extends { $ref?: string }>(node: T): T {
    let s = node;
    for (let i = 0; s && typeof s.$ref === 'string' && i < 20; i++) {
      s = valueAt(this.doc, s.$ref.slice(1)) as T;
    }
    return s;
  }

  /** A value the schema allows. `name` is the field or parameter it is for (to pick known ids and values). */
  valid(schema: Schema, name = ''): Json {
    const r = this.random;
    const s = this.resolve(schema);
    if ('const' in s) return s.const as Json;
    if (Array.isArray(s.enum)) return r.pick(s.enum);
    if (s.anyOf || s.oneOf) return this.valid(r.pick((s.anyOf ?? s.oneOf) as Schema[]), name);
    if (s.allOf) return Object.assign({}, ...(s.allOf as Schema[]).map((part) => this.valid(part, name)));
    const type = Array.isArray(s.type)
      ? r.pick((s.type as string[]).filter((t) => t !== 'null').concat(s.type.includes('null') ? ['null'] : []))
      : s.type;
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return r.chance(0.5);
      case 'integer':
      case 'number': {
        const min = s.minimum ?? 0;
        const max = Math.min(
          s.maximum ?? 1_000_000,
          name === 'amount' || name === 'additionalBudget' ? 200_000 : Number.MAX_SAFE_INTEGER,
        );
        return r.chance(0.1) ? max : r.chance(0.1) ? min : r.int(min, Math.min(max, min + 100_000));
      }
      case 'string':
        return this.validString(s, name);
      case 'array': {
        const n = r.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3));
        return Array.from({ length: n }, () => this.valid(s.items ?? {}, name));
      }
      default: {
        // 'object', and a schema that names no type.
        const out: { [key: string]: Json } = {};
        const required: string[] = s.required ?? [];
        for (const [key, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
          if (required.includes(key) || r.chance(0.5)) out[key] = this.valid(prop, key);
        }
        return out;
      }
    }
  }

  validString(s: Schema, name: string): string {
    const r = this.random;
    const max: number = s.maxLength ?? 64;
    const min: number = s.minLength ?? 0;
    const known = this.pools.ids[name];
    if (s.format === 'uuid') return known?.length && r.chance(0.8) ? r.pick(known) : r.uuid();
    if (s.format === 'date-time') {
      const at = Date.now() + r.int(-2, 60) * 86_400_000;
      const text = new Date(at - (at % 1000)).toISOString();
      return r.chance(0.3) ? text.replace('.000Z', '+02:00') : text;
    }
    if (s.format === 'date') return `19${r.int(50, 99)}-0${r.int(1, 9)}-1${r.int(0, 9)}`;
    if (s.format === 'email') return `fuzz.${r.hex(8)}@example.org`;
    if (s.format === 'uri') return `https://example.org/${r.hex(6)}`;
    if (name === 'publicKey') return this.pools.publicKey;
    if (name === 'type' && this.pools.ids.type?.length && s.pattern === '^[A-Z0-9]{2,10}$')
      return r.chance(0.8) ? r.pick(this.pools.ids.type) : 'DOGE';
    const byPattern: Record<string, () => string> = {
      [TEXT]: () =>
        Array.from({ length: r.int(Math.max(min, 1), Math.min(max, 12)) }, () => r.pick(TEXT_CHARS))
          .join('')
          .slice(0, max),
      '^\\+[1-9][0-9]{6,14}$': () => `+44${r.int(1000000, 99999999)}`,
      '^[A-Z]{2}$': () => r.pick(['GB', 'DE', 'FR', 'PL']),
      '^[A-Z]{3}$': () => (r.chance(0.9) ? 'EUR' : 'USD'),
      '^[0-9]{6}$': () => String(r.int(0, 999_999)).padStart(6, '0'),
      '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?$': () =>
        r.pick(['0', '1', '12.5', '100', '0.0001', '999999999999999999.123456789012345678']),
      '^[A-Z0-9]{2,10}$': () => r.pick(['USDC', 'BTC', 'ETH', 'DOGE']),
      '^[A-Z0-9_]{2,20}$': () => r.pick(['ETHEREUM', 'POLYGON', 'BITCOIN', 'SOLANA']),
      '^[\\x21-\\x7E]+$': () => r.uuid(),
      '^[A-Za-z0-9_.-]+$': () => `${r.hex(12)}.${r.hex(6)}`,
      '^[A-Za-z0-9_-]+$': () => this.pools.publicKey,
      '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$': () =>
        new Date().toISOString(),
    };
    const make = s.pattern === undefined ? byPattern[TEXT] : byPattern[s.pattern];
    if (!make)
      throw new Error(
        `The fuzz generator does not know the pattern ${s.pattern} (field ${name}); add it to test/fuzz/generate.ts.`,
      );
    const text = make();
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(text))
      throw new Error(`generated ${JSON.stringify(text)} for ${s.pattern}`);
    return text.length < min ? text.padEnd(min, 'a') : text;
  }

  /** A value that breaks the schema at one place (a missing or unknown field, a wrong type, a bound crossed). */
  invalid(schema: Schema, name = ''): Json {
    const r = this.random;
    const s = this.resolve(schema);
    if (s.anyOf || s.oneOf) {
      // Broken in a way no variant accepts: a type none of them has.
      return r.pick([{ unexpected: true }, -1.5, 'x'.repeat(300)]);
    }
    const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
    if (Array.isArray(s.enum) || 'const' in s) return r.pick(['NOT_IN_THE_ENUM', 42, '']);
    switch (type) {
      case 'integer':
      case 'number':
        return r.pick<Json>(
          [(s.maximum ?? 2 ** 53) + 1, (s.minimum ?? -(2 ** 53)) - 1, 1.5, '12', null, true].filter(
            (v) => v !== undefined,
          ) as Json[],
        );
      case 'string':
        return r.pick<Json>([
          'x'.repeat((s.maxLength ?? 1000) + 1),
          12,
          null,
          ...(s.pattern || s.format ? ['!! not it !!', ''] : []),
          ...(s.format === 'date-time' ? ['2026-11-22t00:00:00z', '2026-13-40T99:00:00Z'] : []),
          ...(s.format === 'uuid' ? ['not-a-uuid', `${r.uuid()}0`] : []),
        ]);
      case 'boolean':
        return r.pick<Json>(['true', 1, null]);
      case 'array': {
        const items = Array.from({ length: (s.maxItems ?? 3) + 1 }, () => this.valid(s.items ?? {}, name));
        return r.pick<Json>([items, 'not a list', [this.invalid(s.items ?? {}, name)]]);
      }
      default: {
        const value = this.valid(s, name) as { [key: string]: Json };
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['not an object'];
        const required: string[] = s.required ?? [];
        const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
        const choice = r.int(0, 3);
        if (choice === 0 && required.length) delete value[r.pick(required)];
        else if (choice === 1) value[`unknown_${r.hex(4)}`] = 'x';
        else if (choice === 2 && props.length) {
          const [key, prop] = r.pick(props);
          value[key] = this.invalid(prop, key);
        } else return r.pick<Json>(['a string', 7, null, []]);
        return value;
      }
    }
  }
}
