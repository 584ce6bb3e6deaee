// The ghost line above the empty box (`↑ <text>`) names what ↑ recalls — after a slash command too,
// which is the newest entry of the history (packages/tui/README.md; issue 26).
import { afterEach, expect, it } from 'vitest'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

it('after /cost the hint shows /cost, and ↑ recalls /cost', async () => {
  const { term } = await openTui([{ kind: 'text', text: 'First answer.' }])
  await submit(term, 'the first prompt')
  await term.waitFor('First answer.', 20_000)
  await term.waitFor(/^↑ the first prompt$/m)
  await submit(term, '/cost')
  await term.waitFor(/tokens|no model requests/)
  const screen = await term.waitFor(/^↑ \/cost$/m)
  expect(screen).not.toMatch(/^↑ the first prompt$/m)
  term.press('up')
  await term.waitFor(/│? ?\/cost\s*│?$/m)
  await term.waitForGone(/^↑ /m)
})
