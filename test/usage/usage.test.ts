/**
 * `card-issuing-contract usage` on the demo's run: the demo (every flow of the interface document) against the
 * standalone mock, then the built bin reads what it exercised from `GET /__mock/usage` and from the saved journal.
 * Both give the same usage file, valid against the package's JSON Schema (Ajv), and a Pact v4 contract that
 * PactFlow's own comparator (@pactflow/openapi-pact-comparator) finds no error or warning in against the spec; a
 * Pact that breaks the spec is caught by the same comparator. A mock that does not record usage is exit 2, one line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Comparator } from '@pactflow/openapi-pact-comparator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { examples } from '../../examples/run-all';
import { runDemo } from '../../examples/support/run';
import { repoPath } from '../helpers/spec';

let server: MockServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contract-usage-'));
  server = await startMockServer({ port: 0 });
  const lines: string[] = [];
  const code = await runDemo({
    examples,
    argv: ['--base-url', server.url, '--api-key', 'test_key', '--api-secret', 'test_secret'],
    write: (line) => lines.push(line),
  });
  if (code !== 0) throw new Error(`the demo failed:\n${lines.join('\n')}`);
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function usage(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      repoPath('contract/dist/cli.js'),
      'usage',
      ...args,
    ]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const spec = parse(readFileSync(repoPath('spec/openapi.yaml'), 'utf8')) as object;

async function compare(pact: object): Promise<{ type: string; code: string; message: string }[]> {
  const results = [];
  for await (const result of new Comparator({ oas: structuredClone(spec) as never }).compare(pact))
    results.push(result);
  return results as { type: string; code: string; message: string }[];
}

describe('card-issuing-contract usage, on the demo', () => {
  it("from the running mock: a usage file valid against its schema, and a Pact PactFlow's comparator passes", async () => {
    const out = join(dir, 'usage.json');
    const pactPath = join(dir, 'pact.json');
    const run = await usage(['--from', server.url, '--out', out, '--pact', pactPath, '--consumer', 'demo']);
    expect(run, run.output).toMatchObject({ code: 0 });
    expect(run.output).toMatch(/32 operation\(s\).*a Pact v4 contract of \d+ interaction\(s\)/);

    const file = json(out) as { operations: { operationId: string; statuses: number[]; responseFields: object }[] };
    const validate = new Ajv2020({ strict: false }).compile(json(repoPath('contract/dist/usage.schema.json')));
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    expect(file.operations).toHaveLength(32);
    expect(file.operations.find((o) => o.operationId === 'createUser')).toMatchObject({
      path: '/s2s/users',
      statuses: [201],
      requestFields: expect.arrayContaining(['email', 'dateOfBirth']),
      responseFields: { '201': expect.arrayContaining(['id', 'registrationStatus']) },
    });

    const pact = json(pactPath) as { consumer: object; interactions: object[]; metadata: object };
    expect(pact).toMatchObject({ consumer: { name: 'demo' }, metadata: { pactSpecification: { version: '4.0' } } });
    expect(await compare(pact)).toEqual([]);
    // The check is live: a Pact that relies on a field of another type than the spec's is an error.
    const broken = structuredClone(pact) as {
      interactions: { description: string; response: { body: { content: Record<string, unknown> } } }[];
    };
    broken.interactions.find((i) => i.description === 'createUser 201')!.response.body.content.email = 42;
    expect((await compare(broken)).map((r) => r.type)).toContain('error');
  });

  it('from a saved journal: the same usage, and a Pact the comparator passes', async () => {
    const [fromMock, fromJournal] = [join(dir, 'a.json'), join(dir, 'b.json')];
    expect((await usage(['--from', server.url, '--out', fromMock])).code).toBe(0);
    // Read the journal only now: the test before kept this thread busy comparing Pacts (seconds on a loaded machine),
    // past the server's keep-alive timeout, and a request sent straight after it could go out on the pooled
    // connection the server was about to close; while the bin above runs, both ends drop it.
    const journalPath = join(dir, 'journal.json');
    writeFileSync(journalPath, JSON.stringify(await (await fetch(`${server.url}/__mock/requests?limit=5000`)).json()));
    const run = await usage(['--from', journalPath, '--out', fromJournal, '--pact', join(dir, 'pact-j.json')]);
    expect(run, run.output).toMatchObject({ code: 0 });
    expect(json(fromJournal).operations).toEqual(json(fromMock).operations);
    expect(await compare(json(join(dir, 'pact-j.json')))).toEqual([]);
  });

  it('a mock that does not record usage, or a file that is neither: exit 2, one line', async () => {
    const quiet = await startMockServer({ port: 0, recordUsage: false });
    try {
      const run = await usage(['--from', quiet.url, '--out', join(dir, 'none.json')]);
      expect(run.code).toBe(2);
      expect(run.output.trim().split('\n')).toEqual([expect.stringMatching(/the mock does not record usage/)]);
    } finally {
      await quiet.close();
    }
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"hello":1}');
    const run = await usage(['--from', other, '--out', join(dir, 'none.json')]);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(/neither a usage document .* nor a journal/);
  });
});
