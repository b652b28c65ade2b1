/**
 * A small deterministic pseudo-random generator (sfc32) whose whole state is four 32-bit numbers, so that it
 * can live inside a tenant's JSON snapshot: restoring a snapshot restores the ids that come next as well.
 * Not for secrets; the mock's ids and codes only need to be repeatable for a seed.
 * @module
 */

/** The serialisable state of a {@link Prng}. */
export type PrngState = [number, number, number, number];

/** Hashes any text to a {@link PrngState} (cyrb128), so that `seed` may be a number or any string. */
export function seedState(text: string): PrngState {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A generator reading and advancing a {@link PrngState} in place (the state object is the tenant's). */
export class Prng {
  constructor(readonly state: PrngState) {}

  /** The next 32-bit unsigned integer. */
  nextUint32(): number {
    return this.#draw(1)[0]!;
  }

  /**
   * The next `count` 32-bit unsigned integers. The state is read once and written once per call, not per number:
   * with a state file it is a tracking proxy, where every element read or written is a trap.
   */
  #draw(count: number): number[] {
    const s = this.state;
    let a = s[0] >>> 0;
    let b = s[1] >>> 0;
    let c = s[2] >>> 0;
    let d = s[3] >>> 0;
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const t = (((a + b) >>> 0) + d) >>> 0;
      d = (d + 1) >>> 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) >>> 0;
      c = ((c << 21) | (c >>> 11)) >>> 0;
      c = (c + t) >>> 0;
      out.push(t);
    }
    s[0] = a >>> 0;
    s[1] = b;
    s[2] = c;
    s[3] = d;
    return out;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return toRange(this.nextUint32(), n);
  }

  /** `count` decimal digits. */
  digits(count: number): string {
    let out = '';
    for (const n of this.#draw(count)) out += String(toRange(n, 10));
    return out;
  }

  /** `count` characters of `alphabet`. */
  chars(count: number, alphabet: string): string {
    // One draw of the state, and the string made once from the codes (a string per character before: request ids).
    const codes = this.#draw(count);
    for (let i = 0; i < count; i++) codes[i] = alphabet.charCodeAt(toRange(codes[i]!, alphabet.length));
    return String.fromCharCode(...codes);
  }

  /** A UUID v4 (version and variant bits set, so `z.uuid()` accepts it). */
  uuid(): string {
    const bytes: number[] = [];
    for (const n of this.#draw(4)) {
      bytes.push(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
    }
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

/** A 32-bit unsigned integer mapped onto [0, n). */
function toRange(uint32: number, n: number): number {
  return Math.floor((uint32 / 4294967296) * n);
}
