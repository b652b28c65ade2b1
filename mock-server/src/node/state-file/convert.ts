/**
 * State files of earlier versions (a JSON snapshot `F` and its journals `F.journal-<n>`), converted once at the first
 * start: loaded and replayed strictly (any change that fails now refuses the conversion, naming it), written into a
 * new SQLite file, and only then moved aside (`F.json-backup`, `F.json-backup.journal-<n>`), never deleted.
 * @module
 */
import { rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { messageOf, StateFileError } from './errors';
import { syncFolder } from './files';
import { readStateFile } from './snapshot';
import { replayWal, walFiles } from './wal-files';

/** What converting needs of the mock. */
export interface LegacyHooks {
  importState(state: unknown): void;
  /** Replays one logged change; throws when it fails. */
  replay(command: unknown): void;
}

/** The name an older state file is kept under once converted. */
const backupName = (file: string): string => `${file}.json-backup`;

/** How to convert by hand: the one line every refused conversion ends with. */
const HOW = (file: string) =>
  `Convert it by hand: start the card-issuing-mock version that wrote it on ${file}, save GET /__mock/state to a JSON file, then start this version with a new --state-file and PUT that JSON to /__mock/state. ${file} was left untouched.`;

/** Loads an older state file into the mock (nothing on disk changes). */
export async function loadLegacy(file: string, hooks: LegacyHooks): Promise<void> {
  const snapshot = await readStateFile(file);
  if (!snapshot) return;
  try {
    hooks.importState(snapshot.state);
  } catch (error) {
    throw new StateFileError(file, `The state file ${file} could not be converted: ${messageOf(error)}. ${HOW(file)}`);
  }
  for (const wal of await walFiles(file)) {
    if (wal.generation < snapshot.wal) continue;
    let line = 1;
    await replayWal(file, wal.path, (command) => {
      line++;
      try {
        hooks.replay(command);
      } catch (error) {
        throw new StateFileError(
          file,
          `The state file ${file} could not be converted: line ${line} of ${basename(wal.path)} fails now (${messageOf(error)}). ${HOW(file)}`,
        );
      }
    });
  }
}

/** Moves the older files aside (after the new file was written); returns the snapshot's new name. */
export async function keepLegacyBeside(file: string, converted: string): Promise<string> {
  const backup = backupName(file);
  const journals = await walFiles(file);
  await rename(file, backup);
  for (const wal of journals)
    await rename(wal.path, join(dirname(file), `${basename(backup)}.journal-${wal.generation}`));
  await rename(converted, file);
  await syncFolder(dirname(file));
  return backup;
}
