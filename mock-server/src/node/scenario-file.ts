/**
 * Reading a scenario file (JSON or YAML) for `--scenario` and `loadScenarioFile`: parsed, then checked whole by the
 * builders' schemas when it is applied. A file that cannot be read or parsed is a readable error naming it.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Scenario } from '../control';

/** The scenario in `path`: JSON (`.json`) or YAML (anything else; JSON is YAML too). */
export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the scenario ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  try {
    return (path.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Scenario;
  } catch (error) {
    throw new Error(
      `The scenario ${path} is not ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
}
