/**
 * The catalogue of damaged state files: each is refused at start by the built CLI, exit 1, with one clear message
 * naming the file and no stack trace, and every file in its folder is left byte for byte as it was (nothing deleted,
 * nothing rewritten, nothing added). Read-only and disk-full are real: a tmpfs mounted read-only, and one filled to
 * its last byte, in a user and mount namespace of their own (unshare), so nothing on the machine is touched.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock-server/src/node.js';
import { builtCli, newUser, runCli, signedFetch } from './helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'cim-damage-'));

/** Every file of a folder with the sha-256 of its bytes. */
const files = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((n) => [
        n,
        createHash('sha256')
          .update(readFileSync(join(dir, n)))
          .digest('hex'),
      ]),
  );

/** A real state file: the seeded state and 200 users (several pages), closed cleanly. */
let good: Buffer;
beforeAll(async () => {
  const file = join(folder(), 'state.db');
  const server = await startMockServer({ port: 0, stateFile: file });
  await Promise.all(
    Array.from({ length: 200 }, () => signedFetch(server.url, 'POST', '/s2s/users', { body: newUser('d') })),
  );
  await server.close();
  good = readFileSync(file);
});

/** The CLI on `file`: it must exit 1 with a message naming the file that matches `message`, and touch nothing. */
async function refusedAtStart(file: string, message: RegExp): Promise<void> {
  const dir = join(file, '..');
  const before = files(dir);
  const cli = runCli(['--port', '0', '--state-file', file]);
  const { code } = await cli.exited;
  expect(code).toBe(1);
  expect(cli.stderr).toContain(file);
  expect(cli.stderr).toMatch(message);
  expect(cli.stderr).not.toMatch(/^\s+at /m);
  expect(cli.stderr.trim().split('\n')).toHaveLength(1);
  expect(cli.stdout).not.toContain('listening');
  expect(files(dir)).toEqual(before);
}

describe('a damaged state file is refused at start, every file left as it was', () => {
  it('truncated', async () => {
    const file = join(folder(), 'state.db');
    writeFileSync(file, good);
    truncateSync(file, Math.floor(good.length / 2));
    await refusedAtStart(file, /fails PRAGMA integrity_check|is a damaged SQLite database/);
  });

  it('a page of garbage in the middle', async () => {
    const file = join(folder(), 'state.db');
    const bytes = Buffer.from(good);
    bytes.fill(0x5a, 4096 * 2, 4096 * 3);
    writeFileSync(file, bytes);
    await refusedAtStart(file, /fails PRAGMA integrity_check|is a damaged SQLite database/);
  });

  it('truncated inside its header', async () => {
    const file = join(folder(), 'state.db');
    writeFileSync(file, good.subarray(0, 60));
    await refusedAtStart(file, /truncated SQLite file/);
  });

  it('a foreign file', async () => {
    const file = join(folder(), 'state.db');
    writeFileSync(file, '#!/bin/sh\necho this is not a state file\n');
    await refusedAtStart(file, /is not a card-issuing-mock state file/);
  });

  it("another application's SQLite database", async () => {
    const file = join(folder(), 'state.db');
    const db = new DatabaseSync(file);
    db.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES (1);');
    db.close();
    await refusedAtStart(file, /SQLite database of another application \(application_id 0x00000000\)/);
  });

  it('a newer schema version: says to run the newer mock', async () => {
    const file = join(folder(), 'state.db');
    writeFileSync(file, good);
    const db = new DatabaseSync(file);
    db.exec('PRAGMA user_version = 99');
    db.close();
    await refusedAtStart(file, /written by a newer card-issuing-mock \(state file schema 99; this one reads up to 2\)/);
  });

  it('an empty file', async () => {
    const file = join(folder(), 'state.db');
    writeFileSync(file, '');
    await refusedAtStart(file, /is empty/);
  });
});

/**
 * The CLI on a copy of the good file in a tmpfs of its own, prepared by `prepare` (shell, `$D` the mount): its exit
 * code, stderr, and the files of the mount (name and sha-256) before and after.
 */
function inTmpfs(prepare: string): { code: number; stderr: string; before: string; after: string } | undefined {
  const source = join(folder(), 'good.db');
  writeFileSync(source, good);
  const script = `
    set -e
    D=$(mktemp -d)
    mount -t tmpfs -o size=1m tmpfs "$D"
    cp "$SOURCE" "$D/state.db"
    ${prepare}
    (cd "$D" && sha256sum * | sort) > "$D.before"
    set +e
    "$NODE" "$CLI" --port 0 --state-file "$D/state.db" 2> "$D.stderr" > /dev/null
    echo "exit $?"
    (cd "$D" && sha256sum * | sort) > "$D.after"
    echo "stderr $(cat "$D.stderr")"
    echo "before $(cat "$D.before" | tr '\\n' ' ')"
    echo "after $(cat "$D.after" | tr '\\n' ' ')"
  `;
  const run = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script], {
    env: { ...process.env, SOURCE: source, NODE: process.execPath, CLI: builtCli() },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (run.error || (run.status !== 0 && !run.stdout.includes('exit '))) return undefined;
  const line = (name: string) =>
    (run.stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '').slice(name.length + 1);
  return { code: Number(line('exit')), stderr: line('stderr'), before: line('before'), after: line('after') };
}

const namespaces = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'true']).status === 0;

describe('a state file the server cannot write (a real read-only mount, a real full disk)', () => {
  it('has the namespaces it needs (unshare --user --mount), or says so', () => {
    expect(namespaces, 'unshare --user --map-root-user --mount is needed for the read-only and disk-full cases').toBe(
      true,
    );
  });

  it('read-only: refused at start, naming the file; every file as it was', () => {
    const run = inTmpfs('mount -o remount,ro "$D"');
    expect(run).toBeDefined();
    expect(run!.code).toBe(1);
    expect(run!.stderr).toMatch(/state\.db/);
    expect(run!.stderr).toMatch(/EROFS|read-only|readonly/i);
    expect(run!.after).toBe(run!.before);
  });

  it('read-only file in a writable folder: refused at start by SQLite, naming the file; every file as it was', () => {
    const run = inTmpfs('mount --bind "$D/state.db" "$D/state.db" && mount -o remount,ro,bind "$D/state.db"');
    expect(run).toBeDefined();
    expect(run!.code).toBe(1);
    expect(run!.stderr).toMatch(/Cannot write the state file .*state\.db/);
    expect(run!.stderr).toMatch(/readonly|read-only/i);
    expect(run!.after).toBe(run!.before);
  });

  it('disk full with room for the lock but not for a commit: refused at start; every file as it was', () => {
    const run = inTmpfs('dd if=/dev/zero of="$D/filler" bs=4096 2>/dev/null || true; truncate -s -8192 "$D/filler"');
    expect(run).toBeDefined();
    expect(run!.code).toBe(1);
    expect(run!.stderr).toMatch(/Cannot write the state file .*state\.db/);
    expect(run!.stderr).toMatch(/full|ENOSPC|space/i);
    expect(run!.after).toBe(run!.before);
  });

  it('disk full: refused at start, naming the file; every file as it was', () => {
    const run = inTmpfs('dd if=/dev/zero of="$D/filler" bs=4096 2>/dev/null || true');
    expect(run).toBeDefined();
    expect(run!.code).toBe(1);
    expect(run!.stderr).toMatch(/state\.db/);
    expect(run!.stderr).toMatch(/full|ENOSPC|space/i);
    expect(run!.after).toBe(run!.before);
  });

  it('disk full while serving: the change is answered 503 and not acknowledged; once there is room, every change is saved', () => {
    const script = `
      set -e
      D=$(mktemp -d)
      mount -t tmpfs -o size=1m tmpfs "$D"
      # The server's stdout through a FIFO: read until it says where it listens (however long that takes), then
      # drained in the background so that its request log never blocks it.
      start() {
        rm -f "$D.fifo"; mkfifo "$D.fifo"
        "$NODE" "$CLI" --port 0 --no-auth --state-file "$D/state.db" > "$D.fifo" 2> "$D.err" &
        PID=$!
        exec 3< "$D.fifo"
        URL=
        while [ -z "$URL" ] && IFS= read -r line <&3; do
          URL=$(printf '%s\n' "$line" | grep -o 'listening on http://[^ ]*' | cut -d' ' -f3 || true)
        done
        cat <&3 > /dev/null &
        exec 3<&-
      }
      post() {
        curl -s -o "$D.body" -w '%{http_code}' -X POST "$URL/s2s/users" -H 'content-type: application/json' \
          -d "{\\"email\\":\\"$1@example.org\\",\\"firstName\\":\\"A\\",\\"lastName\\":\\"L\\",\\"phone\\":\\"+447700900123\\",\\"dateOfBirth\\":\\"1990-12-10\\",\\"country\\":\\"GB\\"}"
      }
      start
      echo "first $(post first) $(grep -o '"id":"[^"]*"' "$D.body" | cut -d'"' -f4)"
      dd if=/dev/zero of="$D/filler" bs=4096 2>/dev/null || true
      echo "full $(post full) $(grep -o '"code":"[^"]*"' "$D.body" | cut -d'"' -f4)"
      rm "$D/filler"
      echo "room $(post room) $(grep -o '"id":"[^"]*"' "$D.body" | cut -d'"' -f4)"
      kill -9 $PID; wait $PID 2>/dev/null || true
      start
      echo "users $(curl -s "$URL/__mock/state" | grep -o '"email":"[a-z]*@example.org"' | sort | tr '\\n' ' ')"
      kill -9 $PID
    `;
    const run = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script], {
      env: { ...process.env, NODE: process.execPath, CLI: builtCli() },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const line = (name: string) => (run.stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '').split(' ');
    expect(line('first')[1], run.stdout + run.stderr).toBe('201');
    expect(line('full').slice(1)).toEqual(['503', 'STATE_NOT_SAVED']);
    expect(line('room')[1]).toBe('201');
    // Every acknowledged user survived the kill -9 (and the one answered 503 was saved with the next commit).
    expect(line('users')).toEqual(
      expect.arrayContaining(['"email":"first@example.org"', '"email":"room@example.org"']),
    );
  });
});
