// Issue 16 (80-cli.md §5.4): mode switches typed as slash commands in the real `tack` in a
// pseudo-terminal take effect for what follows — `/permissions yolo` stops the questions, `/model`
// changes the model the next request names. Run `node scripts/build.ts` first.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bashCall, closeAllTuis, openTui, submit, submitWithoutQuestion } from './pty/tui-session.ts'

afterEach(closeAllTuis)

describe('tack interactive: slash commands that switch modes', () => {
  it('/permissions yolo: the next bash call runs without a question', async () => {
    const { term, box } = await openTui([bashCall('echo yes > ran.txt'), { kind: 'text', text: 'Ran it.' }], {
      args: ['--permission-mode', 'ask'],
    })
    await submit(term, '/permissions yolo')
    await term.waitFor('permission mode set to yolo')
    // the status line follows the switch
    await term.waitFor(/ · mode yolo · /)
    await submitWithoutQuestion(term, 'run it', 'Ran it.')
    expect(await readFile(join(box.workspace, 'ran.txt'), 'utf8')).toBe('yes\n')
  })

  it('/model names the model the next request asks for', async () => {
    const { term, server } = await openTui([
      { kind: 'text', text: 'From the first model.' },
      { kind: 'text', text: 'From the second model.' },
    ])
    await submit(term, 'one')
    await term.waitFor('From the first model.', 20_000)
    await submit(term, '/model loop/other-model')
    await term.waitFor('model set to loop/other-model')
    // the status line names the new model at once
    await term.waitFor(/^loop\/other-model · ctx/m)
    await submit(term, 'two')
    await term.waitFor('From the second model.', 20_000)
    expect((server.requests[0].body as { model: string }).model).toBe('m')
    expect((server.requests[1].body as { model: string }).model).toBe('other-model')
  })

  it('a resumed session whose own switch is wider than the run mode says so in the transcript (0119)', async () => {
    const first = await openTui([{ kind: 'text', text: 'Noted.' }], { args: ['--permission-mode', 'ask'] })
    await submit(first.term, '/permissions yolo')
    await first.term.waitFor('permission mode set to yolo')
    await submit(first.term, 'remember this')
    await first.term.waitFor('Noted.', 20_000)
    first.term.press('ctrl-d')
    expect((await first.term.exit).exitCode).toBe(0)
    const again = await openTui([], { after: first, args: ['-c', '--permission-mode', 'ask'] })
    const screen = await again.term.waitFor(/switched in it earlier, wider than ask/)
    expect(screen).toMatch(/ · mode yolo · /)
  })
})
