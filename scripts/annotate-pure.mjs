// Post-processing step of `npm run generate` (openapi-ts.config.ts): marks every zod call of a generated schema
// module `/* @__PURE__ */`, so that a bundler drops every schema a page does not use. zod/mini's constructors
// have no side effects, but bundlers cannot see that through `z.object(...)` with calls in its arguments, nor
// through `z.string().check(...)`; without the marks a page that uses one schema keeps all of them.
// Usage: node scripts/annotate-pure.mjs <file.ts>
import { readFileSync, writeFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('Usage: node scripts/annotate-pure.mjs <zod.gen.ts>');
  process.exit(2);
}
const source = readFileSync(file, 'utf8');
const annotated = source
  .split('\n')
  // Comment lines (TSDoc from the spec's descriptions) are left as they are.
  // Idempotent: marks already there are taken off first (the generator may run over its own output).
  .map((line) =>
    /^\s*(\/\*\*|\*)/.test(line)
      ? line
      : line
          .replaceAll('/* @__PURE__ */ ', '')
          .replace(/(?<![\w.$])(z\.[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\()/g, '/* @__PURE__ */ $1'),
  )
  .join('\n');
writeFileSync(file, annotated);
