// Issue 16 acceptance (80-cli.md §5.3): the prompt box through the real `tack` in a pseudo-terminal —
// typing while a turn runs queues a steering message the model receives at its next step (and Esc puts
// it back in the box while it is still queued), and ↑ recalls the previous prompt. Run `node scripts/build.ts` first.
import { afterEach, describe, expect, it } from 'vitest'
import { bashCall, closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

describe('tack interactive: the prompt box', () => {
  it('typing during a turn queues a steering message the model gets at its next step', async () => {
    const { term, server } = await openTui(
      [bashCall('sleep 3'), { kind: 'text', text: 'Checked the README as well.' }],
      { args: ['--permission-mode', 'yolo'] },
    )
    await submit(term, 'wait a bit')
    await term.waitFor(/bash sleep 3\s+running/, 20_000)
    await submit(term, 'also check the README')
    await term.waitFor('queued: also check the README')
    await term.waitFor('Checked the README as well.', 20_000)
    await term.waitFor('›› also check the README')
    expect(server.requests).toHaveLength(2)
    expect(JSON.stringify(server.requests[1].body)).toContain('also check the README')
  })

  it('Esc while steering is queued puts it back in the box, so nothing typed is lost', async () => {
    const { term, server } = await openTui([{ kind: 'hang' }])
    await submit(term, 'wait forever')
    await term.waitFor(/working .* Esc to interrupt/, 20_000)
    await submit(term, 'my steering note')
    await term.waitFor('queued: my steering note')
    term.press('esc')
    await term.waitFor('interrupted')
    await term.waitFor(/^my steering note\s*$/m)
    expect(term.screen()).not.toContain('queued:')
    expect(server.requests).toHaveLength(1)
  })

  it('↑ recalls the previous prompt into the box', async () => {
    const { term } = await openTui([{ kind: 'text', text: 'First.' }])
    await submit(term, 'the very first prompt')
    await term.waitFor('First.', 20_000)
    await term.waitForGone(/^the very first prompt/m)
    term.press('up')
    await term.waitFor(/^the very first prompt\s*$/m)
  })
})
