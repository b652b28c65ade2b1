/**
 * Opening a state file: its lock, its snapshot and the replay of its write-ahead log into the mock.
 * @module
 */
import { messageOf, refused } from './errors';
import { acquireLock } from './lock';
import { readStateFile, removeStaleTempFiles } from './snapshot';
import { replayWal, walFiles } from './wal-files';
import { StateFile, type StateFileHooks, type StateFileOptions } from './writer';

/**
 * Opens a state file: takes its lock, loads the snapshot and replays its write-ahead logs into the mock (through
 * `hooks`). Nothing is written yet; {@link StateFile.start} writes the first snapshot and opens the log.
 */
export async function openStateFile(
  file: string,
  hooks: StateFileHooks,
  options: StateFileOptions = {},
): Promise<StateFile> {
  const release = await acquireLock(file);
  try {
    await removeStaleTempFiles(file);
    const snapshot = await readStateFile(file);
    if (snapshot) {
      try {
        hooks.importState(snapshot.state);
      } catch (error) {
        throw refused(file, `holds a state this mock cannot load (${messageOf(error)})`);
      }
    }
    const from = snapshot?.wal ?? 0;
    let replayed = 0;
    let generation = from;
    for (const wal of await walFiles(file)) {
      if (wal.generation < from) continue;
      replayed += await replayWal(file, wal.path, (command) => hooks.replay(command));
      generation = wal.generation;
    }
    return new StateFile(file, hooks, options, release, {
      loaded: snapshot !== undefined || replayed > 0,
      generation,
      replayed,
    });
  } catch (error) {
    await release();
    throw error;
  }
}
