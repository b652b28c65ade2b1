import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoPath, specOperations } from '../helpers/spec';

// The interface document's three endpoint tables are the list of operations; the spec must hold exactly those.
const document = readFileSync(repoPath('spec/source/service-interface.md'), 'utf8');

/** Rows `| METHOD | \`path\` | ... |` of the document's section 4 tables, grouped by sub-section. */
function documentOperations(): { area: string; method: string; path: string }[] {
  const rows: { area: string; method: string; path: string }[] = [];
  let area = '';
  for (const line of document.split('\n')) {
    const heading = /^### 4\.\d (.+)$/.exec(line);
    if (heading) area = heading[1]!;
    const row = /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/.exec(line);
    // The contract (section 5) names the segment the document leaves out of the Wallet App consent path.
    if (row && area) rows.push({ area, method: row[1]!, path: row[2]!.replace('/app/.../', '/app/deposits/') });
  }
  return rows;
}

describe('spec against the interface document', () => {
  const fromDocument = documentOperations();
  const fromSpec = specOperations();
  const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

  it('reads 18 + 6 + 8 operations from the document tables', () => {
    const count = (area: string) => fromDocument.filter((o) => o.area.startsWith(area)).length;
    expect([count('Server2Server'), count('Wallet App'), count('Business')]).toEqual([18, 6, 8]);
  });

  it('has exactly the 32 operations of the document, none missing and none extra', () => {
    expect(fromSpec.map(key).sort()).toEqual(fromDocument.map(key).sort());
    expect(new Set(fromSpec.map(key)).size).toBe(32);
  });

  it('keeps the create-approval path with `corporates` twice, as written', () => {
    expect(fromSpec.map(key)).toContain('POST /corporates/corporates/{corporateUuid}/approvals');
  });

  it('tags each operation with the area of its table', () => {
    const areaOf = new Map(fromDocument.map((o) => [key(o), o.area]));
    for (const op of fromSpec) {
      const area = areaOf.get(key(op))!;
      const tag = area.startsWith('Server2Server')
        ? 'Server2Server'
        : area.startsWith('Wallet')
          ? 'Wallet App'
          : 'Business cards';
      expect(op.operation.tags, op.operationId).toEqual([tag]);
    }
  });

  it('keeps its copies of the sources equal to shared/ where that folder is beside the clone', () => {
    for (const [copy, source] of [
      ['spec/source/service-interface.md', '../shared/seed/service-interface.md'],
      ['spec/source/contract.md', '../shared/contract.md'],
    ] as const) {
      const original = repoPath(source);
      if (!existsSync(original)) continue;
      expect(readFileSync(repoPath(copy), 'utf8'), copy).toBe(readFileSync(original, 'utf8'));
    }
  });
});
