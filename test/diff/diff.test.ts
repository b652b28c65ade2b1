/**
 * `card-issuing-contract diff` (the built bin) on fixture pairs made from the spec: the base is spec/openapi.yaml,
 * each revision one edit of it. With an app's usage file (getUser and createUser, reading a few fields), a breaking
 * change blocks (exit 1) only when it touches what the app uses; without a usage file every breaking change does.
 * Under GitHub Actions the blocking change is an `::error` annotation at its line in the revision and the step
 * summary gets a table; `--format sarif` validates against SARIF 2.1.0's own JSON Schema (draft-04, with Ajv).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Ajv4 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { repoPath } from '../helpers/spec';

const dir = mkdtempSync(join(tmpdir(), 'contract-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BASE = repoPath('spec/openapi.yaml');

/** What an app used: getUser (200 and 404) and createUser (201), reading id, email and registrationStatus. */
const usage = {
  usageVersion: 1,
  source: 'fixture',
  operations: [
    {
      operationId: 'getUser',
      method: 'GET',
      path: '/s2s/users/{userId}',
      statuses: [200, 404],
      queryParameters: [],
      requestFields: [],
      responseFields: { '200': ['id', 'email', 'registrationStatus'], '404': ['code', 'detail'] },
    },
    {
      operationId: 'createUser',
      method: 'POST',
      path: '/s2s/users',
      statuses: [201],
      queryParameters: [],
      requestFields: ['email', 'firstName', 'lastName', 'phone', 'dateOfBirth', 'country'],
      responseFields: { '201': ['id', 'email'] },
    },
  ],
};
const usagePath = join(dir, 'usage.json');
writeFileSync(usagePath, JSON.stringify(usage));

const base = parseDocument(readFileSync(BASE, 'utf8'));
/** A revision: the spec with one edit, written to a file of its own. */
function revision(name: string, edit: (doc: ReturnType<typeof parseDocument>) => void): string {
  const doc = base.clone();
  edit(doc);
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, doc.toString({ lineWidth: 0 }));
  return path;
}
const dropUserField = (field: string) => (doc: ReturnType<typeof parseDocument>) => {
  doc.deleteIn(['components', 'schemas', 'User', 'properties', field]);
  const required = doc.getIn(['components', 'schemas', 'User', 'required']) as { items: { value: string }[] };
  required.items = required.items.filter((item) => item.value !== field);
};

async function diff(args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_')));
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [repoPath('contract/dist/cli.js'), 'diff', '--base', BASE, ...args],
      { env: { ...clean, ...env } },
    );
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout + e.stderr };
  }
}

describe('card-issuing-contract diff', () => {
  it('a response field the usage lists is removed: exit 1, an ::error at its line, a table in the step summary', async () => {
    const rev = revision('email-removed', dropUserField('email'));
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const run = await diff(['--revision', rev, '--usage', usagePath], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(run.code, run.stdout).toBe(1);
    const errors = run.stdout.split('\n').filter((line) => line.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors).toContainEqual(
      expect.stringMatching(
        /^::error file=.*email-removed\.yaml,line=\d+::GET \/s2s\/users\/\{userId\} response 200 body email: .*the app receives email/,
      ),
    );
    // The line is where the revision's User schema lists its properties (the field is gone; its parent is there).
    const lines = readFileSync(rev, 'utf8').split('\n');
    const line = Number(/line=(\d+)/.exec(errors[0]!)![1]);
    const user = lines.indexOf('    User:');
    expect(line).toBeGreaterThan(user);
    expect(lines[line - 1]).toMatch(/^ {6}(properties|required):/);
    const table = readFileSync(summary, 'utf8');
    expect(table).toMatch(/^### card-issuing-contract diff: \d+ breaking change\(s\) touch the app/);
    expect(table).toContain('| ❌ blocks | GET /s2s/users/{userId} | response 200 body email |');
  });

  it('a field the usage does not list is removed: exit 0 with the usage, 1 without', async () => {
    const rev = revision('kyc-removed', dropUserField('kycStatus'));
    const withUsage = await diff(['--revision', rev, '--usage', usagePath]);
    expect(withUsage.code, withUsage.stdout).toBe(0);
    expect(withUsage.stdout).toMatch(
      /! breaking {2}GET \/s2s\/users\/\{userId\} response 200 body kycStatus: .*\(the app never received kycStatus\)/,
    );
    expect(withUsage.stdout).toMatch(/\d+ breaking, 0 touching what .*usage\.json lists: PASS$/m);
    const without = await diff(['--revision', rev]);
    expect(without.code, without.stdout).toBe(1);
  });

  it('an optional field is added: exit 0', async () => {
    const rev = revision('nickname-added', (doc) =>
      doc.setIn(['components', 'schemas', 'User', 'properties', 'nickname'], doc.createNode({ type: 'string' })),
    );
    for (const args of [['--usage', usagePath], []]) {
      const run = await diff(['--revision', rev, ...args]);
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/non-breaking {2}GET \/s2s\/users\/\{userId\}.*nickname/);
    }
  });

  it('an operation the app never called is removed: exit 0 with the usage (1 without)', async () => {
    const rev = revision('balances-removed', (doc) => doc.deleteIn(['paths', '/s2s/balances']));
    const run = await diff(['--revision', rev, '--usage', usagePath]);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/! breaking {2}GET \/s2s\/balances: .*\(the app never calls this operation\)/);
    expect((await diff(['--revision', rev])).code).toBe(1);
  });

  it('--format sarif validates against SARIF 2.1.0; --format json holds every change; bad input is exit 2', async () => {
    const rev = revision('email-removed-2', dropUserField('email'));
    const sarif = await diff(['--revision', rev, '--usage', usagePath, '--format', 'sarif']);
    expect(sarif.code).toBe(1);
    // The schema has a pattern that is valid only without the u flag (`...{2}]?$`), as SARIF tools read it.
    const ajv = new Ajv4({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(repoPath('test/fixtures/sarif/sarif-2.1.0-rtm.5.json'), 'utf8')),
    );
    const log = JSON.parse(sarif.stdout) as { runs: { results: { level: string }[] }[] };
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0]!.results.map((r) => r.level)).toContain('error');

    const json = JSON.parse((await diff(['--revision', rev, '--usage', usagePath, '--format', 'json'])).stdout) as {
      changes: { blocking: boolean; type: string }[];
      exitCode: number;
    };
    expect(json.exitCode).toBe(1);
    expect(json.changes.filter((c) => c.blocking).every((c) => c.type === 'breaking')).toBe(true);

    for (const args of [
      ['--revision', join(dir, 'missing.yaml')],
      ['--revision', rev, '--usage', rev],
      ['--revision', rev, '--format', 'xml'],
    ]) {
      const bad = await diff(args);
      expect(bad.code, bad.stdout).toBe(2);
      expect(bad.stdout.trim().split('\n')).toHaveLength(1);
    }
  });

  it("--revision may be the proxy's proposed overlay, applied to the base", async () => {
    const overlay = join(dir, 'drift.overlay.yaml');
    writeFileSync(
      overlay,
      [
        'overlay: 1.0.0',
        'info: { title: drift, version: 1.0.0 }',
        'actions:',
        '  - target: "$.components.schemas.User.required[?(@ == \'email\')]"',
        '    remove: true',
      ].join('\n'),
    );
    const run = await diff(['--revision', overlay, '--usage', usagePath]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/✗ BREAKING {2}GET \/s2s\/users\/\{userId\} response 200 body email/);
  });
});
