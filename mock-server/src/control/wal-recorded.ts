/**
 * The control API, recorded in the write-ahead log: every action that changes a tenant's state (what `runtime.changed()` reports) is
 * recorded as a command with its name and arguments, so that a state file's write-ahead log can replay it at start.
 * Actions that change nothing (faults, plain reads) are not recorded.
 * @module
 */
import { atWallClock } from '../clock';
import { commandWall, recordCommand } from '../pipeline/commands';
import type { MockRuntime } from '../pipeline/runtime';
import type { TenantControl } from './tenant-control';

/** Actions that never touch the persisted state (faults and overrides are not part of a snapshot). */
const NOT_STATE = new Set([
  'faults.inject',
  'faults.list',
  'faults.remove',
  'faults.clear',
  'override',
  'overrides.list',
  'overrides.remove',
  'overrides.clear',
  'clock.now',
  'clock.frozen',
  'requests',
  'usage',
  'subscribe',
]);

/** The same control with every state-changing call logged (wall-clock pinned, so a replay sees the same instants). */
export function walRecorded(runtime: MockRuntime, control: TenantControl): TenantControl {
  return wrap(runtime, control, '', () => control.apiKey) as TenantControl;
}

function wrap(runtime: MockRuntime, target: object, prefix: string, apiKey: () => string): object {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(target)) {
    const descriptor = Object.getOwnPropertyDescriptor(target, name)!;
    const action = prefix + name;
    if (descriptor.get) {
      Object.defineProperty(out, name, { get: descriptor.get, enumerable: true });
    } else if (typeof descriptor.value === 'function') {
      const fn = descriptor.value as (...args: unknown[]) => unknown;
      const call = NOT_STATE.has(action) ? fn : recorded(runtime, fn, action, apiKey);
      // A callable with actions of its own (`authorizations(filter)`, `authorizations.capture(...)`) keeps them, journaled too.
      out[name] = Object.keys(fn).length > 0 ? Object.assign(call, wrap(runtime, fn, `${action}.`, apiKey)) : call;
    } else if (typeof descriptor.value === 'object' && descriptor.value !== null) {
      out[name] = wrap(runtime, descriptor.value as object, `${action}.`, apiKey);
    } else {
      out[name] = descriptor.value;
    }
  }
  return out;
}

/** `fn`, run at a pinned wall clock and recorded as a command when it changed the state. */
function recorded(
  runtime: MockRuntime,
  fn: (...args: unknown[]) => unknown,
  action: string,
  apiKey: () => string,
): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    const wall = commandWall();
    const key = apiKey();
    const before = runtime.changes;
    try {
      return atWallClock(wall, () => fn(...args));
    } finally {
      if (runtime.changes !== before) recordCommand(runtime, { kind: 'control', apiKey: key, wall, action, args });
    }
  };
}

/** Calls the control action `action` (a dotted name) with `args`: the replay of a {@link ControlCommand}. */
export function callAction(control: TenantControl, action: string, args: unknown[]): unknown {
  const path = action.split('.');
  let at: unknown = control;
  for (const part of path.slice(0, -1)) at = (at as Record<string, unknown>)[part];
  const fn = (at as Record<string, unknown>)[path[path.length - 1]!];
  if (typeof fn !== 'function') throw new Error(`No control action ${action}.`);
  return (fn as (...a: unknown[]) => unknown).apply(at, args);
}
