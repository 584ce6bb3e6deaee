// `/help` in the real `tack` lists every command the `/` menu offers — /exit included, which the menu
// used to add on its own (80-cli.md §5.4; issue 26).
import { afterEach, expect, it } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

it('/help lists /exit, which the / menu offers, and /exit from the menu still leaves', async () => {
  const { term } = await openTui([], { rows: 50 })
  await submit(term, '/help')
  const screen = await term.waitFor(/^\/help +List the slash commands/m)
  expect(screen).toMatch(/^\/exit +End the session and leave tack/m)
  expect(screen).toMatch(/^\/clear +End this session and start a new one/m)
  term.type('/exi')
  await term.waitFor(/exit +End the session and leave tack/)
  term.press('enter')
  expect((await term.exit).exitCode).toBe(0)
})
