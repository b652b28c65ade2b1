/**
 * The write-ahead log files of a state file on disk (`F.journal-<generation>`, one JSON line per change after a
 * header line) and their replay at load: in order, a torn last line (a write a kill interrupted, never
 * acknowledged) cut off.
 * @module
 */
import { open, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LEAVE_IT, StateFileError } from './errors';
import { isRecord } from './files';

/** The first line of a write-ahead log file (the on-disk name `journal` is kept so that existing state files load). */
export const WAL_FORMAT = 'card-issuing-mock/journal';

/** The write-ahead log files of a state file with their generations, oldest first. */
export async function walFiles(file: string): Promise<{ generation: number; path: string }[]> {
  const prefix = `${basename(file)}.journal-`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
    .map((n) => ({ generation: Number(n.slice(prefix.length)), path: join(dirname(file), n) }))
    .sort((a, b) => a.generation - b.generation);
}

/** Replays the changes of one write-ahead log file through `replay`; returns how many. */
export async function replayWal(file: string, path: string, replay: (command: unknown) => void): Promise<number> {
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
      if (!isRecord(parsed) || parsed.format !== WAL_FORMAT) {
        throw new StateFileError(
          file,
          `The journal ${path} of the state file ${file} is not a card-issuing-mock journal. ${LEAVE_IT}`,
        );
      }
    } else {
      replay(parsed);
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
