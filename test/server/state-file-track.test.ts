/**
 * The state file's change tracking (node/state-file/track.ts): a write anywhere marks the entry or part it is in,
 * reads hand out the same proxy for the same object, and the array scans the proxies run themselves (filter, map,
 * find, ...) give what the builtins give, with elements that still mark their writes.
 */
import { describe, expect, it } from 'vitest';
import { track, unwrap } from '../../mock-server/src/node/state-file/track.js';

interface State {
  users: Record<string, { id: string; tags: { name: string; on: boolean }[] }>;
  rng: number[];
  catalogue: { consents: { id: string; kind: string }[] };
}

const fresh = (): State => ({
  users: {
    a: { id: 'a', tags: [{ name: 'x', on: true }] },
    b: { id: 'b', tags: [] },
  },
  rng: [1, 2, 3, 4],
  catalogue: {
    consents: [
      { id: 'c1', kind: 'REGISTRATION' },
      { id: 'c2', kind: 'CARD' },
      { id: 'c3', kind: 'REGISTRATION' },
    ],
  },
});

const tracked = () => {
  const marks: [string, string | undefined][] = [];
  const { raw, proxy } = track(fresh(), (part, key) => marks.push([part, key]));
  return { raw, state: proxy, marks };
};

describe('state file tracking', () => {
  it('marks the entry a nested write is in, and a non-collection part whole', () => {
    const { raw, state, marks } = tracked();
    state.users.a!.tags[0]!.on = false;
    state.rng[0] = 9;
    state.users.c = { id: 'c', tags: [] };
    delete state.users.b;
    expect(marks).toEqual([
      ['users', 'a'],
      ['rng', undefined],
      ['users', 'c'],
      ['users', 'b'],
    ]);
    expect(raw.users.a!.tags[0]!.on).toBe(false);
    expect(raw.rng).toEqual([9, 2, 3, 4]);
    expect(Object.keys(raw.users)).toEqual(['a', 'c']);
  });

  it('hands out one proxy per object, and stores raw objects', () => {
    const { raw, state } = tracked();
    expect(state.users.a).toBe(state.users.a);
    state.users.d = state.users.a!;
    expect(raw.users.d).toBe(raw.users.a);
    expect(unwrap(state.users.a)).toBe(raw.users.a);
  });

  it('runs filter, map, find, findIndex, some, every and forEach as the builtins do', () => {
    const { raw, state } = tracked();
    const scans = (consents: State['catalogue']['consents']) => {
      const seen: [string, number][] = [];
      consents.forEach((c, i) => {
        seen.push([c.id, i]);
      });
      return {
        filter: consents.filter((c) => c.kind === 'REGISTRATION').map((c) => c.id),
        map: consents.map((c, i, all) => `${c.id}:${i}:${all.length}`),
        find: consents.find((c) => c.kind === 'CARD')?.id,
        findNone: consents.find((c) => c.kind === 'NONE'),
        findIndex: consents.findIndex((c) => c.id === 'c3'),
        findIndexNone: consents.findIndex((c) => c.id === 'c9'),
        some: consents.some((c) => c.kind === 'CARD'),
        someNone: consents.some((c) => c.kind === 'NONE'),
        every: consents.every((c) => c.id.startsWith('c')),
        everyNot: consents.every((c) => c.kind === 'CARD'),
        forEach: seen,
      };
    };
    expect(scans(state.catalogue.consents)).toEqual(scans(raw.catalogue.consents));
    const thisArg = { n: 0 };
    state.catalogue.consents.forEach(function (this: typeof thisArg) {
      this.n++;
    }, thisArg);
    expect(thisArg.n).toBe(3);
  });

  it('hands out the elements a scan finds wrapped: a write through them is marked', () => {
    const { raw, state, marks } = tracked();
    const [found] = state.users.a!.tags.filter((t) => t.on);
    expect(found).toBe(state.users.a!.tags[0]);
    found!.on = false;
    state.catalogue.consents.find((c) => c.id === 'c2')!.kind = 'OTHER';
    expect(marks).toEqual([
      ['users', 'a'],
      ['catalogue', 'consents'],
    ]);
    expect(raw.users.a!.tags[0]!.on).toBe(false);
    expect(raw.catalogue.consents[1]!.kind).toBe('OTHER');
  });
});
