// A session's end lets its mods' `$` work settle (65-mod-host.md requirement 9 and the session.end row of
// requirement 10; docs/decisions/0155-mod-work-at-session-end.md): dispose resolves only once the work in
// flight, and what it chains on, is done — or `sessionEndBudgetMs` ran out and a running process is killed.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { text } from '@tack/agent/testing'
import { expect, it } from 'vitest'
import { modSession, tempDir, writeMod } from './helpers.ts'

/** The "one write at a time, then flush again" mod; `apps/tack/test/e2e-mod-settling.test.ts` runs it too. */
const FLUSH_AGAIN = fileURLToPath(new URL('./fixtures/flush-again', import.meta.url))

it('dispose waits for the final write a mod chained on a write in flight at session end', async () => {
  const ws = tempDir('tack-mods-ws-')
  const s = await modSession([{ dir: FLUSH_AGAIN }], [text('x')], {}, ws)
  await s.agent.send({ content: 'go', source: { kind: 'user' } })
  await s.dispose()
  expect(JSON.parse(readFileSync(join(ws, '.mod-state', 'state.json'), 'utf8'))).toEqual({ state: 'ended' })
})

it('a $.process.run still running when sessionEndBudgetMs runs out is killed; dispose resolves at the bound', async () => {
  const ws = tempDir('tack-mods-ws-')
  const dir = writeMod({
    name: 'slow-end',
    source: `export const register = (on) => {
      on('session.end', async ($, e, next) => { $.process.run(['sh', '-c', 'sleep 30; touch late']); return next(e) })
    }`,
  })
  const s = await modSession([{ dir }], [text('x')], { sessionEndBudgetMs: 300 }, ws)
  await s.agent.send({ content: 'go', source: { kind: 'user' } })
  const started = Date.now()
  await s.dispose()
  const took = Date.now() - started
  expect(took).toBeGreaterThanOrEqual(250)
  expect(took).toBeLessThan(5_000)
  // killed with its process group, not left running: the command's own end never comes
  await new Promise((r) => setTimeout(r, 200))
  expect(existsSync(join(ws, 'late'))).toBe(false)
})
