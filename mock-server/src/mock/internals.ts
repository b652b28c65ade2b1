/**
 * What the standalone server (and the benchmarks) need of a mock beyond its public surface: its runtime and
 * pipeline, the replay of a logged command, and the write-ahead log's seam. Reached through this module, never
 * through a package export.
 * @module
 */
import type { Pipeline } from '../pipeline';
import type { MockRuntime } from '../pipeline/runtime';
import type { Command, WriteAheadLog } from '../pipeline/wal';
import type { StoredState } from '../store';
import type { CardIssuingMock, ServerState } from './options';

/** What the standalone server needs beyond the public surface: the pipeline itself, and the write-ahead log's seam. */
export interface MockInternals {
  runtime: MockRuntime;
  pipeline: Pipeline;
  /** Replays one logged command of an older state file (converted at start); throws when it fails now. */
  replay(command: Command): void;
  /** The whole state with each tenant's fields beyond its state (faults), as the state file keeps it. */
  storedState(): StoredState;
  /** Loads a state file's state: the tenants' states checked and migrated as `importState` does, then their fields. */
  load(stored: StoredState): void;
  /** Hangs a write-ahead log on the mock: from now on every change is recorded in it. */
  attachWal(wal: WriteAheadLog | undefined): void;
  /**
   * What `exportState()` gives, without copying the tenants' states: for serialising at once, in the same turn (a
   * state file's snapshot), never to keep or change: a snapshot of a large state then costs no copy.
   */
  liveState(): ServerState;
}

const internalsOf = new WeakMap<CardIssuingMock, MockInternals>();

/** Keeps the internals of a mock `createMock` made. */
export function setMockInternals(mock: CardIssuingMock, internals: MockInternals): void {
  internalsOf.set(mock, internals);
}

/** The internals of a mock made by `createMock`. */
export function mockInternals(mock: CardIssuingMock): MockInternals {
  const found = internalsOf.get(mock);
  if (!found) throw new TypeError('Not a mock made by createMock().');
  return found;
}
