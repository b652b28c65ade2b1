/**
 * Helpers of the consumer matrix (npm run test:consumers): fresh projects in a temporary folder that install the packed
 * tarballs and tools from the npm registry, commands run there with an environment that holds no path into the
 * repository, and the `card-issuing-mock` command started from such a project.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoPath } from '../helpers/spec';

/** The packed tarballs (absolute paths in the run's temporary folder) and that folder. */
export interface Tarballs {
  root: string;
  sdk: string;
  mock: string;
  contract: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    tarballs: Tarballs;
  }
}

/** Tools the rows install from the registry: the repository's own ranges where it has them, so rows test what we use. */
const rootPackage = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const ours = (name: string): string => {
  const range = rootPackage.devDependencies[name];
  if (!range) throw new Error(`package.json has no devDependency ${name}`);
  return range;
};
export const TOOLS = {
  typescript: ours('typescript'),
  '@types/node': ours('@types/node'),
  vitest: ours('vitest'),
  vite: ours('vite'),
  tsx: ours('tsx'),
  jest: '^30.0.0',
  'jest-environment-jsdom': '^30.0.0',
  jsdom: '^31.0.0',
  'happy-dom': '^21.0.0',
} as const;
export type Tool = keyof typeof TOOLS;

/** This Node (the project's Node 24) first on PATH, and nothing of the repository (no node_modules/.bin). */
function consumerPath(): string {
  const repo = repoPath('.');
  const rest = (process.env.PATH ?? '').split(':').filter((dir) => dir && !dir.startsWith(repo));
  return [dirname(process.execPath), ...rest].join(':');
}

/**
 * The environment of every command a row runs: the caller's, without what `npm run` adds about this repository
 * (npm_package_*, npm_lifecycle_*, npm_config_local_prefix, INIT_CWD) and without NODE_OPTIONS, so that a row behaves
 * as in a terminal of its own. The npm cache stays shared (npm_config_cache, or npm's default).
 */
export function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|registry|userconfig|globalconfig|https?_proxy|proxy|noproxy|strict_ssl|cafile)$/i;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) && !keep.test(name)) continue;
    if (name === 'INIT_CWD' || name === 'NODE_OPTIONS' || name === 'VITEST' || name.startsWith('VITEST_')) continue;
    env[name] = value;
  }
  return {
    ...env,
    PATH: consumerPath(),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    CI: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}

/** What a finished command printed. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Both streams, for failure messages. */
  output: string;
}

/** Runs a command in a project and resolves when it exits (never rejects on a non-zero exit: callers assert). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: consumerEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout,
        stderr,
        output: `$ ${command} ${args.join(' ')} (in ${options.cwd})\n${stdout}\n${stderr}`,
      });
    });
  });
}

/** Runs a command and returns its output, throwing with everything it printed when it exits non-zero. */
export async function ok(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<Ran> {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`exit ${result.code}\n${result.output}`);
  return result;
}

/** At most `limit` of the given jobs at once (npm installs share two cores and one cache). */
export function limiter(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await job();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
const installSlot = limiter(Number(process.env.CONSUMERS_INSTALL_CONCURRENCY ?? 3));

/** A fresh project of the matrix. */
export interface Project {
  dir: string;
  /** Runs a command in the project; throws with its output on a non-zero exit. */
  ok(command: string, args: readonly string[], env?: Record<string, string>): Promise<Ran>;
  /** Runs a command in the project and returns how it ended. */
  run(command: string, args: readonly string[], env?: Record<string, string>): Promise<Ran>;
}

export interface ProjectSpec {
  /** A folder of the run's temporary root. */
  name: string;
  /** `"type"` of package.json; omitted (CommonJS) by default. */
  type?: 'module';
  /** Which tarballs are dependencies. */
  packages: readonly ('sdk' | 'mock')[];
  /** Tools from the registry, as devDependencies (versions from {@link TOOLS}). */
  tools?: readonly Tool[];
  /** package.json scripts. */
  scripts?: Record<string, string>;
  /** Fixture files: destination in the project → path under test/fixtures/consumer/. */
  files?: Record<string, string>;
}

/** Makes a project from its spec: package.json, fixture files, then `npm install` (the tarballs and the registry). */
export async function createProject(tarballs: Tarballs, spec: ProjectSpec): Promise<Project> {
  const dir = join(tarballs.root, spec.name);
  mkdirSync(dir, { recursive: true });
  const dependencies = Object.fromEntries(
    spec.packages.map((p) =>
      p === 'sdk' ? ['card-issuing-sdk', `file:${tarballs.sdk}`] : ['card-issuing-mock', `file:${tarballs.mock}`],
    ),
  );
  const devDependencies = Object.fromEntries((spec.tools ?? []).map((tool) => [tool, TOOLS[tool]]));
  const pkg = {
    name: `consumer-${spec.name}`,
    version: '1.0.0',
    private: true,
    ...(spec.type ? { type: spec.type } : {}),
    scripts: spec.scripts ?? {},
    dependencies,
    devDependencies,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  for (const [to, from] of Object.entries(spec.files ?? {})) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    cpSync(repoPath(`test/fixtures/consumer/${from}`), join(dir, to));
  }
  const project: Project = {
    dir,
    ok: (command, args, env) => ok(command, args, { cwd: dir, ...(env ? { env } : {}) }),
    run: (command, args, env) => run(command, args, { cwd: dir, ...(env ? { env } : {}) }),
  };
  const started = performance.now();
  await installSlot(() => npmInstall(dir, []));
  console.log(`consumers: ${spec.name} installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return project;
}

/**
 * `npm install` as a consumer runs it, quiet and from the shared cache where it can. Once more with the registry's
 * metadata when the cache's is stale: with `--prefer-offline`, a tool released minutes ago (vitest 5.1.2) is found
 * while the cached metadata of its dependencies (@vitest/mocker) does not list that version yet (ETARGET).
 */
export async function npmInstall(dir: string, args: readonly string[], options: { dev?: boolean } = {}): Promise<Ran> {
  const install = (cache: string) =>
    run(
      'npm',
      [
        'install',
        ...(options.dev ? ['--save-dev'] : []),
        cache,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...args,
      ],
      { cwd: dir, timeoutMs: 300_000 },
    );
  let result = await install('--prefer-offline');
  if (result.code !== 0 && result.output.includes('ETARGET')) result = await install('--prefer-online');
  if (result.code !== 0) throw new Error(`exit ${result.code}\n${result.output}`);
  return result;
}

/** How a process ended: its exit code, or the signal that ended it. */
export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A running `card-issuing-mock` command, started with npx in a project. It runs in a process group of its own, as a
 * command in a terminal does, so that {@link interrupt} is a real Ctrl+C: SIGINT to npx, its shell and the server.
 */
export class MockCommand {
  stdout = '';
  stderr = '';
  /** Resolves once every process of the group has let go of the output (npx and the server have both ended). */
  readonly ended: Promise<Ended>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text;
    });
    this.ended = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    // Never leave a server behind, whatever happens to this process.
    const reap = () => this.signal('SIGKILL');
    process.once('exit', reap);
    void this.ended.then(() => process.off('exit', reap));
  }

  /** `npx card-issuing-mock <args>` in `dir`; resolves with its base URL once it prints it. */
  static async start(dir: string, args: readonly string[]): Promise<{ command: MockCommand; url: string }> {
    const command = new MockCommand(
      spawn('npx', ['card-issuing-mock', ...args], { cwd: dir, env: consumerEnv(), stdio: 'pipe', detached: true }),
    );
    const url = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = /listening on (http:\/\/\S+)/.exec(command.stdout);
        if (match) resolve(match[1]!);
      };
      command.child.stdout.on('data', check);
      void command.ended.then((ended) =>
        reject(
          new Error(
            `npx card-issuing-mock ended (${JSON.stringify(ended)}) before it listened\n${command.stdout}\n${command.stderr}`,
          ),
        ),
      );
    });
    return { command, url };
  }

  /**
   * Any long-running command of a project (e.g. `npx next start`), in its own process group like the mock command;
   * resolves once its output matches `ready`. Stop it with {@link interrupt}.
   */
  static async startProgram(
    dir: string,
    command: string,
    args: readonly string[],
    env: Record<string, string>,
    ready: RegExp,
  ): Promise<MockCommand> {
    const program = new MockCommand(
      spawn(command, args, { cwd: dir, env: consumerEnv(env), stdio: 'pipe', detached: true }),
    );
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (ready.test(program.stdout)) resolve();
      };
      program.child.stdout.on('data', check);
      void program.ended.then((ended) =>
        reject(
          new Error(
            `${command} ${args.join(' ')} ended (${JSON.stringify(ended)})\n${program.stdout}\n${program.stderr}`,
          ),
        ),
      );
    });
    return program;
  }

  /** Ctrl+C: SIGINT to the whole group; resolves once it has ended, with what the server printed last. */
  async interrupt(): Promise<{ ended: Ended; stdout: string }> {
    this.signal('SIGINT');
    const ended = await this.ended;
    return { ended, stdout: this.stdout };
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // The group has already ended.
    }
  }
}

/** The last line of `text` that parses as a JSON object (a row's report). */
export function lastJson(text: string): Record<string, unknown> {
  const line = text
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (!line) throw new Error(`no JSON report in:\n${text}`);
  return JSON.parse(line) as Record<string, unknown>;
}
