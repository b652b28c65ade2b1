#!/usr/bin/env node
// After `stryker run` (npm run test:mutation): the score of each area from Stryker's JSON report, as the table
// docs/benchmarks.md keeps, and every mutant that survived in signing and verification (each must be killed or
// explained there). Exits 1 when signing and verification is under 90 %.
import { readFileSync } from 'node:fs';

const AREAS = [
  { name: 'signing and verification', match: /^sdk\/src\/signing\//, floor: 90 },
  { name: 'state machines', match: /^mock-server\/src\/machines\// },
  { name: 'money rules', match: /^mock-server\/src\/domain\/(holds|settle|authorizations|budget[\w-]*)\.ts$/ },
];
const report = JSON.parse(readFileSync('reports/mutation/mutation.json', 'utf8'));
const DETECTED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

let failed = false;
console.log('| area | mutants | killed | survived | no coverage | score |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const area of AREAS) {
  const mutants = Object.entries(report.files)
    .filter(([file]) => area.match.test(file))
    .flatMap(([file, { mutants, source }]) =>
      mutants.map((m) => ({ ...m, file, line: source.split('\n')[m.location.start.line - 1] })),
    );
  const counted = mutants.filter((m) => COUNTED.has(m.status));
  const killed = counted.filter((m) => DETECTED.has(m.status)).length;
  const survived = counted.filter((m) => m.status === 'Survived').length;
  const uncovered = counted.filter((m) => m.status === 'NoCoverage').length;
  const score = counted.length === 0 ? 0 : (100 * killed) / counted.length;
  console.log(`| ${area.name} | ${counted.length} | ${killed} | ${survived} | ${uncovered} | ${score.toFixed(1)} % |`);
  if (area.floor !== undefined && score < area.floor) failed = true;
  area.survivors = area.floor === undefined ? [] : counted.filter((m) => !DETECTED.has(m.status));
}
for (const area of AREAS.filter((a) => a.survivors.length > 0)) {
  console.log(`\nSurvivors in ${area.name}:`);
  for (const m of area.survivors)
    console.log(
      `- ${m.file}:${m.location.start.line} ${m.mutatorName} → ${JSON.stringify(m.replacement ?? '')} | ${m.line.trim()}`,
    );
}
if (failed) {
  console.error('\nSigning and verification is under 90 % of mutants killed.');
  process.exit(1);
}
