/**
 * `npm run test:postman`: the Postman collection card-issuing-contract ships (generated from the spec by Postman's
 * converter, signing in its collection-level pre-request script), run by newman, Postman's own runner, against the
 * standalone mock (its CLI, as `npx card-issuing-mock`), once per secret encoding with the shipped environment
 * (the base URL changed to the mock's free port; under base64 the mock's documented base64 default secret). Every
 * request must pass: the signature accepted, no server error, a status the spec documents. Then once signed with
 * the wrong encoding, which must fail every request: the script's encoding is what makes them pass.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { repoPath } from '../helpers/spec';

/** What this script reads of newman's run summary (newman ships no types). */
interface NewmanSummary {
  run: {
    stats: { requests: { total?: number }; assertions: { total?: number; failed?: number } };
    failures: { source?: { name?: string }; error: { message: string; test?: string } }[];
  };
}
const newman = createRequire(import.meta.url)('newman') as {
  run(options: object, callback: (error: Error | null, summary: NewmanSummary) => void): void;
};

const collection = JSON.parse(
  readFileSync(repoPath('contract/dist/postman/card-issuing.postman_collection.json'), 'utf8'),
) as object;
const environment = JSON.parse(
  readFileSync(repoPath('contract/dist/postman/card-issuing-mock.postman_environment.json'), 'utf8'),
) as object;

/** The standalone mock's CLI on a free port; resolves with its URL and a stop function. */
async function startMock(args: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [repoPath('mock-server/dist/cli.js'), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before it listened:\n${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface Stats {
  requests: number;
  assertions: number;
  failedAssertions: number;
  failures: string[];
}

function run(envVar: { key: string; value: string }[]): Promise<Stats> {
  return new Promise((resolve, reject) => {
    newman.run({ collection, environment, envVar, reporters: [] }, (error, summary) => {
      if (error) return reject(error);
      resolve({
        requests: summary.run.stats.requests.total ?? 0,
        assertions: summary.run.stats.assertions.total ?? 0,
        failedAssertions: summary.run.stats.assertions.failed ?? 0,
        failures: summary.run.failures.map(
          (f) => `${f.source?.name ?? '?'}: ${f.error.test ?? ''}: ${f.error.message}`,
        ),
      });
    });
  });
}

const BASE64_SECRET = Buffer.from('test_secret').toString('base64');
let failed = false;
for (const encoding of ['utf8', 'base64'] as const) {
  const mock = await startMock(encoding === 'base64' ? ['--secret-encoding', 'base64'] : []);
  try {
    const vars = [
      { key: 'baseUrl', value: mock.url },
      ...(encoding === 'base64'
        ? [
            { key: 'apiSecret', value: BASE64_SECRET },
            { key: 'secretEncoding', value: 'base64' },
          ]
        : []),
    ];
    const stats = await run(vars);
    const ok = stats.requests === 32 && stats.failures.length === 0 && stats.failedAssertions === 0;
    console.log(
      `newman (${encoding}): ${stats.requests} requests, ${stats.assertions} assertions, ${stats.failedAssertions} failed`,
    );
    for (const line of stats.failures.slice(0, 20)) console.log(`  ✗ ${line}`);
    if (!ok) failed = true;
    if (encoding === 'base64') {
      // The same secret taken as UTF-8 bytes: another key, so every request must be refused.
      const wrong = await run([
        ...vars.filter((v) => v.key !== 'secretEncoding'),
        { key: 'secretEncoding', value: 'utf8' },
      ]);
      const refusedAll = wrong.failures.filter((f) => f.includes('the signature is accepted')).length === 32;
      console.log(
        `newman (base64 secret signed as utf8): ${refusedAll ? 'every request refused, as it must' : 'NOT every request refused'}`,
      );
      if (!refusedAll) failed = true;
    }
  } finally {
    await mock.stop();
  }
}
console.log(
  failed ? 'postman: FAIL' : 'postman: every request of the shipped collection passed, under both secret encodings',
);
process.exitCode = failed ? 1 : 0;
