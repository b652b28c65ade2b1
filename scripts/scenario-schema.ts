/**
 * Writes mock-server/scenario.schema.json (shipped as `card-issuing-mock/scenario.schema.json`) from the builders'
 * option schemas: `npm run generate:scenario-schema`. test/mock/scenarios.test.ts fails while it is out of date.
 */
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchema } from '../mock-server/src/control/given/json-schema';

writeFileSync(
  new URL('../mock-server/scenario.schema.json', import.meta.url),
  `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`,
);
