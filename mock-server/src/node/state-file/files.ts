/**
 * File-system helpers of the state file: durable renames, live processes, JSON objects.
 * @module
 */
import { open } from 'node:fs/promises';
import { isErrno } from './errors';

/** Makes a rename or a new file in `folder` durable across a power cut, where the platform can (not Windows). */
export async function syncFolder(folder: string): Promise<void> {
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

/** True when the process `pid` runs (EPERM: it runs as another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, 'EPERM');
  }
}

/** True when `value` is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
