// The PostgreSQL store at its edges, through the real binary and the library (docs/decisions/0340-store-postgres.md,
// docs/decisions/0370-probe-store-postgres-and-library.md): a database user who may read but not write gets
// one line naming the missing privilege (not an "unexpected error") and `tack doctor` names it too; the password is redacted from
// tack's output wherever it came from — the password file, or a URL whose `%` is no escape; and a
// library caller's `storeUrl` is the database used even where the environment exports TACK_STORE_URL; a
// library session's events and readSession redact it too (docs/decisions/0380-library-events-redacted.md).
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runSql, startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openSession, readSession, resumeSession, TackError } from '../src/library/index.ts'
import { jsonLines, runTack, sandbox } from './helpers.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

const sql = runSql

test('a user who may read but not write: tack run says so in one line, a library resume rejects a TackError', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url })
  const script = join(box.root, 'script.json')
  await writeFile(
    script,
    JSON.stringify([
      { kind: 'text', text: 'stored' },
      { kind: 'text', text: 'x' },
    ]),
  )
  const first = await runTack(['run', '--json', '--model', `scripted/${script}`, 'hello'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(first.code, first.stderr).toBe(0)
  const id = (jsonLines(first.stdout)[0] as { sessionId: string }).sessionId

  // A `%` that is no escape: node-postgres sends it as written; tack must not stumble decoding it.
  const role = `reader_${Date.now()}`
  const password = 'r%zz-not-an-escape-7f3a'
  await sql(url, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`)
  await sql(
    url,
    `GRANT USAGE ON SCHEMA tack TO ${role}; GRANT SELECT ON ALL TABLES IN SCHEMA tack TO ${role}`,
  )
  const reader = url.replace(`tack:${cluster.password}@`, `${role}:${password}@`)
  const env = { ...box.env, TACK_STORE_URL: reader }

  const run = await runTack(['run', '--model', `scripted/${script}`, 'hi'], { env, cwd: box.workspace })
  expect(run.code, run.stderr).toBe(1)
  expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1)
  expect(run.stderr).toMatch(/^tack: STORE_PERMISSION: postgres:\/\/reader_\d+:\*\*\*@.*permission denied/)
  expect(run.stderr).not.toContain(password)
  // tack doctor names what is missing, where the schema check alone said "current".
  const doctor = await runTack(['doctor'], { env, cwd: box.workspace })
  expect(doctor.stdout).toMatch(/^tack schema +version 1 \(current\)$/m)
  expect(doctor.stdout).toMatch(
    /^privileges +MISSING for reader_\d+ — INSERT on tack\.sessions, UPDATE on tack\.sessions, .*INSERT on tack\.events/m,
  )
  expect(doctor.stdout).toMatch(
    /^ {2}- STORE_PERMISSION: the database user reader_\d+ lacks INSERT on tack\.sessions/m,
  )
  expect(doctor.code).toBe(1)
  const owner = await runTack(['doctor'], { env: box.env, cwd: box.workspace })
  expect(owner.stdout).toMatch(/^privileges +tack may read and write the sessions$/m)
  const list = await runTack(['sessions', 'list'], { env, cwd: box.workspace })
  expect(list.code, list.stderr).toBe(0)
  expect(list.stdout).toContain(id)

  const resumed = resumeSession(id, { env, model: `scripted/${script}` })
  await expect(resumed).rejects.toBeInstanceOf(TackError)
  await expect(resumed).rejects.toMatchObject({
    kind: 'store',
    message: expect.stringMatching(/^STORE_PERMISSION: /),
  })
}, 90_000)

test('the password from ~/.pgpass is redacted from tack run --json when a yolo command prints the file', async () => {
  const { box, script } = await pgpassSession()
  const r = await runTack(
    ['run', '--json', '--permission-mode', 'yolo', '--model', `scripted/${script}`, 'show the file'],
    { env: box.env, cwd: box.workspace },
  )
  expect(r.code, r.stderr).toBe(0)
  // The command ran unsandboxed (yolo) and read the file: its line is there, the password is not.
  expect(r.stdout).toContain('*:*:*:*:[redacted]')
  expect(r.stdout + r.stderr).not.toContain(cluster.password)
}, 60_000)

test("the password from ~/.pgpass is redacted from a library session's events, result and readSession", async () => {
  const { box, script } = await pgpassSession()
  const options = { cwd: box.workspace, env: box.env, model: `scripted/${script}` }
  const session = await openSession({ ...options, permissionMode: 'yolo' })
  const turn = session.prompt('show the file')
  const seen: unknown[] = []
  for await (const event of turn) seen.push(event)
  const result = await turn.result
  await session.close()
  expect(result.exitReason).toBe('completed')
  // Only the store knows this password (no PGPASSWORD, none in the URL): its declaration redacts it.
  const read = await readSession(session.id, options)
  expect(JSON.stringify(seen)).toContain('*:*:*:*:[redacted]')
  expect(JSON.stringify(read.events)).toContain('*:*:*:*:[redacted]')
  expect(JSON.stringify([seen, result, read])).not.toContain(cluster.password)
}, 60_000)

test('openSession and resumeSession use the storeUrl given, not an exported TACK_STORE_URL', async () => {
  const given = await cluster.createDatabase()
  const exported = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: exported })
  const script = join(box.root, 'script.json')
  await writeFile(
    script,
    JSON.stringify([
      { kind: 'text', text: 'one' },
      { kind: 'text', text: 'two' },
    ]),
  )
  const options = { cwd: box.workspace, env: box.env, model: `scripted/${script}`, storeUrl: given }
  const session = await openSession(options)
  expect((await session.prompt('first').result).finalText).toBe('one')
  await session.close()
  const resumed = await resumeSession(session.id, options)
  expect((await resumed.prompt('second').result).finalText).toBe('two')
  await resumed.close()
  expect((await sql(given, 'SELECT count(*)::int AS n FROM tack.sessions')).rows[0].n).toBe(1)
  const other = await sql(exported, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'tack'")
  expect(other.rows[0].n).toBe(0)
}, 60_000)

// The timeout is part of the test: node-postgres left the socket of the refused login open, and tack
// stayed alive for the server's authentication_timeout (60 s) after printing the error.
test('a ~/.pgpass others may read: tack sessions list and tack doctor say it was passed over, and exit', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url.replace(`:${cluster.password}@`, '@') })
  const pgpass = join(box.home, '.pgpass')
  await writeFile(pgpass, `*:*:*:*:${cluster.password}\n`)
  await chmod(pgpass, 0o644)
  const note = `the password file ${pgpass} was not read: others may read it (chmod 600 it)`
  const list = await runTack(['sessions', 'list'], { env: box.env, cwd: box.workspace })
  expect(list.code).toBe(2)
  expect(list.stderr).toMatch(/^tack: STORE_AUTH_FAILED: .*none was given/)
  expect(list.stderr).toContain(note)
  const doctor = await runTack(['doctor'], { env: box.env, cwd: box.workspace })
  expect(doctor.stdout).toMatch(/^database +UNREACHABLE — STORE_AUTH_FAILED: .*none was given/m)
  expect(doctor.stdout).toContain(note)
  expect(list.stderr + doctor.stdout + doctor.stderr).not.toContain(cluster.password)
}, 40_000)

/**
 * A box whose store URL has no password (it is in `~/.pgpass`, 0600) and a scripted model whose one
 * command prints that file.
 */
async function pgpassSession() {
  const url = await cluster.createDatabase()
  const box = await sandbox({ TACK_STORE_URL: url.replace(`:${cluster.password}@`, '@') })
  const pgpass = join(box.home, '.pgpass')
  await writeFile(pgpass, `*:*:*:*:${cluster.password}\n`)
  await chmod(pgpass, 0o600)
  const script = join(box.root, 'script.json')
  await writeFile(
    script,
    JSON.stringify([
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: `cat ${pgpass}` } }] },
      { kind: 'text', text: 'read it' },
    ]),
  )
  return { box, script }
}
