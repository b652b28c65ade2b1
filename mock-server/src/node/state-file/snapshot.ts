/**
 * The state file's snapshot `F`: the state as JSON in a small envelope that names the format and the write-ahead
 * log generation that continues it, written atomically (temporary file in the same folder, fsync, rename, fsync of
 * the folder), and the temporary files a killed server left beside it.
 * @module
 */
import { open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoText, isErrno, LEAVE_IT, messageOf, refused, StateFileError } from './errors';
import { isProcessAlive, isRecord, syncFolder } from './files';

/** Marks a file as ours, so that a wrong `--state-file` is refused instead of overwritten. */
export const STATE_FILE_FORMAT = 'card-issuing-mock/state';
/** The envelope version this code writes and reads. */
export const STATE_FILE_VERSION = 1;
/** What the state file holds: the mock's exported state in a small envelope that names the format. */
export interface StateFileEnvelope<State> {
  format: typeof STATE_FILE_FORMAT;
  version: typeof STATE_FILE_VERSION;
  savedAt: string;
  /** The write-ahead log generation whose changes come after this snapshot (absent: 0). */
  journal?: number;
  state: State;
}

/**
 * Reads and checks a state file's snapshot. Resolves `undefined` when the file does not exist (a first start);
 * rejects with a {@link StateFileError} when it exists but cannot be read, is not JSON, or is not a state file.
 */
export async function readStateFile(file: string): Promise<{ state: unknown; wal: number } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw new StateFileError(file, `Cannot read the state file ${file}: ${errnoText(error)}. ${LEAVE_IT}`);
  }
  if (text.trim() === '') throw refused(file, 'is empty');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw refused(file, `is not valid JSON (${messageOf(error)})`);
  }
  if (!isRecord(parsed) || parsed.format !== STATE_FILE_FORMAT) {
    throw refused(file, `is not a card-issuing-mock state file (it has no "format": "${STATE_FILE_FORMAT}")`);
  }
  if (parsed.version !== STATE_FILE_VERSION) {
    throw refused(file, `has version ${JSON.stringify(parsed.version)}; this mock reads version ${STATE_FILE_VERSION}`);
  }
  if (!('state' in parsed) || !isRecord(parsed.state)) {
    throw refused(file, 'has no "state" object');
  }
  // `journal` in the envelope: the on-disk name of the write-ahead log generation, kept so that existing files load.
  const wal =
    typeof parsed.journal === 'number' && Number.isInteger(parsed.journal) && parsed.journal >= 0 ? parsed.journal : 0;
  return { state: parsed.state, wal };
}

let tempCounter = 0;

/** Writes `state` to `file` atomically: temporary file in the same folder, fsync, rename, fsync of the folder. */
export async function writeStateFile(file: string, state: unknown, wal = 0, now: Date = new Date()): Promise<number> {
  const envelope: StateFileEnvelope<unknown> = {
    format: STATE_FILE_FORMAT,
    version: STATE_FILE_VERSION,
    savedAt: now.toISOString(),
    journal: wal,
    state,
  };
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
