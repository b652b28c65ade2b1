/**
 * The client's methods come from the spec: two operations added to a scratch copy of the spec (a POST with a body
 * and a list) appear, after generation, as typed methods of the client built from the SDK's own sources, with the
 * right argument and return types (checked by the TypeScript compiler, errors expected where a call is wrong), and
 * they send the right method and path at run time. The repository's own client, generated from the real spec, does
 * not have them (the negative control).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { createClient, type UserConfig } from '@hey-api/openapi-ts';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../openapi-ts.config';
import { loadSpec, repoPath, specExample } from '../helpers/spec';

const scratch = mkdtempSync(join(repoPath('test/spec'), '.scratch-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The spec with `freezeUser` (POST, path parameter and body) and `listUserNotes` (a cursor list) added. */
function scratchSpec(): unknown {
  const spec = loadSpec() as unknown as { paths: Record<string, unknown> };
  const ok = (schema: string) => ({
    '200': {
      description: 'OK',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
    },
  });
  spec.paths['/s2s/users/{userId}/freeze'] = {
    post: {
      operationId: 'freezeUser',
      summary: 'Freeze a user',
      parameters: [{ $ref: '#/components/parameters/UserIdPath' }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['reason'],
              properties: { reason: { type: 'string', maxLength: 200 } },
              additionalProperties: false,
            },
          },
        },
      },
      responses: ok('User'),
    },
  };
  spec.paths['/s2s/users/{userId}/notes'] = {
    get: {
      operationId: 'listUserNotes',
      summary: 'List notes of a user',
      parameters: [
        { $ref: '#/components/parameters/UserIdPath' },
        { $ref: '#/components/parameters/Limit' },
        { $ref: '#/components/parameters/Cursor' },
      ],
      responses: ok('CardList'),
    },
  };
  return spec;
}

interface TypeError {
  code: number;
  line: number;
  text: string;
}

/** Type-checks files beside the scratch SDK in one program, with the repository's compiler options: each one's errors. */
function typeErrors(sources: Record<string, string>): Record<string, TypeError[]> {
  const files = Object.entries(sources).map(([name, source]) => {
    writeFileSync(join(scratch, name), source);
    return join(scratch, name);
  });
  const { config: tsconfig } = ts.readConfigFile(repoPath('tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(tsconfig, ts.sys, repoPath('.'));
  const program = ts.createProgram(files, { ...options, incremental: false, noEmit: true });
  const errors: Record<string, TypeError[]> = Object.fromEntries(Object.keys(sources).map((name) => [name, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? relative(scratch, d.file.fileName) : '(global)';
    errors[name] ??= [];
    errors[name].push({
      code: d.code,
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    });
  }
  return errors;
}

const usage = (sdk: string) => `
import { createCardIssuingClient, type ApiPromise, type CardList, type PagePromise, type User } from ${JSON.stringify(sdk)};
const client = createCardIssuingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', apiSecret: 's' });
export const frozen: ApiPromise<User> = client.s2s.users.freezeUser('u', { reason: 'lost' }, { idempotencyKey: 'k-1' });
export const notes: PagePromise<CardList> = client.s2s.users.listUserNotes('u', { limit: 5 });
// @ts-expect-error the body is required
client.s2s.users.freezeUser('u');
// @ts-expect-error reason is a string
client.s2s.users.freezeUser('u', { reason: 1 });
// @ts-expect-error a list takes no body
client.s2s.users.listUserNotes('u', { reason: 'x' }, {});
`;

describe('an operation added to the spec', () => {
  beforeAll(async () => {
    const specFile = join(scratch, 'openapi.json');
    writeFileSync(specFile, JSON.stringify(scratchSpec()));
    const jobs = [(await config) as UserConfig | readonly UserConfig[]].flat() as (Omit<UserConfig, 'output'> & {
      output: { path: string } & Record<string, unknown>;
    })[];
    for (const job of jobs) {
      const target = join(scratch, job.output.path);
      mkdirSync(target, { recursive: true });
      await createClient({
        ...job,
        input: specFile,
        output: { ...job.output, path: target },
        logs: { level: 'silent' },
      } as UserConfig);
    }
    cpSync(repoPath('sdk/src'), join(scratch, 'sdk/src'), { recursive: true });
  }, 60_000);

  it('is a typed method of the client after generation, wrong calls do not compile; the real client has no such method', () => {
    const errors = typeErrors({
      'uses-scratch.ts': usage('./sdk/src/index'),
      'uses-repo.ts': usage(repoPath('sdk/src/index')),
    });
    expect(errors).toEqual({ 'uses-scratch.ts': [], 'uses-repo.ts': expect.any(Array) });
    // The negative control: Property 'freezeUser' / 'listUserNotes' does not exist (the lines marked as expected
    // errors fail too, silently).
    expect(
      errors['uses-repo.ts']!.map((e) => [e.code, e.line, e.text.match(/^Property '(\w+)' does not exist/)?.[1]]),
    ).toEqual([
      [2339, 4, 'freezeUser'],
      [2339, 5, 'listUserNotes'],
    ]);
  }, 60_000);

  describe('at run time', () => {
    let server: Server;
    let baseUrl: string;
    const seen: { method: string; url: string; body: string; idempotencyKey: string | undefined }[] = [];
    beforeAll(async () => {
      const user = specExample('GET', '/s2s/users/u1').example;
      const cards = specExample('GET', '/s2s/cards').example;
      server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          seen.push({
            method: request.method!,
            url: request.url!,
            body,
            idempotencyKey: request.headers['idempotency-key'] as string | undefined,
          });
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(request.method === 'POST' ? user : cards));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends its method, path, query and body, with an idempotency key on the POST, and validates the response', async () => {
      const sdk = (await import(
        /* @vite-ignore */ join(scratch, 'sdk/src/index.ts')
      )) as typeof import('../../sdk/src/index');
      const client = sdk.createCardIssuingClient({ baseUrl, apiKey: 'k', apiSecret: 's' });
      const methods = client.s2s.users as unknown as Record<
        string,
        (...args: unknown[]) => Promise<{ id?: string; items?: unknown[] }>
      >;
      const userId = '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f';
      expect((await methods.freezeUser!(userId, { reason: 'lost' })).id).toBeDefined();
      expect((await methods.listUserNotes!(userId, { limit: 5 })).items).toBeDefined();
      expect(seen.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
        { method: 'POST', url: `/s2s/users/${userId}/freeze`, body: '{"reason":"lost"}' },
        { method: 'GET', url: `/s2s/users/${userId}/notes?limit=5`, body: '' },
      ]);
      // The generated HTTP method decides it: the POST carries a key (retries are on by default), the GET none.
      expect(seen.map((s) => typeof s.idempotencyKey)).toEqual(['string', 'undefined']);
    });
  });
});
