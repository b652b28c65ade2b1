/**
 * The `--state-file F`: the mock's whole state (every tenant and its credentials), durable as a database's.
 *
 * - `F` is a snapshot: the state as JSON in a small envelope that names the format and the journal generation that
 *   continues it. It is written atomically (temporary file in the same folder, fsync, rename, fsync of the folder).
 * - `F.journal-<generation>` is an append-only journal of commands (one JSON line per change: a request's operation
 *   and validated input, a control action, ...), a few hundred bytes each whatever the size of the state. A change
 *   is acknowledged only once its line is fsynced; every change of one event-loop tick shares one fsync (group
 *   commit). A write that fails is never acknowledged (the request gets 503) and is retried with the next batch.
 * - Compaction: once the journal outgrows the snapshot, the state is written as a new snapshot of the next
 *   generation and the old journal is deleted. Load = snapshot + the journals of its generation and after, replayed
 *   in order; a torn last line (a write a kill interrupted, never acknowledged) is cut off.
 * - `F.lock` holds the pid of the one server that uses `F`; a second is refused with a message naming both, a lock
 *   left by a dead process is taken over.
 */
import { link, open, readdir, readFile, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Marks a file as ours, so that a wrong `--state-file` is refused instead of overwritten. */
export const STATE_FILE_FORMAT = 'card-issuing-mock/state';
/** The envelope version this code writes and reads. */
export const STATE_FILE_VERSION = 1;
/** The first line of a journal file. */
export const JOURNAL_FORMAT = 'card-issuing-mock/journal';

/** What the state file holds: the mock's exported state in a small envelope that names the format. */
export interface StateFileEnvelope<State> {
  format: typeof STATE_FILE_FORMAT;
  version: typeof STATE_FILE_VERSION;
  savedAt: string;
  /** The journal generation whose changes come after this snapshot (absent: 0). */
  journal?: number;
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
 * Reads and checks a state file's snapshot. Resolves `undefined` when the file does not exist (a first start);
 * rejects with a {@link StateFileError} when it exists but cannot be read, is not JSON, or is not a state file.
 */
export async function readStateFile(file: string): Promise<{ state: unknown; journal: number } | undefined> {
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
  const journal = typeof parsed.journal === 'number' && Number.isInteger(parsed.journal) && parsed.journal >= 0 ? parsed.journal : 0;
  return { state: parsed.state, journal };
}

let tempCounter = 0;

/** Writes `state` to `file` atomically: temporary file in the same folder, fsync, rename, fsync of the folder. */
export async function writeStateFile(file: string, state: unknown, journal = 0, now: Date = new Date()): Promise<number> {
  const envelope: StateFileEnvelope<unknown> = { format: STATE_FILE_FORMAT, version: STATE_FILE_VERSION, savedAt: now.toISOString(), journal, state };
  // Serialised before the first await: the snapshot is of one instant, even of a live state.
  const text = `${JSON.stringify(envelope)}\n`;
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
  return Buffer.byteLength(text);
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

// ------------------------------------------------------------------------------------------------------- lock

/**
 * Takes `F.lock` for this process: created exclusively with our pid. A lock whose process is alive refuses with a
 * {@link StateFileError} naming the file and the holder; a lock of a dead process is taken over. Resolves the
 * function that releases it.
 */
export async function acquireLock(file: string): Promise<() => Promise<void>> {
  const lock = `${file}.lock`;
  const mine = `${process.pid}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const temp = `${lock}.${process.pid}.tmp`;
    try {
      await writeFile(temp, mine, { mode: 0o600 });
      // link() fails when the lock exists: of two servers starting at once, exactly one gets it.
      await link(temp, lock);
      await unlink(temp).catch(() => undefined);
      return async () => {
        const holder = await readFile(lock, 'utf8').catch(() => '');
        if (holder === mine) await unlink(lock).catch(() => undefined);
      };
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      if (!isErrno(error, 'EEXIST')) {
        throw new StateFileError(file, `Cannot create the lock file ${lock} of the state file ${file}: ${errnoText(error)}.`);
      }
    }
    const holder = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
      throw new StateFileError(
        file,
        `The state file ${file} is in use by another mock server (pid ${holder}, lock file ${lock}). Stop that server, or pass another --state-file.`,
      );
    }
    // The holder is gone (killed): take the stale lock over. The rename moves exactly one stale lock away.
    await rename(lock, `${lock}.stale-${process.pid}`).then(() => unlink(`${lock}.stale-${process.pid}`)).catch(() => undefined);
  }
  throw new StateFileError(file, `Cannot take the lock file ${file}.lock of the state file ${file}: other servers keep taking it.`);
}

// ---------------------------------------------------------------------------------------------------- journal

/** What the journaled state file needs from the mock. */
export interface StateFileHooks {
  /** The whole state, for a snapshot: serialised at once, in the turn it is asked for (so it may be the live state). */
  exportState(): unknown;
  /** Loads a snapshot's state (rejects with a message when the mock cannot load it). */
  importState(state: unknown): void;
  /** Replays one journaled command. */
  replay(command: unknown): void;
}

/** Options of {@link openStateFile}. */
export interface StateFileOptions {
  /** Told why a write failed (the requests of that batch get 503); the server logs it. */
  onError?: (error: unknown) => void;
  /** Compact once the journal holds more bytes than this and than twice the last snapshot. Default 8 MiB. */
  compactAfterBytes?: number;
}

/** The journal files of a state file with their generations, oldest first. */
async function journalFiles(file: string): Promise<{ generation: number; path: string }[]> {
  const prefix = `${basename(file)}.journal-`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
    .map((n) => ({ generation: Number(n.slice(prefix.length)), path: join(dirname(file), n) }))
    .sort((a, b) => a.generation - b.generation);
}

/**
 * Opens a state file: takes its lock, loads the snapshot and replays its journals into the mock (through `hooks`).
 * Nothing is written yet; {@link JournaledStateFile.start} writes the first snapshot and opens the journal.
 */
export async function openStateFile(file: string, hooks: StateFileHooks, options: StateFileOptions = {}): Promise<JournaledStateFile> {
  const release = await acquireLock(file);
  try {
    await removeStaleTempFiles(file);
    const snapshot = await readStateFile(file);
    if (snapshot) {
      try {
        hooks.importState(snapshot.state);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new StateFileError(file, `The state file ${file} holds a state this mock cannot load (${reason}). ${LEAVE_IT}`);
      }
    }
    const from = snapshot?.journal ?? 0;
    let replayed = 0;
    let generation = from;
    for (const journal of await journalFiles(file)) {
      if (journal.generation < from) continue;
      replayed += await replayJournal(file, journal.path, hooks);
      generation = journal.generation;
    }
    return new JournaledStateFile(file, hooks, options, release, { loaded: snapshot !== undefined || replayed > 0, generation, replayed });
  } catch (error) {
    await release();
    throw error;
  }
}

async function replayJournal(file: string, path: string, hooks: StateFileHooks): Promise<number> {
  const bytes = await readFile(path);
  let start = 0;
  let count = 0;
  let lineNo = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    // No newline: a torn last line, never acknowledged (its fsync had not returned). Cut it off below.
    if (end < 0) break;
    const line = bytes.subarray(start, end).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      break;
    }
    if (lineNo === 0) {
      if (!isRecord(parsed) || parsed.format !== JOURNAL_FORMAT) {
        throw new StateFileError(file, `The journal ${path} of the state file ${file} is not a card-issuing-mock journal. ${LEAVE_IT}`);
      }
    } else {
      hooks.replay(parsed);
      count++;
    }
    lineNo++;
    start = end + 1;
  }
  if (start < bytes.length) {
    const handle = await open(path, 'r+');
    try {
      await handle.truncate(start);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  return count;
}

interface Waiter {
  ticket: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A loaded state file: the journal the mock records its changes in (the runtime's `Journal`). */
export class JournaledStateFile {
  /** True when the file held a state (a snapshot or journaled changes) at open. */
  readonly loaded: boolean;
  /** How many journaled changes were replayed at open. */
  readonly replayed: number;
  /** Counts since open: journal batches written (one fsync each), changes in them, snapshots written. */
  readonly stats = { batches: 0, records: 0, snapshots: 0 };
  readonly #file: string;
  readonly #hooks: StateFileHooks;
  readonly #options: StateFileOptions;
  readonly #release: () => Promise<void>;
  #generation: number;
  #handle: FileHandle | undefined;
  #offset = 0;
  #sinceSnapshot = 0;
  #snapshotBytes = 0;
  #pending: string[] = [];
  #pendingUpTo = 0;
  #seq = 0;
  #durable = 0;
  #waiters: Waiter[] = [];
  #running: Promise<void> | undefined;
  #scheduled = false;
  #compactWanted = false;
  #closed = false;

  constructor(file: string, hooks: StateFileHooks, options: StateFileOptions, release: () => Promise<void>, at: { loaded: boolean; generation: number; replayed: number }) {
    this.#file = file;
    this.#hooks = hooks;
    this.#options = options;
    this.#release = release;
    this.#generation = at.generation;
    this.loaded = at.loaded;
    this.replayed = at.replayed;
  }

  /** Writes a snapshot of the state as loaded (plus what was added since), deletes the old journals, opens a new one. */
  async start(): Promise<void> {
    try {
      await this.#compact();
    } catch (error) {
      await this.#release();
      throw new StateFileError(this.#file, `Cannot write the state file ${this.#file}: ${errnoText(error)}.`);
    }
  }

  /** Records a change (in the turn it happened); returns its ticket for {@link durable}. */
  record(command: unknown): number {
    this.#pending.push(`${JSON.stringify(command)}\n`);
    this.#pendingUpTo = ++this.#seq;
    this.#schedule();
    return this.#seq;
  }

  /** Resolves once the change of `ticket` (and every one before it) is on disk; rejects when its write failed. */
  durable(ticket: number): Promise<void> {
    if (ticket <= this.#durable) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ ticket, resolve, reject }));
  }

  /** Writes everything pending, a last snapshot, and releases the lock. Safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#running;
    await this.#drain();
    await this.#compact(false);
    await this.#handle?.close();
    this.#handle = undefined;
    await this.#release();
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    // setImmediate: every change made in this tick (all the requests the poll phase handed over) shares the fsync.
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#closed) return;
      this.#running = this.#drain().then((ok) => {
        this.#running = undefined;
        // Changes recorded while the last batch was being written go now; after a failure, the retry timer decides.
        if (ok && (this.#pending.length > 0 || this.#compactWanted)) this.#schedule();
      });
    });
  }

  /** Writes batches until nothing is pending; false when a write failed. */
  async #drain(): Promise<boolean> {
    while (this.#pending.length > 0 || this.#compactWanted) {
      if (this.#compactWanted) {
        try {
          await this.#compact();
        } catch (error) {
          // The journal goes on; the next batch tries again.
          this.#compactWanted = false;
          this.#options.onError?.(error);
        }
        continue;
      }
      const batch = this.#pending;
      const upTo = this.#pendingUpTo;
      this.#pending = [];
      const text = batch.join('');
      try {
        const bytes = Buffer.from(text, 'utf8');
        await this.#write(bytes);
        this.stats.batches++;
        this.stats.records += batch.length;
        this.#settle(upTo);
        this.#sinceSnapshot += bytes.byteLength;
        const limit = Math.max(this.#options.compactAfterBytes ?? 8 * 1024 * 1024, 2 * this.#snapshotBytes);
        if (this.#sinceSnapshot > limit && !this.#closed) this.#compactWanted = true;
      } catch (error) {
        // Never acknowledged: the requests of this batch get 503. The batch stays first in line, so the journal keeps
        // the order of the changes in memory, and goes with the next write.
        this.#pending = [...batch, ...this.#pending];
        this.#fail(upTo, error);
        this.#options.onError?.(error);
        // A journal that could not be reopened after a compaction is made again by the next compaction.
        if (!this.#handle) this.#compactWanted = true;
        // Try again in a second (or with the next change, whichever comes first).
        setTimeout(() => this.#schedule(), 1000).unref();
        return false;
      }
    }
    return true;
  }

  async #write(bytes: Buffer): Promise<void> {
    if (!this.#handle) throw new Error(`The journal of ${this.#file} is not open (a compaction failed).`);
    try {
      let done = 0;
      while (done < bytes.byteLength) {
        const { bytesWritten } = await this.#handle.write(bytes, done, bytes.byteLength - done, this.#offset + done);
        done += bytesWritten;
      }
      await this.#handle.datasync();
      this.#offset += bytes.byteLength;
    } catch (error) {
      // Cut off whatever part of the batch reached the file, so that the retry appends it whole.
      await this.#handle.truncate(this.#offset).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A snapshot of the next generation: the state now (every change up to the last ticket, pending ones included),
   * then a fresh journal for the changes after it, then the old journals go. `reopen: false` on close.
   */
  async #compact(reopen = true): Promise<void> {
    this.#compactWanted = false;
    const state = this.#hooks.exportState();
    const upTo = this.#seq;
    const covered = this.#pending;
    this.#pending = [];
    const next = this.#generation + 1;
    try {
      this.#snapshotBytes = await writeStateFile(this.#file, state, next);
      this.stats.snapshots++;
    } catch (error) {
      this.#pending = [...covered, ...this.#pending];
      throw error;
    }
    this.#settle(upTo);
    const old = this.#handle;
    this.#handle = undefined;
    await old?.close();
    this.#generation = next;
    this.#sinceSnapshot = 0;
    if (reopen) {
      const path = `${this.#file}.journal-${next}`;
      const handle = await open(path, 'w', 0o600);
      const header = Buffer.from(`${JSON.stringify({ format: JOURNAL_FORMAT, version: 1, generation: next })}\n`);
      await handle.write(header, 0, header.byteLength, 0);
      await handle.sync();
      await syncFolder(dirname(this.#file));
      this.#handle = handle;
      this.#offset = header.byteLength;
    }
    for (const journal of await journalFiles(this.#file)) {
      if (journal.generation < next || !reopen) await unlink(journal.path).catch(() => undefined);
    }
  }

  #settle(upTo: number): void {
    if (upTo > this.#durable) this.#durable = upTo;
    const still: Waiter[] = [];
    for (const w of this.#waiters) (w.ticket <= this.#durable ? w.resolve() : still.push(w));
    this.#waiters = still;
  }

  #fail(upTo: number, error: unknown): void {
    const still: Waiter[] = [];
    for (const w of this.#waiters) (w.ticket <= upTo ? w.reject(error) : still.push(w));
    this.#waiters = still;
  }
}

async function syncFolder(folder: string): Promise<void> {
  // Makes a rename or a new file durable across a power cut. Not every platform can open a folder (Windows).
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

/** An errno error as `CODE (message)`, else its message. */
export function errnoText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return `${error.code} (${error instanceof Error ? error.message : String(error)})`;
  }
  return error instanceof Error ? error.message : String(error);
}
