/**
 * The state file's one error type and the texts its messages share.
 * @module
 */

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

/** The end of every message about a file the server refused to touch. */
export const LEAVE_IT = 'The file was left untouched; fix or remove it, or pass another --state-file.';

/** The state file refused for `why`: the message names the file and ends with {@link LEAVE_IT}. */
export function refused(file: string, why: string): StateFileError {
  return new StateFileError(file, `The state file ${file} ${why}. ${LEAVE_IT}`);
}

/** A thrown value's message. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** True when `error` is a node errno error with `code`. */
export function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

/** An errno error as `CODE (message)`, else its message. */
export function errnoText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return `${error.code} (${messageOf(error)})`;
  }
  return messageOf(error);
}
