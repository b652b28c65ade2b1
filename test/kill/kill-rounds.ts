/**
 * `npm run test:kill`: the state file loses nothing it acknowledged. 100 rounds of: start the built CLI on one state
 * file, check that every change acknowledged in the round before is there, put it under write load (users created,
 * the clock advanced, from several concurrent clients), and `kill -9` it at a random moment. At the end every
 * acknowledged user of every round must be there and the clock never behind its last acknowledged value. Then a
 * second server on a file in use must exit 1 naming the file and the holder. Outside `npm test` (it takes minutes);
 * `.ci/run` runs it. Exits 1 on any loss.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { control, newUser, runCli, signedFetch, startCli } from '../server/helpers';

const ROUNDS = Number(process.env.KILL_ROUNDS ?? 100);
const WORKERS = 6;
const file = join(mkdtempSync(join(tmpdir(), 'cim-kill-')), 'state.json');

interface Acked {
  id: string;
  email: string;
  round: number;
}

const acked: Acked[] = [];
let clockAcked = 0;
let failures = 0;
const fail = (message: string) => {
  failures++;
  console.error(`LOST: ${message}`);
};

/** Every acknowledged user in `which` is there with its e-mail; returns how many were checked. */
async function check(url: string, which: Acked[]): Promise<void> {
  for (let i = 0; i < which.length; i += 20) {
    await Promise.all(
      which.slice(i, i + 20).map(async (a) => {
        const got = await signedFetch(url, 'GET', `/s2s/users/${a.id}`);
        if (got.status !== 200 || got.body.email !== a.email)
          fail(`user ${a.id} acknowledged in round ${a.round}: GET answered ${got.status}`);
      }),
    );
  }
  const now = Date.parse((await control(url, 'GET', '/clock')).body.now);
  if (now < clockAcked)
    fail(
      `the clock is at ${new Date(now).toISOString()}, behind the acknowledged ${new Date(clockAcked).toISOString()}`,
    );
}

const started = Date.now();
let killedWithRequestsInFlight = 0;
for (let round = 1; round <= ROUNDS; round++) {
  const { cli, url } = await startCli(['--port', '0', '--state-file', file]);
  await check(
    url,
    acked.filter((a) => a.round === round - 1),
  );

  let stop = false;
  let inFlight = 0;
  const workers = Array.from({ length: WORKERS }, async (_, w) => {
    while (!stop) {
      inFlight++;
      try {
        if (w === 0) {
          const res = await control(url, 'POST', '/clock/advance', { seconds: 60 });
          if (res.status === 200) clockAcked = Math.max(clockAcked, Date.parse(res.body.now));
        } else {
          const body = newUser(`k${round}w${w}`);
          const res = await signedFetch(url, 'POST', '/s2s/users', { body });
          if (res.status === 201) acked.push({ id: res.body.id, email: body.email, round });
        }
      } catch {
        // The connection died with the server: that request was never acknowledged.
      } finally {
        inFlight--;
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 30 + Math.random() * 300));
  if (inFlight > 0) killedWithRequestsInFlight++;
  cli.child.kill('SIGKILL');
  await cli.exited;
  stop = true;
  await Promise.all(workers);
  if (round % 10 === 0) console.log(`round ${round}/${ROUNDS}: ${acked.length} users acknowledged so far`);
}

// Every acknowledged write of every round, after the last kill.
const last = await startCli(['--port', '0', '--state-file', file]);
await check(last.url, acked);

// One server per file: a second one exits 1 and says which file and which process holds it.
const second = runCli(['--port', '0', '--state-file', file]);
const { code } = await second.exited;
if (code !== 1 || !second.stderr.includes(file) || !second.stderr.includes(`pid ${last.cli.child.pid}`)) {
  failures++;
  console.error(
    `A second server on ${file} did not exit 1 naming the file and pid ${last.cli.child.pid}: exit ${code}, ${second.stderr.trim()}`,
  );
} else {
  console.log(`second server refused: ${second.stderr.trim()}`);
}
last.cli.child.kill('SIGTERM');
await last.cli.exited;

console.log(
  `kill -9 rounds: ${ROUNDS} (${killedWithRequestsInFlight} with requests in flight), acknowledged writes: ${acked.length} users + clock moves, lost: ${failures}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`${failures === 0 ? ROUNDS : 0} passed, ${failures === 0 ? 0 : 1} failed`);
process.exit(failures === 0 ? 0 : 1);
