import { Context } from '@tack/kernel'
import { sessionsPlugin } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { resolveStorePath, SqliteSessionStore, SqliteStoreConfig, SqliteStorePlugin } from '../src/index.ts'
import { tempDir } from './helpers.ts'

const text = (t: string) => [{ type: 'text' as const, text: t }]

/** A host: the sqlite store plugin plus `sessions` told to use the host's store. */
async function boot(dataDir: string) {
  const ctx = new Context()
  const storeFiber = await ctx.plugin(SqliteStorePlugin, { dataDir })
  await ctx.plugin(sessionsPlugin, { store: 'external' })
  return { ctx, storeFiber }
}

describe('SqliteStorePlugin', () => {
  test('SL-24 provides ctx.sessionStore; ctx.sessions flushes into the file', async () => {
    const dataDir = tempDir()
    const { ctx, storeFiber } = await boot(dataDir)
    expect(ctx.get('sessionStore')).toBeInstanceOf(SqliteSessionStore)
    const s = await ctx.sessions.create({ cwd: '/w', id: 'persisted' })
    s.append('context/message', { content: text('remember me'), source: { kind: 'user' } })
    await s.flush()
    // A second store on the same file, outside the context, sees the flushed event.
    const other = SqliteSessionStore.open({ dataDir })
    try {
      expect((await other.load('persisted')).events).toEqual(s.events())
    } finally {
      await other.close()
    }
    await storeFiber.dispose()
  })

  test('SL-23 a session written by one context is resumed by the next, deriving the same messages', async () => {
    const dataDir = tempDir()
    const first = await boot(dataDir)
    const s = await first.ctx.sessions.create({ cwd: '/w', id: 'resume' })
    s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    s.append('user/message', { content: text('hello'), source: { kind: 'user' } })
    s.append('step/start', { turn: 1, step: 1 })
    s.recordRequestHeader({ config: { model: 'm' }, system: 'be brief' })
    s.append('assistant/message', { turn: 1, step: 1, content: text('hi'), finishReason: 'stop' })
    s.append('step/end', { turn: 1, step: 1 })
    s.append('turn/end', { turn: 1, reason: { kind: 'completed' } })
    await s.flush()
    await first.storeFiber.dispose()

    const second = await boot(dataDir)
    const reopened = await second.ctx.sessions.open('resume')
    expect(reopened.events()).toEqual(s.events())
    expect(reopened.deriveMessages()).toEqual(s.deriveMessages())
    expect(reopened.requestHeader()).toEqual(s.requestHeader())
    await second.storeFiber.dispose()
  })

  test('dispose withdraws ctx.sessionStore and closes the database', async () => {
    const { ctx, storeFiber } = await boot(tempDir())
    const store = ctx.get('sessionStore') as SqliteSessionStore
    await store.list()
    await storeFiber.dispose()
    expect(ctx.get('sessionStore')).toBeUndefined()
    await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' })
  })
})

describe('one store per file and settings per process (docs/decisions/0335-many-sessions-per-process.md)', () => {
  test('two contexts on the same file share one open store; it closes when the last lets go', async () => {
    const dataDir = tempDir()
    const a = await boot(dataDir)
    const b = await boot(dataDir)
    const store = a.ctx.get('sessionStore') as SqliteSessionStore
    expect(b.ctx.get('sessionStore')).toBe(store)
    const s = await a.ctx.sessions.create({ cwd: '/w', id: 'from-a' })
    s.append('user/message', { content: text('hello'), source: { kind: 'user' } })
    await s.flush()
    await a.storeFiber.dispose()
    expect(a.ctx.get('sessionStore')).toBeUndefined()
    // Still open for the context that holds it.
    expect((await b.ctx.sessions.list()).map((x) => x.id)).toContain('from-a')
    await b.storeFiber.dispose()
    await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' })
    // The next context opens the file anew.
    const c = await boot(dataDir)
    expect(c.ctx.get('sessionStore')).not.toBe(store)
    expect((await c.ctx.sessions.list()).map((x) => x.id)).toContain('from-a')
    await c.storeFiber.dispose()
  })

  test('other settings or another file get a store of their own', async () => {
    const dataDir = tempDir()
    const plain = await boot(dataDir)
    const patient = new Context()
    const patientFiber = await patient.plugin(SqliteStorePlugin, { dataDir, busyTimeoutMs: 9000 })
    const elsewhere = await boot(tempDir())
    const store = plain.ctx.get('sessionStore')
    expect(patient.get('sessionStore')).not.toBe(store)
    expect(elsewhere.ctx.get('sessionStore')).not.toBe(store)
    expect((patient.get('sessionStore') as SqliteSessionStore).settings().busyTimeoutMs).toBe(9000)
    for (const fiber of [plain.storeFiber, patientFiber, elsewhere.storeFiber]) await fiber.dispose()
  })
})

describe('ctx.secrets', () => {
  test('the store declares its database and the files SQLite keeps beside it; disposing it withdraws them', async () => {
    const dataDir = tempDir()
    const { ctx, storeFiber } = await boot(dataDir)
    const db = resolveStorePath(SqliteStoreConfig.parse({ dataDir }))
    expect(ctx.secrets.files()).toEqual([db, `${db}-journal`, `${db}-wal`, `${db}-shm`])
    await storeFiber.dispose()
    expect(ctx.secrets.files()).toEqual([])
  })
})
