// Processes that open one fresh store file at the same moment (three workers on a new TACK_HOME, R1's
// shared-file writers) all open it. Switching a fresh file to WAL upgrades a shared lock to an exclusive
// one, and SQLite answers "database is locked" at once, without its busy timeout, to all but one of the
// processes waiting for that upgrade; `applyJournalMode` tries again within the timeout (open.ts).
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { SqliteSessionStore } from '../src/index.ts'
import { tempDir } from './helpers.ts'

const STORE = new URL('../src/index.ts', import.meta.url).href

interface Opener {
  /** Opens the store, creates one session and closes it; resolves with the process's exit. */
  go(): Promise<{ code: number | null; stderr: string }>
}

/**
 * A Node process with the store's code loaded, waiting on stdin: every opener's `go` is sent at once,
 * so the opens meet (a process's own start-up would spread them over ~100 ms).
 */
async function opener(path: string, id: string): Promise<Opener> {
  const program = `
    const { SqliteSessionStore } = await import(${JSON.stringify(STORE)})
    process.stdout.write('ready\\n')
    await new Promise((go) => process.stdin.once('data', go))
    const store = SqliteSessionStore.open({ path: ${JSON.stringify(path)} })
    await store.create({ version: 1, id: ${JSON.stringify(id)}, createdAt: new Date().toISOString(), cwd: '/w' })
    await store.close()
    process.stdin.destroy()`
  const child = spawn(process.execPath, ['--input-type=module', '-e', program], { stdio: 'pipe' })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  )
  await new Promise((ready) => child.stdout.once('data', ready))
  return {
    go() {
      child.stdin.write('go\n')
      return exited
    },
  }
}

test('six processes opening one fresh file at once all open it, in WAL, with every session kept', {
  timeout: 120_000,
}, async () => {
  for (let round = 0; round < 8; round++) {
    const path = join(tempDir('tack-open-race-'), 'sessions.db')
    const ids = Array.from({ length: 6 }, (_, i) => `s-${round}-${i}`)
    const openers = await Promise.all(ids.map((id) => opener(path, id)))
    const runs = await Promise.all(openers.map((o) => o.go()))
    for (const run of runs) expect(run.stderr, `round ${round}`).toBe('')
    expect(runs.map((r) => r.code)).toEqual(ids.map(() => 0))
    const store = SqliteSessionStore.open({ path })
    try {
      expect((await store.list()).map((s) => s.id).sort()).toEqual(ids)
      expect(store.settings().journalMode).toBe('wal')
    } finally {
      await store.close()
    }
  }
})
