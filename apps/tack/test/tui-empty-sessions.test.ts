// Sessions a person opened and left without a prompt do not pile up in `tack sessions list`: the real
// `tack` in a pseudo-terminal opened and left, `/clear` then left, `tack -r` then Esc — only the session
// that ran a turn is stored (issue 26; docs/decisions/0320-small-things.md).
import { afterEach, expect, it } from 'vitest'
import { runTack } from './helpers.ts'
import { closeAllTuis, openTui, submit, type TuiRun } from './pty/tui-session.ts'

afterEach(closeAllTuis)

async function leave(run: TuiRun): Promise<void> {
  run.term.press('ctrl-d')
  expect((await run.term.exit).exitCode).toBe(0)
}

async function listed(run: TuiRun): Promise<Array<{ id: string; turns: number }>> {
  const list = await runTack(['sessions', 'list', '--json'], { env: run.box.env, cwd: run.box.workspace })
  expect(list.code).toBe(0)
  return JSON.parse(list.stdout)
}

it('opened and left, /clear then left, -r then Esc: only the session with a turn is listed', async () => {
  const worked = await openTui([{ kind: 'text', text: 'Worked on it.' }])
  await submit(worked.term, 'do the work')
  await worked.term.waitFor('Worked on it.', 20_000)
  await submit(worked.term, '/clear')
  await worked.term.waitForGone('Worked on it.')
  await leave(worked)
  const [kept] = await listed(worked)
  expect((await listed(worked)).map((s) => s.turns)).toEqual([1])

  const idle = await openTui([], { after: worked })
  await leave(idle)
  // nothing to point back to: the exit line names no session
  expect(idle.term.allText()).not.toContain('Resume this session with')

  const picked = await openTui([], { after: worked, args: ['-r'], ready: 'Resume a session' })
  picked.term.press('esc')
  await picked.term.waitFor('loop/')
  await leave(picked)

  expect(await listed(worked)).toEqual([expect.objectContaining({ id: kept.id, turns: 1 })])
})

it('a session whose first prompt comes after a mode switch keeps the switch in its stored log', async () => {
  const run = await openTui([{ kind: 'text', text: 'Done.' }], { args: ['--permission-mode', 'ask'] })
  await submit(run.term, '/permissions read-only')
  await run.term.waitFor('permission mode set to read-only')
  await submit(run.term, 'now work')
  await run.term.waitFor('Done.', 20_000)
  await leave(run)
  const [session] = await listed(run)
  const show = await runTack(['sessions', 'show', session.id], { env: run.box.env, cwd: run.box.workspace })
  expect(show.stdout).toMatch(/^ {4}0 {2}permission\/mode/m)
  expect(show.stdout).toMatch(/turn\/start/)
})
