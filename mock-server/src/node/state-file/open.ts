/**
 * Opening a state file: its lock, the checks of what is there (nothing refused is ever changed), the state loaded
 * into the mock (or an older JSON state file converted), and the thread that commits from then on.
 * @module
 */
import { rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  checkDatabase,
  fileKind,
  prepareDatabase,
  readDatabase,
  readStarts,
  SCHEMA_VERSION,
  writeNewDatabase,
} from './database';
import { CommitThread } from './commit-thread';
import { keepLegacyBeside, loadLegacy, type LegacyHooks } from './convert';
import { messageOf, refused, StateFileError } from './errors';
import { syncFolder } from './files';
import { acquireLock } from './lock';
import { removeStaleTempFiles } from './snapshot';
import { StateFile, type StateFileOptions } from './store';
import type { StoredState, TenantRegistry } from '../../store';

/** What the state file needs from the mock. */
export interface StateFileHooks extends LegacyHooks {
  /** The mock's tenants (watched from {@link StateFile.start} on). */
  registry: TenantRegistry;
  /** The whole state now, with each tenant's other fields (a conversion writes it). */
  storedState(): StoredState;
  /** Loads a stored state: its tenants' states (checked and migrated as a snapshot is), then their other fields. */
  load(stored: StoredState): void;
}

let tempCounter = 0;
/** A new file beside `file`, made whole before it is renamed into place (so `file` never exists half made). */
const tempBeside = (file: string) => join(dirname(file), `.${basename(file)}.${process.pid}-${++tempCounter}.tmp`);

/**
 * Opens a state file: takes its lock, checks the file (refused with its name and left untouched when it is not this
 * mock's SQLite database, fails `PRAGMA integrity_check`, or has a newer schema), loads it into the mock through
 * `hooks`, or converts an older JSON state file. Call {@link StateFile.start} to begin committing.
 */
export async function openStateFile(
  file: string,
  hooks: StateFileHooks,
  options: StateFileOptions = {},
): Promise<{ stateFile: StateFile; writeAll: boolean }> {
  const release = await acquireLock(file);
  try {
    await removeStaleTempFiles(file);
    const { kind, header } = fileKind(file);
    let loaded = false;
    let writeAll = false;
    let convertedFrom: string | undefined;
    let writtenDefault: string | undefined;
    let stored: string[] = [];
    let startsBefore = 0;
    switch (kind) {
      case 'empty':
        throw refused(file, 'is empty (0 bytes)');
      case 'other':
        throw refused(
          file,
          'is not a card-issuing-mock state file (neither its SQLite database nor a JSON state file of an earlier version)',
        );
      case 'missing': {
        const temp = tempBeside(file);
        prepareDatabase(temp, undefined);
        await placeNew(temp, file);
        writeAll = true;
        break;
      }
      case 'json': {
        await loadLegacy(file, hooks);
        const temp = tempBeside(file);
        try {
          writeNewDatabase(temp, hooks.storedState());
        } catch (error) {
          await unlink(temp).catch(() => undefined);
          throw error;
        }
        convertedFrom = await keepLegacyBeside(file, temp);
        loaded = true;
        stored = hooks.registry.all().map((t) => t.apiKey);
        writtenDefault = hooks.registry.default.apiKey;
        break;
      }
      case 'sqlite': {
        const version = checkDatabase(file, header);
        if (version < SCHEMA_VERSION) prepareDatabase(file, version);
        const read = readDatabase(file);
        startsBefore = readStarts(file);
        if (read) {
          try {
            hooks.load(read);
          } catch (error) {
            throw refused(file, `holds a state this mock cannot load (${messageOf(error)})`);
          }
          loaded = true;
          writtenDefault = read.defaultApiKey;
          stored = read.tenants.map((t) => t.apiKey);
        } else {
          writeAll = true;
        }
        break;
      }
    }
    const stateFile = new StateFile(file, hooks.registry, new CommitThread(file), release, options, {
      loaded,
      convertedFrom,
      writtenDefault,
      stored,
      starts: startsBefore + 1,
    });
    return { stateFile, writeAll };
  } catch (error) {
    await release();
    if (error instanceof StateFileError) throw error;
    throw new StateFileError(file, `Cannot open the state file ${file}: ${messageOf(error)}.`);
  }
}

/** Renames a new file made whole into place, durably. */
async function placeNew(temp: string, file: string): Promise<void> {
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(dirname(file));
}
