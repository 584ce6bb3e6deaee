// `/help` in the real `tack` lists every command the `/` menu offers — /exit included, which the menu
// used to add on its own (80-cli.md §5.4; issue 26). Enter on a name's unique prefix runs that command
// whether or not the menu has drawn yet (packages/tui/src/prompt-box.ts settleMenuKey).
import { afterEach, expect, it } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

it('/help lists /exit, which the / menu offers, and /exit from the menu still leaves', async () => {
  const { term } = await openTui([], { rows: 50 })
  await submit(term, '/help')
  const screen = await term.waitFor(/^\/help +List the slash commands/m)
  expect(screen).toMatch(/^\/exit +End the session and leave tack/m)
  expect(screen).toMatch(/^\/clear +End this session and start a new one/m)
  // /help's own lines already hold the menu's text, so the menu shows when that text is there twice.
  term.type('/exi')
  await term.waitFor(/End the session and leave tack[\s\S]*End the session and leave tack/)
  term.press('enter')
  expect((await term.exit).exitCode).toBe(0)
})

it('/exi and Enter in one burst, before the menu draws, leave as /exit does; after Esc they are typed text', async () => {
  const { term } = await openTui([])
  term.type('/exi\r')
  expect((await term.exit).exitCode).toBe(0)

  const second = await openTui([])
  second.term.type('/exi')
  await second.term.waitFor('End the session and leave tack')
  second.term.press('esc')
  await second.term.waitForGone('End the session and leave tack')
  second.term.press('enter')
  await second.term.waitFor('unknown command /exi')
})
