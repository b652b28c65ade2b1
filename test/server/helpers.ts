/** Helpers of the server tests: the built CLI as a child process, free ports, signed requests. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sendSigned, TEST_CREDENTIALS } from '../helpers/signed-request';

/** The built CLI, as `npx card-issuing-mock` runs it (package.json `bin`). */
export const CLI = fileURLToPath(new URL('../../mock-server/dist/cli.js', import.meta.url));

/** The built CLI's path; throws a clear message when dist/ was not built (npm test builds before vitest). */
export function builtCli(): string {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` builds before it runs vitest).`);
  }
  return CLI;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A running `card-issuing-mock` child process. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.stdout += text;
      this.#check();
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text;
    });
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /**
   * Resolves with the first match of `pattern` in stdout; rejects if the process exits first or after `ms` (a hang,
   * with what it printed: a start takes a second alone, several beside other tests on a loaded machine).
   */
  waitFor(pattern: RegExp, ms = 60_000): Promise<RegExpMatchArray> {
    const found = this.stdout.match(pattern);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${pattern}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`)),
        ms,
      );
      this.#waiters.push({
        pattern,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
      void this.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(
          new Error(
            `card-issuing-mock exited (code ${code}, signal ${signal}) before ${pattern}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
          ),
        );
      });
    });
  }

  #check(): void {
    this.#waiters = this.#waiters.filter((w) => {
      const m = this.stdout.match(w.pattern);
      if (m) w.resolve(m);
      return !m;
    });
  }
}

/** Runs the built CLI with these arguments (cwd = repo root). */
export function runCli(args: readonly string[], options: { cwd?: string } = {}): CliProcess {
  const child = spawn(process.execPath, [builtCli(), ...args], {
    cwd: options.cwd ?? fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, NO_COLOR: '1' },
    stdio: 'pipe',
  });
  return new CliProcess(child);
}

/** Starts the built CLI and resolves once it prints its base URL. */
export async function startCli(args: readonly string[]): Promise<{ cli: CliProcess; url: string }> {
  const cli = runCli(args);
  const match = await cli.waitFor(/listening on (http:\/\/\S+)/);
  return { cli, url: match[1]! };
}

/** Default credentials of the mock (contract section 1). */
export const DEFAULT_CREDENTIALS = TEST_CREDENTIALS;

/** A request to `baseUrl`, signed (see test/helpers/signed-request.ts); `credentials: null` sends it unsigned. */
export async function signedFetch(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    body?: unknown;
    credentials?: { apiKey: string; apiSecret: string } | null;
    headers?: Record<string, string>;
  } = {},
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, typed as Response.json() types it; the tests assert its fields.
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await sendSigned({ method, url: `${baseUrl}${path}`, ...options });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/**
 * A control-API call (`/__mock/...`): unsigned, it acts on the default tenant; with `credentials` it is signed with
 * that tenant's key, which is what acting on another tenant takes.
 */
export async function control(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  credentials?: { apiKey: string; apiSecret: string },
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, as signedFetch gives it.
): Promise<{ status: number; body: any }> {
  if (credentials) {
    const { status, body: answer } = await signedFetch(baseUrl, method, `/__mock${path}`, { body, credentials });
    return { status, body: answer };
  }
  const res = await fetch(`${baseUrl}/__mock${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Registration data of a new Server2Server user (unique e-mail). */
export function newUser(tag: string) {
  return {
    email: `${tag}.${Math.random().toString(36).slice(2, 10)}@example.org`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '+447700900123',
    dateOfBirth: '1990-12-10',
    country: 'GB',
  };
}
