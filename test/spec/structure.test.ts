import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadSpec, repoPath, specOperations } from '../helpers/spec';

const spec = loadSpec();
const operations = specOperations(spec);
const refName = (p: { $ref?: string; name?: string }) => (p.$ref ? p.$ref.split('/').pop() : p.name);

describe('spec structure', () => {
  it('gives every operation a unique operationId, a summary and the HMAC security scheme', () => {
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    expect(spec.security).toEqual([{ HMACSHA256: [] }]);
    for (const { operationId, operation } of operations) {
      expect(operation.summary, operationId).toBeTruthy();
      // No operation opts out of the top-level security requirement.
      expect(operation.security, operationId).toBeUndefined();
    }
  });

  it('lists on every operation the error statuses of contract section 4 that it can return', () => {
    for (const { operationId, operation, path } of operations) {
      const statuses = Object.keys(operation.responses);
      for (const always of ['400', '401', '429', '5XX']) expect(statuses, operationId).toContain(always);
      if (path.includes('{')) expect(statuses, operationId).toContain('404');
      for (const [status, response] of Object.entries(operation.responses)) {
        if (/^[45]/.test(status))
          expect(response.$ref, `${operationId} ${status}`).toMatch(/^#\/components\/responses\//);
      }
    }
  });

  it('accepts Idempotency-Key on every mutating POST, and only there', () => {
    for (const { method, operationId, operation } of operations) {
      const names = (operation.parameters ?? []).map(refName);
      expect(names.includes('IdempotencyKey'), operationId).toBe(method === 'POST');
    }
  });

  it('has an example on every schema and on every success response', () => {
    for (const [name, schema] of Object.entries(spec.components.schemas)) {
      expect(schema.examples?.length ?? 0, name).toBeGreaterThan(0);
    }
    for (const { operationId, operation } of operations) {
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect(success.length, operationId).toBe(1);
      for (const [, response] of success) {
        expect(response.content?.['application/json']?.example, operationId).toBeDefined();
      }
    }
  });

  it('passes redocly lint with the recommended rules, with no error or warning', () => {
    const result = spawnSync('npx', ['redocly', 'lint', 'spec/openapi.yaml', '--format', 'stylish'], {
      cwd: repoPath('.'),
      encoding: 'utf8',
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.status, output).toBe(0);
    expect(output).not.toMatch(/warning/i);
  });
});
