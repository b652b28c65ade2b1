/**
 * The state-table engine (machines/machine.ts) on a table of its own: the row a trigger finds (by status, by
 * condition, creation rows apart), the 409 a refused trigger gets (the table's first matching refusal, else
 * INVALID_TRANSITION, naming the status and the operation), a row that leaves the status as it is, and a new
 * instance's initial status.
 */
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../mock-server/src/index';
import { findTransition, initialStatus, transition, UNCHANGED, type Machine } from '../../mock-server/src/machines';

type Status = 'OPEN' | 'SHUT' | 'GONE';
type Trigger = 'make' | 'spawn' | 'shut' | 'open' | 'poke' | 'drop';

const door: Machine<Status, Trigger, { wide: boolean }> = {
  name: 'door',
  rows: [
    { from: null, trigger: 'make', when: (c) => c.wide, to: 'OPEN' },
    { from: null, trigger: 'make', when: (c) => !c.wide, to: 'SHUT' },
    { from: null, trigger: 'spawn', to: UNCHANGED },
    { from: ['OPEN'], trigger: 'shut', to: 'SHUT' },
    { from: ['SHUT'], trigger: 'open', when: (c) => c.wide, to: 'OPEN' },
    { from: ['OPEN', 'SHUT'], trigger: 'poke', to: UNCHANGED },
    { from: ['OPEN', 'SHUT'], trigger: 'drop', to: 'GONE' },
  ],
  refusals: [
    { trigger: 'open', from: ['OPEN'], code: 'CARD_NOT_ACTIVATABLE' },
    { trigger: 'open', from: '*', code: 'DRAFT_NOT_CHARGED' },
  ],
};

function refusal(action: () => unknown): ProblemError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    return error as ProblemError;
  }
  throw new Error('expected a ProblemError');
}

describe('a state table finds the row of a trigger', () => {
  it('by the current status, the trigger and the condition; a creation row only for a new instance', () => {
    expect(findTransition(door, 'OPEN', 'shut')?.to).toBe('SHUT');
    expect(findTransition(door, 'SHUT', 'shut')).toBeUndefined();
    expect(findTransition(door, 'SHUT', 'open', { wide: true })?.to).toBe('OPEN');
    expect(findTransition(door, 'SHUT', 'open', { wide: false })).toBeUndefined();
    expect(findTransition(door, null, 'make', { wide: false })?.to).toBe('SHUT');
    expect(findTransition(door, null, 'shut')).toBeUndefined();
    expect(findTransition(door, 'OPEN', 'make', { wide: true })).toBeUndefined();
  });

  it('moves to the row’s status, or keeps the current one on an unchanged row', () => {
    expect(transition(door, 'OPEN', 'shut')).toBe('SHUT');
    expect(transition(door, 'SHUT', 'poke')).toBe('SHUT');
    expect(transition(door, 'OPEN', 'drop')).toBe('GONE');
    expect(transition(door, 'SHUT', 'open', { ctx: { wide: true } })).toBe('OPEN');
  });
});

describe('a trigger the table has no row for is a 409', () => {
  it('INVALID_TRANSITION naming the status and the trigger, when no refusal matches', () => {
    const error = refusal(() => transition(door, 'SHUT', 'shut'));
    expect(error).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
    expect(error.detail).toBe('shut is not allowed while the door is SHUT.');
    expect(error.extras).toEqual({ currentStatus: 'SHUT', operation: 'shut' });
  });

  it('names the operation when the caller gives one', () => {
    const error = refusal(() => transition(door, 'GONE', 'poke', { operation: 'pokeDoor' }));
    expect(error.detail).toBe('pokeDoor is not allowed while the door is GONE.');
    expect(error.extras).toEqual({ currentStatus: 'GONE', operation: 'pokeDoor' });
  });

  it('the first refusal that matches the trigger and the status gives the code; "*" matches every status', () => {
    expect(refusal(() => transition(door, 'OPEN', 'open')).code).toBe('CARD_NOT_ACTIVATABLE');
    expect(refusal(() => transition(door, 'SHUT', 'open', { ctx: { wide: false } })).code).toBe('DRAFT_NOT_CHARGED');
    expect(refusal(() => transition(door, 'GONE', 'open')).code).toBe('DRAFT_NOT_CHARGED');
    expect(refusal(() => transition({ ...door, refusals: undefined }, 'GONE', 'open')).code).toBe('INVALID_TRANSITION');
  });
});

describe('a new instance enters the status of its creation row', () => {
  it('chosen by the condition', () => {
    expect(initialStatus(door, 'make', { wide: true })).toBe('OPEN');
    expect(initialStatus(door, 'make', { wide: false })).toBe('SHUT');
  });

  it('a table without a creation row for the trigger, or with one that keeps a status, is a programming error', () => {
    expect(() => initialStatus(door, 'shut')).toThrow(new Error('The door machine has no creation row for shut.'));
    expect(() => initialStatus(door, 'spawn')).toThrow(new Error('The door machine has no creation row for spawn.'));
    expect(() => initialStatus(door, 'spawn')).not.toThrow(ProblemError);
  });
});
