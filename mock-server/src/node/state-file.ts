/**
 * The `--state-file`: the mock's whole state (every tenant and its credentials) as JSON, loaded at start and
 * saved on every change and on shutdown.
 *
 * Writes are atomic: the JSON goes to a temporary file in the same folder, is fsynced, then renamed over the
 * state file. A rename within one file system replaces the name in one step, so a reader (or a restart after the
 * server was killed mid-write) sees either the old file or the new one, never a half-written one.
 */
import { open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Marks a file as ours, so that a wrong `--state-file` is refused instead of overwritten. */
export const STATE_FILE_FORMAT = 'card-issuing-mock/state';
/** The envelope version this code writes and reads. */
export const STATE_FILE_VERSION = 1;

/** What the state file holds: the mock's exported state in a small envelope that names the format. */
export interface StateFileEnvelope<State> {
  format: typeof STATE_FILE_FORMAT;
  version: typeof STATE_FILE_VERSION;
  savedAt: string;
  state: State;
}

/** A state file that cannot be used. The message names the file and what is wrong; the file was not touched. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

const LEAVE_IT = 'The file was left untouched; fix or remove it, or pass another --state-file.';

/**
 * Reads and checks a state file. Resolves `undefined` when the file does not exist (a first start); rejects with a
 * {@link StateFileError} when it exists but cannot be read, is not JSON, or is not a state file of this mock.
 */
export async function readStateFile(file: string): Promise<{ state: unknown } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw new StateFileError(file, `Cannot read the state file ${file}: ${errnoText(error)}. ${LEAVE_IT}`);
  }
  if (text.trim() === '') throw new StateFileError(file, `The state file ${file} is empty. ${LEAVE_IT}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StateFileError(file, `The state file ${file} is not valid JSON (${reason}). ${LEAVE_IT}`);
  }
  if (!isRecord(parsed) || parsed.format !== STATE_FILE_FORMAT) {
    throw new StateFileError(
      file,
      `The state file ${file} is not a card-issuing-mock state file (it has no "format": "${STATE_FILE_FORMAT}"). ${LEAVE_IT}`,
    );
  }
  if (parsed.version !== STATE_FILE_VERSION) {
    throw new StateFileError(
      file,
      `The state file ${file} has version ${JSON.stringify(parsed.version)}; this mock reads version ${STATE_FILE_VERSION}. ${LEAVE_IT}`,
    );
  }
  if (!('state' in parsed) || !isRecord(parsed.state)) {
    throw new StateFileError(file, `The state file ${file} has no "state" object. ${LEAVE_IT}`);
  }
  return { state: parsed.state };
}

let tempCounter = 0;

/** Writes `state` to `file` atomically: temporary file in the same folder, fsync, rename, fsync of the folder. */
export async function writeStateFile(file: string, state: unknown, now: Date = new Date()): Promise<void> {
  const envelope: StateFileEnvelope<unknown> = {
    format: STATE_FILE_FORMAT,
    version: STATE_FILE_VERSION,
    savedAt: now.toISOString(),
    state,
  };
  const text = `${JSON.stringify(envelope, null, 2)}\n`;
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}-${++tempCounter}.tmp`);
  // 0o600: the file holds the tenants' api secrets (test secrets, but still nobody else's business).
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(dirname(file));
}

/**
 * Removes temporary files that a killed server left beside the state file (the rename never happened, so they
 * are stale by definition once their process is gone). Files of a live process are left alone.
 */
export async function removeStaleTempFiles(file: string): Promise<string[]> {
  const folder = dirname(file);
  const prefix = `.${basename(file)}.`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const match = /^(\d+)-\d+\.tmp$/.exec(name.slice(prefix.length));
    if (!match || isProcessAlive(Number(match[1]))) continue;
    await unlink(join(folder, name)).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}

/** Options of a {@link StateFileSaver}. */
export interface StateFileSaverOptions {
  /** The state to save, read at write time (so a burst of changes makes one write of the latest state). */
  getState: () => unknown;
  /** How long to gather changes before writing; default 25 ms. */
  debounceMs?: number;
  /** Called when a background save fails (the next change tries again). */
  onError?: (error: unknown) => void;
}

/**
 * Saves the state after changes: a change schedules one write a few ms later, writes never overlap, and
 * {@link StateFileSaver.flush} writes whatever is pending at once (used on close and shutdown).
 */
export class StateFileSaver {
  readonly #file: string;
  readonly #options: StateFileSaverOptions;
  #dirty = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #chain: Promise<void> = Promise.resolve();

  constructor(file: string, options: StateFileSaverOptions) {
    this.#file = file;
    this.#options = options;
  }

  /** Notes a change; the state is written within `debounceMs`. */
  schedule(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#enqueue().catch((error: unknown) => this.#options.onError?.(error));
    }, this.#options.debounceMs ?? 25);
  }

  /** Writes now if anything changed since the last write; resolves when it is on disk, rejects if it failed. */
  flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    return this.#enqueue();
  }

  /** Writes now whether or not anything changed (the first save of a new state file). */
  saveNow(): Promise<void> {
    this.#dirty = true;
    return this.flush();
  }

  #enqueue(): Promise<void> {
    const run = this.#chain.then(() => this.#writeIfDirty());
    // The chain itself never rejects, so one failed write does not block the next.
    this.#chain = run.catch(() => undefined);
    return run;
  }

  async #writeIfDirty(): Promise<void> {
    if (!this.#dirty) return;
    this.#dirty = false;
    try {
      await writeStateFile(this.#file, this.#options.getState());
    } catch (error) {
      this.#dirty = true;
      throw error;
    }
  }
}

async function syncFolder(folder: string): Promise<void> {
  // Makes the rename itself durable across a power cut. Not every platform can open a folder (Windows): best effort.
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Nothing to do: the rename is still atomic, only its durability after a power cut is not guaranteed.
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, 'EPERM');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

function errnoText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return `${error.code} (${error instanceof Error ? error.message : String(error)})`;
  }
  return error instanceof Error ? error.message : String(error);
}
