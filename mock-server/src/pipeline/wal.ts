/**
 * The write-ahead log's seam: every change to the state as data (a command), and where the commands go to be made
 * durable (the standalone server's state file). pipeline/commands.ts runs the commands, live and in a replay.
 * @module
 */

/** An API request's change: its operation with the validated input, at the wall-clock instant it ran. */
export interface ApiCommand {
  kind: 'api';
  apiKey: string;
  wall: number;
  operationId: string;
  input: { path: unknown; query: unknown; body: unknown };
  idempotency: { key: string; print: string } | undefined;
  requestId: string;
  instance: string;
}

/** Due transitions that a read ran (a GET, or a control read) at an instant. */
export interface SettleCommand {
  kind: 'settle';
  apiKey: string;
  wall: number;
}

/** A control action of one tenant (`approvals.cancel`, `clock.advance`, ...) with its arguments. */
export interface ControlCommand {
  kind: 'control';
  apiKey: string;
  wall: number;
  action: string;
  args: unknown[];
}

/** A change of the whole mock: a tenant added, or every tenant replaced. */
export interface MockCommand {
  kind: 'mock';
  wall: number;
  action: 'addCredentials' | 'importState';
  args: unknown[];
}

/** Any change. */
export type Command = ApiCommand | SettleCommand | ControlCommand | MockCommand;

/**
 * Where state changes are made durable (the standalone server's `--state-file`): `record` is called in the same
 * turn as the change with the command that made it and returns a ticket; the reply waits for `durable(ticket)`.
 */
export interface WriteAheadLog {
  record(command: Command): number;
  /** The ticket of the last change made so far (the state file marks changes as they happen). */
  head(): number;
  /** Resolves once every change up to `ticket` is on disk; rejects when it could not be written. */
  durable(ticket: number): Promise<void>;
}
