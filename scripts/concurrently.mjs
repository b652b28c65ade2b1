// Runs npm scripts side by side (`node scripts/concurrently.mjs typecheck build:js`), prints each one's output once
// it ends (never interleaved), and exits non-zero when any of them failed. npm test uses it to type-check while the
// packages build and the linters (Biome, knip, jscpd, the layer check) run, then to run the tests while the type
// check goes on (two cores: tsc's minute of work overlaps the tests' waits on servers and child processes).
//
// `--then <script>` runs that script once every other one has passed, its output shown as it comes, with the arguments
// that follow it (so `npm test -- test/sdk` still picks the test files). A script named
// with `--alongside <script>` does not hold `--then` back: it goes on beside it (only the type check can: the tests
// write scratch files under test/, which tsc skips as dot-files but the linters would read).
import { spawn } from 'node:child_process';

const before = [];
const alongside = [];
let then;
let thenArgs = [];
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--alongside') alongside.push(process.argv[++i]);
  else if (arg === '--then') {
    then = process.argv[++i];
    thenArgs = process.argv.slice(i + 1);
    break;
  } else before.push(arg);
}

/** Runs `npm run <name>`; resolves with whether it passed, after printing its status (and its output if it failed). */
function run(name) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => {
      process.stdout.write(`> npm run ${name}: ${code === 0 ? 'ok' : `exit ${code}`}\n${code === 0 ? '' : output}`);
      resolve(code === 0);
    });
  });
}

/** Runs `npm run <name> -- <args>` with the terminal's output; resolves with whether it passed. */
function runShown(name, args) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name, '--', ...args], { stdio: 'inherit' });
    child.once('close', (code) => resolve(code === 0));
  });
}

const side = alongside.map(run);
const first = await Promise.all(before.map(run));
const last = then && first.every(Boolean) ? [await runShown(then, thenArgs)] : [];
const results = [...first, ...last, ...(await Promise.all(side))];
process.exitCode = results.every(Boolean) ? 0 : 1;
