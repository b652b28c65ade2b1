#!/usr/bin/env node
// After `stryker run` (npm run test:mutation): the score of each area from Stryker's JSON report, as the table
// docs/benchmarks.md keeps, and every mutant that survived (each must be killed or explained there). Exits 1 when
// signing and verification is under 90 %, or when a mutated file belongs to no area (stryker.config.mjs's mutate
// list and these areas must agree). An area the run did not mutate (`stryker run --mutate` on part) reads "not run".
import { readFileSync } from 'node:fs';

const AREAS = [
  { name: 'signing and verification', match: /^sdk\/src\/signing\//, floor: 90 },
  { name: 'state machines', match: /^mock-server\/src\/machines\// },
  {
    name: 'money rules',
    match: /^mock-server\/src\/domain\/(approval-checks|authorizations|holds|lifecycle|money|settle)\.ts$/,
  },
];
const report = JSON.parse(readFileSync('reports/mutation/mutation.json', 'utf8'));
const DETECTED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

let failed = false;
const stray = Object.keys(report.files).filter((file) => !AREAS.some((area) => area.match.test(file)));
console.log('| area | mutants | killed | survived | no coverage | score |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const area of AREAS) {
  const mutants = Object.entries(report.files)
    .filter(([file]) => area.match.test(file))
    .flatMap(([file, { mutants, source }]) =>
      mutants.map((m) => ({ ...m, file, line: source.split('\n')[m.location.start.line - 1] })),
    );
  const counted = mutants.filter((m) => COUNTED.has(m.status));
  area.survivors = counted.filter((m) => !DETECTED.has(m.status));
  if (counted.length === 0) {
    console.log(`| ${area.name} | not run | | | | |`);
    continue;
  }
  const killed = counted.length - area.survivors.length;
  const survived = counted.filter((m) => m.status === 'Survived').length;
  const score = (100 * killed) / counted.length;
  console.log(
    `| ${area.name} | ${counted.length} | ${killed} | ${survived} | ${area.survivors.length - survived} | ${score.toFixed(1)} % |`,
  );
  if (area.floor !== undefined && score < area.floor) {
    console.error(`\n${area.name} is under ${area.floor} % of mutants killed.`);
    failed = true;
  }
}
for (const area of AREAS.filter((a) => a.survivors.length > 0)) {
  console.log(`\nSurvivors in ${area.name}:`);
  for (const m of area.survivors)
    console.log(
      `- ${m.file}:${m.location.start.line} ${m.mutatorName} → ${JSON.stringify(m.replacement ?? '')} | ${m.line.trim()}`,
    );
}
if (stray.length > 0) {
  console.error(`\nMutated files in no area (add them to an area here): ${stray.join(', ')}`);
  failed = true;
}
if (failed) process.exit(1);
