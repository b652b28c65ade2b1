/**
 * The write-ahead log files of a state file on disk (`F.journal-<generation>`, one JSON line per change after a
 * header line), read once to convert them into the SQLite state file.
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
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

/**
 * Replays the changes of one write-ahead log file through `replay`, strictly: a header of another format or version,
 * or a line that is not JSON before the last one, refuses (a torn last line, without its newline, was never
 * acknowledged and is skipped). The file is only read. Returns how many changes were replayed.
 */
export async function replayWal(file: string, path: string, replay: (command: unknown) => void): Promise<number> {
  const bytes = await readFile(path);
  const damaged = (why: string) =>
    new StateFileError(file, `The journal ${path} of the state file ${file} ${why}. ${LEAVE_IT}`);
  let start = 0;
  let count = 0;
  let lineNo = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    // No newline: a torn last line, never acknowledged (its fsync had not returned).
    if (end < 0) break;
    const line = bytes.subarray(start, end).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw damaged(`has a damaged line ${lineNo + 1} (not JSON)`);
    }
    if (lineNo === 0) {
      if (!isRecord(parsed) || parsed.format !== WAL_FORMAT) throw damaged('is not a card-issuing-mock journal');
      if (parsed.version !== 1)
        throw damaged(`has version ${JSON.stringify(parsed.version)}; this mock reads version 1`);
    } else {
      replay(parsed);
      count++;
    }
    lineNo++;
    start = end + 1;
  }
  return count;
}
