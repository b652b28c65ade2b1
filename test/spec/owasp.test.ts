/**
 * Spectral's OWASP API Security ruleset (`.spectral.yaml`) on spec/openapi.yaml: no error, and every warning that
 * remains is one the ruleset file explains. One CLI call (about 3 s), so it runs in `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/spec';

interface Finding {
  code: string;
  severity: number; // 0 error, 1 warning, 2 info, 3 hint
  path: string[];
  message: string;
}

function lint(): Finding[] {
  // Spectral exits 1 when it reports anything at or above --fail-severity; the findings are on stdout either way.
  const bin = repoPath('node_modules/.bin/spectral');
  try {
    return JSON.parse(
      execFileSync(
        bin,
        ['lint', 'spec/openapi.yaml', '-r', '.spectral.yaml', '-f', 'json', '--quiet', '--fail-severity', 'error'],
        {
          cwd: repoPath('.'),
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    ) as Finding[];
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout) as Finding[];
    throw error;
  }
}

describe('OWASP API Security ruleset', () => {
  const findings = lint();
  const ruleset = readFileSync(repoPath('.spectral.yaml'), 'utf8');

  it('reports no error', () => {
    const errors = findings
      .filter((f) => f.severity === 0)
      .map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`);
    expect(errors).toEqual([]);
  });

  it('leaves only warnings the ruleset file explains', () => {
    const unexplained = [...new Set(findings.filter((f) => f.severity > 0).map((f) => f.code))].filter(
      // An explanation is a comment that names the rule and says why.
      (code) => !new RegExp(`^\\s*#\\s*${code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b.*\\S`, 'm').test(ruleset),
    );
    expect(unexplained).toEqual([]);
  });
});
