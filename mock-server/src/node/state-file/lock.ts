/**
 * `F.lock`: the pid of the one server that uses the state file `F`. A second server is refused with a message
 * naming both; a lock left by a dead process is taken over.
 * @module
 */
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { errnoText, isErrno, StateFileError } from './errors';
import { isProcessAlive } from './files';

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
        throw new StateFileError(
          file,
          `Cannot create the lock file ${lock} of the state file ${file}: ${errnoText(error)}.`,
        );
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
    await rename(lock, `${lock}.stale-${process.pid}`)
      .then(() => unlink(`${lock}.stale-${process.pid}`))
      .catch(() => undefined);
  }
  throw new StateFileError(
    file,
    `Cannot take the lock file ${file}.lock of the state file ${file}: other servers keep taking it.`,
  );
}
