/**
 * `npm run test:contract`: the contract suite as CI pipelines install it (the built `card-issuing-contract` bin,
 * one suite) against the standalone mock it starts here, or against CONTRACT_BASE_URL when set. Arguments after
 * `--` go to `card-issuing-contract run` (`--junit FILE`, `--json FILE`, suite file names, ...).
 */
import { spawn } from 'node:child_process';
import { startMockServer } from 'card-issuing-mock/node';
import { repoPath } from '../helpers/spec';

const external = process.env.CONTRACT_BASE_URL;
const server = external ? undefined : await startMockServer({ port: 0 });
const baseUrl = external ?? server!.url;
const credentials = process.env.CONTRACT_API_KEY
  ? ['--api-key', process.env.CONTRACT_API_KEY, '--api-secret', process.env.CONTRACT_API_SECRET ?? '']
  : [];

const child = spawn(
  process.execPath,
  [repoPath('contract/dist/cli.js'), 'run', '--base-url', baseUrl, ...credentials, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
await server?.close();
process.exitCode = code;
