/**
 * The `usage` command's files: the usage file, checked against the package's JSON Schema before it is written, and
 * the Pact.
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { pactOf, readUsage, usageFile } from './usage';

/** The usage file's JSON Schema, as the package ships it (beside the CLI). */
export const usageSchemaPath = (): string => fileURLToPath(new URL('./usage.schema.json', import.meta.url));

const write = (path: string, value: unknown) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
};

/** Reads the usage at `from`, writes `out` (and `pact`); returns the line to print. */
export async function writeUsage(options: {
  from: string;
  out: string;
  pact?: string;
  consumer: string;
  specPath: string;
}): Promise<string> {
  const read = await readUsage(options.from, options.specPath);
  const usage = usageFile(read, options.from);
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(usageSchemaPath(), 'utf8')) as object,
  );
  if (!validate(usage)) throw new Error(`the usage file breaks its schema: ${JSON.stringify(validate.errors?.[0])}`);
  write(options.out, usage);
  const statuses = usage.operations.reduce((n, o) => n + o.statuses.length, 0);
  let line = `wrote ${options.out}: ${usage.operations.length} operation(s), ${statuses} operation status(es)`;
  if (options.pact) {
    const pact = pactOf(read, { consumer: options.consumer, provider: 'card-issuing-api' }, options.specPath) as {
      interactions: unknown[];
    };
    write(options.pact, pact);
    line += `; ${options.pact}: a Pact v4 contract of ${pact.interactions.length} interaction(s)`;
  }
  return line;
}
