/**
 * An open state file: the write-ahead log the mock records its changes in (the runtime's `WriteAheadLog`). A change
 * is acknowledged only once its line is fsynced; every change of one event-loop tick shares one fsync (group
 * commit); a write that fails is never acknowledged (the request gets 503) and is retried with the next batch. Once
 * the log outgrows the snapshot, the state is written as a snapshot of the next generation and the old log deleted.
 * @module
 */
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errnoText, StateFileError } from './errors';
import { syncFolder } from './files';
import { writeStateFile } from './snapshot';
import { WAL_FORMAT, walFiles } from './wal-files';

/** What the state file needs from the mock. */
export interface StateFileHooks {
  /** The whole state, for a snapshot: serialised at once, in the turn it is asked for (so it may be the live state). */
  exportState(): unknown;
  /** Loads a snapshot's state (rejects with a message when the mock cannot load it). */
  importState(state: unknown): void;
  /** Replays one command of the write-ahead log. */
  replay(command: unknown): void;
}

/** Options of {@link openStateFile}. */
export interface StateFileOptions {
  /** Told why a write failed (the requests of that batch get 503); the server logs it. */
  onError?: (error: unknown) => void;
  /** Compact once the write-ahead log holds more bytes than this and than twice the last snapshot. Default 8 MiB. */
  compactAfterBytes?: number;
}

interface Waiter {
  ticket: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A loaded state file: the write-ahead log the mock records its changes in. */
export class StateFile {
  /** True when the file held a state (a snapshot or logged changes) at open. */
  readonly loaded: boolean;
  /** How many logged changes were replayed at open. */
  readonly replayed: number;
  /** Counts since open: write-ahead log batches written (one fsync each), changes in them, snapshots written. */
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

  constructor(
    file: string,
    hooks: StateFileHooks,
    options: StateFileOptions,
    release: () => Promise<void>,
    at: { loaded: boolean; generation: number; replayed: number },
  ) {
    this.#file = file;
    this.#hooks = hooks;
    this.#options = options;
    this.#release = release;
    this.#generation = at.generation;
    this.loaded = at.loaded;
    this.replayed = at.replayed;
  }

  /** Writes a snapshot of the state as loaded (plus what was added since), deletes the old logs, opens a new one. */
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
          // The log goes on; the next batch tries again.
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
        // Never acknowledged: the requests of this batch get 503. The batch stays first in line, so the log keeps
        // the order of the changes in memory, and goes with the next write.
        this.#pending = [...batch, ...this.#pending];
        this.#fail(upTo, error);
        this.#options.onError?.(error);
        // A log that could not be reopened after a compaction is made again by the next compaction.
        if (!this.#handle) this.#compactWanted = true;
        // Try again in a second (or with the next change, whichever comes first).
        setTimeout(() => this.#schedule(), 1000).unref();
        return false;
      }
    }
    return true;
  }

  async #write(bytes: Buffer): Promise<void> {
    if (!this.#handle) throw new Error(`The write-ahead log of ${this.#file} is not open (a compaction failed).`);
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
   * then a fresh write-ahead log for the changes after it, then the old logs go. `reopen: false` on close.
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
      const header = Buffer.from(`${JSON.stringify({ format: WAL_FORMAT, version: 1, generation: next })}\n`);
      await handle.write(header, 0, header.byteLength, 0);
      await handle.sync();
      await syncFolder(dirname(this.#file));
      this.#handle = handle;
      this.#offset = header.byteLength;
    }
    for (const wal of await walFiles(this.#file)) {
      if (wal.generation < next || !reopen) await unlink(wal.path).catch(() => undefined);
    }
  }

  #settle(upTo: number): void {
    if (upTo > this.#durable) this.#durable = upTo;
    const still: Waiter[] = [];
    for (const w of this.#waiters) w.ticket <= this.#durable ? w.resolve() : still.push(w);
    this.#waiters = still;
  }

  #fail(upTo: number, error: unknown): void {
    const still: Waiter[] = [];
    for (const w of this.#waiters) w.ticket <= upTo ? w.reject(error) : still.push(w);
    this.#waiters = still;
  }
}
