/**
 * Commands: every change to the state, as data. A request's synchronous core (idempotency, settle, domain, the
 * record of its reply) runs as a command, live and again when a state file's write-ahead log is replayed at start, so
 * that the log holds what happened (a few hundred bytes) instead of the state it made.
 * @module
 */
import { atWallClock, wallNow } from '../clock';
import { contextOf, type DomainContext } from '../domain/context';
import { settle } from '../domain/settle';
import type { Tenant } from '../store';
import { remember, replay } from './idempotency';
import { operationById, type Operation } from './operations';
import { asProblem, jsonReply, problemReply, type Reply } from './reply';
import type { MockRuntime } from './runtime';
import type { ApiCommand, Command } from './wal';

/** Tells the state file of a command when the runtime has one and is not replaying it. */
export function recordCommand(runtime: MockRuntime, command: Command): void {
  if (runtime.wal && !runtime.replaying) runtime.wal.record(command);
}

/** The ticket of the last change (0: none yet, or no state file); a reply waits until it is durable. */
export function ticketOf(runtime: MockRuntime): number {
  return runtime.wal?.head() ?? 0;
}

/**
 * Runs an API request's change (no await inside: the replay check, the domain call and the record of its reply
 * happen in one turn, so two concurrent requests with one key can never both run). Logs it when it may have
 * changed anything. Returns the reply.
 */
export function runApi(runtime: MockRuntime, tenant: Tenant, command: ApiCommand): Reply | Promise<Reply> {
  return atWallClock(command.wall, () => {
    const operation = operationById.get(command.operationId);
    if (!operation) throw new Error(`No operation ${command.operationId}.`);
    const state = tenant.state;
    const { idempotency, requestId } = command;
    const ctx = contextOf(state, runtime.observer.emitter(tenant.apiKey, requestId));
    if (operation.method === 'POST' && idempotency !== undefined) {
      const replayed = replay(state, idempotency.key, idempotency.print, ctx.now);
      if (replayed) return replayed;
    }
    const settled = settle(ctx);
    const reply = operationReply(operation, ctx, command);
    if (operation.method === 'POST' && idempotency !== undefined && !(reply instanceof Promise) && reply.status < 500) {
      remember(state, idempotency.key, idempotency.print, reply, ctx.now);
    }
    recordChange(runtime, tenant, command, operation.method === 'POST', settled);
    return reply;
  });
}

/** The domain's answer to the command as a reply; a domain error as problem+json. */
function operationReply(operation: Operation, ctx: DomainContext, command: ApiCommand): Reply | Promise<Reply> {
  const { requestId } = command;
  try {
    const result = operation.run(ctx, command.input);
    // Only the card-details GETs answer with a promise (encryption after the domain call): never a POST, so
    // nothing below waits for it and the turn stays whole.
    return result instanceof Promise
      ? result.then(
          (body) => jsonReply(body, operation.status, requestId),
          (error: unknown) => problemReply(asProblem(error), requestId, command.instance),
        )
      : jsonReply(result, operation.status, requestId);
  } catch (error) {
    return problemReply(asProblem(error), requestId, command.instance);
  }
}

/** Logs what may have changed: a POST as itself; a GET only when it settled due transitions. */
function recordChange(runtime: MockRuntime, tenant: Tenant, command: ApiCommand, post: boolean, settled: number): void {
  if (post) {
    recordCommand(runtime, command);
    runtime.changed();
  } else if (settled > 0) {
    recordCommand(runtime, { kind: 'settle', apiKey: tenant.apiKey, wall: command.wall });
    runtime.changed();
  }
}

/** Runs due transitions of a tenant at an instant (a replayed {@link SettleCommand}). */
export function runSettle(tenant: Tenant, wall: number): void {
  atWallClock(wall, () => settle(contextOf(tenant.state)));
}

/** The wall-clock instant a new command runs at. */
export function commandWall(): number {
  return wallNow();
}
