// Runs npm scripts side by side (`node scripts/concurrently.mjs typecheck build:js`), prints each one's output once
// it ends (never interleaved), and exits non-zero when any of them failed. npm test uses it to type-check while the
// packages build and the linters (Biome, knip, jscpd, the layer check) run.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.once('close', (code) => {
          process.stdout.write(`> npm run ${name}: ${code === 0 ? 'ok' : `exit ${code}`}\n${code === 0 ? '' : output}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exitCode = results.every(Boolean) ? 0 : 1;
