// Reaching the database (95-fleet.md F1): the password from the URL, PGPASSWORD or a password file
// (never a world-readable one), and one explained line for a wrong password, a missing one, a server
// that is not there and a database that does not exist — never with the password in it.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { lookUpPassword, PostgresSessionStore, PostgresStoreError } from '../src/index.ts'
import { startThrowawayCluster, type ThrowawayCluster } from '../src/testing/index.ts'

let cluster: ThrowawayCluster
let dir: string
beforeAll(async () => {
  cluster = await startThrowawayCluster()
  dir = mkdtempSync(join(tmpdir(), 'tack-pgpass-'))
}, 60_000)
afterAll(() => {
  cluster?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** The URL of a fresh database without its password. */
async function bareUrl(): Promise<string> {
  return (await cluster.createDatabase()).replace(`:${cluster.password}@`, '@')
}

async function refusal(url: string, env: NodeJS.ProcessEnv = {}): Promise<PostgresStoreError> {
  try {
    await (await PostgresSessionStore.open({ url, connectTimeoutMs: 3000 }, { env })).close()
  } catch (error) {
    expect(error).toBeInstanceOf(PostgresStoreError)
    expect((error as Error).message).not.toContain('\n')
    return error as PostgresStoreError
  }
  throw new Error('expected the store to refuse')
}

describe('where the password comes from', () => {
  test('PGPASSWORD, when the URL has none', async () => {
    const store = await PostgresSessionStore.open(
      { url: await bareUrl() },
      { env: { PGPASSWORD: cluster.password } },
    )
    expect((await store.status()).schemaVersion).toBe(1)
    await store.close()
  })

  test('the password file (PGPASSFILE), owner-only; a file others may read is ignored', async () => {
    const url = await bareUrl()
    const file = join(dir, 'pgpass')
    writeFileSync(
      file,
      `# tack\nelsewhere:*:*:*:nope\n127.0.0.1:${cluster.port}:*:tack:${cluster.password}\n`,
    )
    chmodSync(file, 0o600)
    const store = await PostgresSessionStore.open({ url }, { env: { PGPASSFILE: file } })
    expect((await store.status()).sessions).toBe(0)
    await store.close()
    chmodSync(file, 0o644)
    const error = await refusal(url, { PGPASSFILE: file })
    expect(error.code).toBe('STORE_AUTH_FAILED')
    expect(error.message).toMatch(/wants a password and none was given.*URL, PGPASSWORD or ~\/\.pgpass/)
    // ... and why the file that is there was passed over
    expect(error.message).toContain(
      `; the password file ${file} was not read: others may read it (chmod 600 it)`,
    )
    // not when a password was given: then the file plays no part
    const wrong = await refusal(url, { PGPASSFILE: file, PGPASSWORD: 'not-the-password' })
    expect(wrong.message).not.toContain('was not read')
  })

  test('password file lines: wildcards, escaped colons and backslashes, the first match wins', () => {
    const file = join(dir, 'escapes')
    writeFileSync(
      file,
      ['db.example:5432:other:u:wrong-db', 'db.example:*:app:u:pa\\:ss\\\\word', '*:*:*:*:fallback'].join(
        '\n',
      ),
      { mode: 0o600 },
    )
    const env = { PGPASSFILE: file }
    const target = { host: 'db.example', port: 5432, database: 'app', user: 'u' }
    expect(lookUpPassword(target, env)).toBe('pa:ss\\word')
    expect(lookUpPassword({ ...target, database: 'x' }, env)).toBe('fallback')
    expect(lookUpPassword(target, { ...env, PGPASSWORD: 'from-env' })).toBe('from-env')
    expect(lookUpPassword(target, { PGPASSFILE: join(dir, 'missing') })).toBeUndefined()
  })
})

describe('one clear line for bad input, without the password', () => {
  test('a wrong password', async () => {
    const url = (await cluster.createDatabase()).replace(cluster.password, 'not-the-password')
    const error = await refusal(url)
    expect(error.code).toBe('STORE_AUTH_FAILED')
    expect(error.message).toMatch(/refused the user or password.*PGPASSWORD or ~\/\.pgpass/)
    expect(error.message).toContain('tack:***@')
    expect(error.message).not.toContain('not-the-password')
  })

  test('nothing listening at the address', async () => {
    const error = await refusal(`postgres://tack:sekrit-pass@127.0.0.1:1/db`)
    expect(error.code).toBe('STORE_UNREACHABLE')
    expect(error.message).toMatch(
      /^STORE_UNREACHABLE: postgres:\/\/tack:\*\*\*@127\.0\.0\.1:1\/db: the database cannot be reached/,
    )
    expect(error.message).not.toContain('sekrit-pass')
  })

  test('an sslmode against a server without SSL: the store names the mismatch', async () => {
    const url = `${(await cluster.createDatabase()).replace(cluster.password, 'tls-sekrit-pass')}?sslmode=no-verify`
    const error = await refusal(url)
    expect(error.code).toBe('STORE_FAILED')
    expect(error.message).toMatch(
      /: the secure connection \(SSL\) failed \(opening the session store: .*SSL.*sslmode/,
    )
    expect(error.message).not.toContain('tls-sekrit-pass')
  })

  test('a database that does not exist', async () => {
    const error = await refusal(`${cluster.url.replace(/\/postgres$/, '/no_such_db')}`)
    expect(error.code).toBe('STORE_NO_DATABASE')
    expect(error.message).toMatch(/no_such_db.*does not exist.*createdb/)
  })
})

test('an append stuck behind a lock past queryTimeoutMs fails STORE_TIMEOUT, is never stored, and the store goes on', async () => {
  const url = await cluster.createDatabase()
  const store = await PostgresSessionStore.open({ url, queryTimeoutMs: 500 })
  const header = { version: 1 as const, id: 'locked', createdAt: '2026-01-01T00:00:00.000Z', cwd: '/' }
  await store.create(header)
  const event = {
    type: 'context/message',
    seq: 0,
    time: header.createdAt,
    data: { content: [], source: { kind: 'user' } },
  }
  // Another connection holds the session's row, as a slow transaction elsewhere would.
  const holder = new pg.Client({ connectionString: url })
  await holder.connect()
  try {
    await holder.query('BEGIN')
    await holder.query("SELECT 1 FROM tack.sessions WHERE id = 'locked' FOR UPDATE")
    const started = Date.now()
    const error = await store.append('locked', [event as never]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PostgresStoreError)
    expect((error as PostgresStoreError).code).toBe('STORE_TIMEOUT')
    expect((error as Error).message).toMatch(
      /did not finish in time.*nothing of it was stored.*queryTimeoutMs/,
    )
    expect(Date.now() - started).toBeLessThan(5000)
    await holder.query('COMMIT')
  } finally {
    await holder.end()
  }
  // The cancelled statement left nothing behind; the same batch goes in now.
  expect((await store.list())[0]?.eventCount).toBe(0)
  await store.append('locked', [event as never])
  expect((await store.load('locked')).events).toHaveLength(1)
  await store.close()
})
