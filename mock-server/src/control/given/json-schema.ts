/**
 * The JSON Schema of a scenario file, generated from the builders' own option schemas (one source): the package
 * ships it as `card-issuing-mock/scenario.schema.json` for editors, and a test keeps the shipped file equal to this.
 * @module
 */
import * as z from 'zod';
import { zScenario } from './options';

/** Where the schema says it lives (editors key it by this). */
export const SCENARIO_SCHEMA_ID = 'https://unpkg.com/card-issuing-mock/scenario.schema.json';

/** The scenario's JSON Schema (draft 2020-12), as the input a file gives. */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(zScenario, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return {
    $schema: schema.$schema,
    $id: SCENARIO_SCHEMA_ID,
    title: 'card-issuing-mock scenario',
    description:
      'Builders applied in order to the mock\'s state ("kind" names the builder; "as" names what it made, for later entries\' "user" or "corporate").',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}
