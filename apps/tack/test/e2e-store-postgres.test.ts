// tack on PostgreSQL through the real binary (95-fleet.md F1, docs/decisions/0340-store-postgres.md):
// with TACK_STORE_URL or plugins.store.url every session command works unchanged on a real throw-away
// server — run, -c, -r, sessions list/show/export/fork, ACP session/load — and nothing is written to
// the SQLite file; bad input (nothing listening, a wrong password, a newer schema) is one line and a
// non-zero exit without the password; an untrusted workspace cannot point the store elsewhere.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { methods } from '@agentclientprotocol/sdk'
import { runSql, startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAcp, updatesOf } from './acp/client.ts'
import { jsonLines, runTack, sandbox, type TackResult } from './helpers.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

const sql = runSql

/** One line on stderr starting `tack: <code>`, a non-zero exit, and no password anywhere. */
function expectOneLine(r: TackResult, code: string, secret: string): void {
  expect(r.code, r.stderr).not.toBe(0)
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1)
  expect(r.stderr).toMatch(new RegExp(`^tack: ${code}: postgres://tack:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/`))
  expect(r.stderr + r.stdout).not.toContain(secret)
}

describe('every session command on PostgreSQL', () => {
  test('run, -c, -r, sessions list/show/export/fork/rm/import and ACP session/load share one database; no SQLite file', async () => {
    const url = await cluster.createDatabase()
    const box = await sandbox({ TACK_STORE_URL: url })
    const script = join(box.root, 'script.json')
    await writeFile(
      script,
      JSON.stringify([
        // The URL holds the password: the model's commands do not inherit it.
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo "url=[$TACK_STORE_URL]"' } }] },
        { kind: 'text', text: 'first answer' },
        { kind: 'text', text: 'second answer' },
        { kind: 'text', text: 'third answer' },
      ]),
    )
    const run = (args: string[]) =>
      runTack(['run', '--json', '--model', `scripted/${script}`, ...args], {
        env: box.env,
        cwd: box.workspace,
      })

    const first = await run(['first task'])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const id = (jsonLines(first.stdout)[0] as { sessionId: string }).sessionId
    const second = await run(['-c', 'second task'])
    expect(second.code, second.stderr).toBe(0)
    expect(jsonLines(second.stdout).at(-1)).toMatchObject({ sessionId: id, answer: 'second answer' })
    const third = await run(['-r', id.slice(0, 8), 'third task'])
    expect(third.code, third.stderr).toBe(0)
    expect(jsonLines(third.stdout).at(-1)).toMatchObject({ sessionId: id, answer: 'third answer' })

    const cli = (args: string[]) => runTack(args, { env: box.env, cwd: box.workspace })
    const list = await cli(['sessions', 'list', '--json'])
    expect(list.code, list.stderr).toBe(0)
    expect(JSON.parse(list.stdout)).toMatchObject([{ id, turns: 3, firstPrompt: 'first task' }])
    const show = await cli(['sessions', 'show', id])
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toContain('third answer')
    expect(show.stdout).toContain('url=[]')
    expect(show.stdout).not.toContain(cluster.password)
    const exported = await cli(['sessions', 'export', id])
    expect(exported.code, exported.stderr).toBe(0)
    const lines = jsonLines(exported.stdout) as Array<{ type: string; seq?: number }>
    expect(lines[0]).toMatchObject({ type: 'session/header' })
    expect(lines.slice(1).map((e) => e.seq)).toEqual(lines.slice(1).map((_, i) => i))
    const fork = await cli(['sessions', 'fork', id])
    expect(fork.code, fork.stderr).toBe(0)
    const child = fork.stdout.trim()
    const stored = await sql(url, 'SELECT id, next_seq FROM tack.sessions ORDER BY id')
    expect(stored.rows.map((r) => r.id).sort()).toEqual([id, child].sort())
    expect(new Set(stored.rows.map((r) => r.next_seq)).size).toBe(1) // the fork copied the whole log
    const removed = await cli(['sessions', 'rm', child])
    expect(removed.code, removed.stderr).toBe(0)
    expect((await sql(url, 'SELECT id FROM tack.sessions')).rows).toEqual([{ id }])
    // Nothing went to the SQLite file a run would otherwise create in TACK_HOME.
    expect(existsSync(join(box.tackHome, 'sessions.db'))).toBe(false)

    // The export moves the session to another database, and to the SQLite file, unchanged.
    const file = join(box.root, 'export.jsonl')
    await writeFile(file, exported.stdout)
    const other = await cluster.createDatabase()
    for (const env of [
      { ...box.env, TACK_STORE_URL: other },
      { ...box.env, TACK_STORE_URL: '' },
    ]) {
      const imported = await runTack(['sessions', 'import', file], { env, cwd: box.workspace })
      expect(imported.code, imported.stderr).toBe(0)
      const shown = await runTack(['sessions', 'show', imported.stdout.trim()], { env, cwd: box.workspace })
      expect(shown.stdout).toContain('third answer')
    }
    expect((await sql(other, 'SELECT count(*)::int AS n FROM tack.sessions')).rows[0].n).toBe(1)
    expect(existsSync(join(box.tackHome, 'sessions.db'))).toBe(true)

    // ACP's session/load replays the conversation from the same database.
    const acp = await startAcp({ box, script: [{ kind: 'text', text: 'unused' }] })
    try {
      await acp.connection.agent.request(methods.agent.session.load, {
        sessionId: id,
        cwd: box.workspace,
        mcpServers: [],
      })
      const said = updatesOf(acp, 'agent_message_chunk', id).map((u) => JSON.stringify(u.content))
      expect(said.join('')).toContain('third answer')
      const asked = updatesOf(acp, 'user_message_chunk', id).map((u) => JSON.stringify(u.content))
      expect(asked.join('')).toContain('first task')
    } finally {
      expect(await acp.close()).toBe(0)
    }
  }, 180_000)

  test("plugins.store.url in the user config selects the database; the password may come from PGPASSWORD, which the model's commands do not inherit", async () => {
    const url = await cluster.createDatabase()
    const box = await sandbox({ PGPASSWORD: cluster.password })
    const bare = url.replace(`:${cluster.password}@`, '@')
    const config = join(box.root, 'user.yml')
    await writeFile(config, `plugins:\n  store:\n    url: "${bare}"\n`)
    const script = join(box.root, 'script.json')
    // The model's command looks for the password where tack found it: the variable is not passed on.
    await writeFile(
      script,
      JSON.stringify([
        { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo "pw=[$PGPASSWORD]"' } }] },
        { kind: 'text', text: 'stored remotely' },
      ]),
    )
    const r = await runTack(['run', '--config', config, '--model', `scripted/${script}`, 'hello'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('stored remotely')
    expect((await sql(url, 'SELECT count(*)::int AS n FROM tack.sessions')).rows[0].n).toBe(1)
    const result = await sql(url, "SELECT data FROM tack.events WHERE type = 'tool/result'")
    expect(result.rows[0].data).toContain('pw=[]')
    expect(existsSync(join(box.tackHome, 'sessions.db'))).toBe(false)
  }, 120_000)
})

describe('bad input: one line, a non-zero exit, never the password', () => {
  test('nothing listening, a wrong password, a schema from a newer tack', async () => {
    const url = await cluster.createDatabase()
    const secret = 'hunter2-not-real'
    const box = await sandbox()
    const script = join(box.root, 'script.json')
    await writeFile(script, JSON.stringify([{ kind: 'text', text: 'never' }]))
    const tack = (storeUrl: string, args: string[]) =>
      runTack(args, { env: { ...box.env, TACK_STORE_URL: storeUrl }, cwd: box.workspace })
    for (const args of [
      ['sessions', 'list'],
      ['run', '--model', `scripted/${script}`, 'hi'],
    ]) {
      expectOneLine(await tack(`postgres://tack:${secret}@127.0.0.1:1/db`, args), 'STORE_UNREACHABLE', secret)
      const wrong = await tack(url.replace(cluster.password, secret), args)
      expectOneLine(wrong, 'STORE_AUTH_FAILED', secret)
      expect(wrong.stderr).toMatch(/PGPASSWORD or ~\/\.pgpass/)
    }
    // A first run creates the schema; then a newer tack "migrates" it.
    expect((await tack(url, ['sessions', 'list'])).code).toBe(0)
    await sql(url, 'UPDATE tack.schema_version SET version = 42')
    for (const args of [
      ['sessions', 'list'],
      ['run', '--model', `scripted/${script}`, 'hi'],
    ]) {
      const r = await tack(url, args)
      expectOneLine(r, 'STORE_SCHEMA_NEWER', cluster.password)
      expect(r.stderr).toMatch(
        /tack schema version 42, newer than version 1 that this tack reads; upgrade tack/,
      )
    }
    const bad = await tack('mysql://tack:hunter2-not-real@db/x', ['sessions', 'list'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr.trim()).toBe(
      'tack: TACK_STORE_URL must be a postgres:// or postgresql:// URL (got "mysql://tack:***@db/x")',
    )
  }, 180_000)
})

test('an untrusted workspace cannot point the store at another database: its sessions stay in the SQLite file', async () => {
  const elsewhere = await cluster.createDatabase()
  const box = await sandbox()
  await mkdir(join(box.workspace, '.tack'), { recursive: true })
  await writeFile(join(box.workspace, '.tack', 'config.yml'), `plugins:\n  store:\n    url: "${elsewhere}"\n`)
  const script = join(box.root, 'script.json')
  await writeFile(script, JSON.stringify([{ kind: 'text', text: 'kept at home' }]))
  const r = await runTack(['run', '--model', `scripted/${script}`, 'hello'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(r.code, r.stderr).toBe(0)
  expect(r.stderr).toContain('store.url') // the notice names what was held back
  expect(existsSync(join(box.tackHome, 'sessions.db'))).toBe(true)
  const tables = await sql(elsewhere, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'tack'")
  expect(tables.rows[0].n).toBe(0)
}, 120_000)

test('tack doctor reports the database: reachable and its schema version, or the problem in one line', async () => {
  const url = await cluster.createDatabase()
  const box = await sandbox()
  const doctor = (storeUrl: string) =>
    runTack(['doctor'], { env: { ...box.env, TACK_STORE_URL: storeUrl }, cwd: box.workspace })
  const fresh = await doctor(url)
  expect(fresh.stdout).toMatch(
    /^session store +PostgreSQL postgres:\/\/tack:\*\*\*@127\.0\.0\.1:\d+\/\w+ \(from TACK_STORE_URL\)$/m,
  )
  expect(fresh.stdout).toMatch(/^database +reachable, PostgreSQL \d+/m)
  expect(fresh.stdout).toMatch(/^tack schema +not created yet \(the first run creates version 1\)$/m)
  expect(fresh.stdout + fresh.stderr).not.toContain(cluster.password)
  // doctor only looks: the schema is still not there.
  expect(
    (await sql(url, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'tack'")).rows[0].n,
  ).toBe(0)
  expect(
    (await runTack(['sessions', 'list'], { env: { ...box.env, TACK_STORE_URL: url }, cwd: box.workspace }))
      .code,
  ).toBe(0)
  expect((await doctor(url)).stdout).toMatch(/^tack schema +version 1 \(current\)$/m)
  await sql(url, 'UPDATE tack.schema_version SET version = 5')
  const newer = await doctor(url)
  expect(newer.code).toBe(1)
  expect(newer.stdout).toMatch(/^tack schema +version 5 — NEWER than this tack's 1$/m)
  expect(newer.stdout).toMatch(/^ {2}- STORE_SCHEMA_NEWER: .*tack schema version 5, newer than version 1/m)
  const down = await doctor('postgres://tack:hunter2-not-real@127.0.0.1:1/db')
  expect(down.code).toBe(1)
  expect(down.stdout).toMatch(/^database +UNREACHABLE — STORE_UNREACHABLE: /m)
  expect(down.stdout).toMatch(/^ {2}- STORE_UNREACHABLE: postgres:\/\/tack:\*\*\*@127\.0\.0\.1:1\/db/m)
  expect(down.stdout + down.stderr).not.toContain('hunter2-not-real')
}, 120_000)
