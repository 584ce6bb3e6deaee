// Issue 16 acceptance (80-cli.md §2): resume of the previous session through the real `tack` in a
// pseudo-terminal — `tack -c` continues the folder's latest session, `tack -r` opens the picker (newest
// first, each with its first prompt) and Enter resumes the chosen one; either way the earlier
// conversation is on screen and goes to the model with the next prompt. Run `node scripts/build.ts` first.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonLines, runTack } from './helpers.ts'
import { closeAllTuis, openTui, submit, type TuiRun } from './pty/tui-session.ts'
import { folderWithProjectCode, ranIn } from './trust-fixture.ts'

afterEach(closeAllTuis)
// Each test starts tack three times.
vi.setConfig({ testTimeout: 90_000 })

/** One session: a prompt and its answer, then Ctrl-D on the empty box exits tack. */
async function pastSession(prompt: string, answer: string, after?: TuiRun): Promise<TuiRun> {
  const run = await openTui([{ kind: 'text', text: answer }], after ? { after } : {})
  await submit(run.term, prompt)
  await run.term.waitFor(answer, 20_000)
  run.term.press('ctrl-d')
  expect((await run.term.exit).exitCode).toBe(0)
  return run
}

/** The text of every message a request sent the model. */
const sentText = (run: TuiRun, index: number) => JSON.stringify(run.server.requests[index].body)

describe('tack interactive: resume', () => {
  it('tack -c continues the latest session of this folder', async () => {
    const first = await pastSession('remember the word marmalade', 'Noted: marmalade.')
    const again = await openTui([{ kind: 'text', text: 'The word was marmalade.' }], {
      after: first,
      args: ['-c'],
    })
    const screen = await again.term.waitFor(/resumed session [0-9a-f-]{8,}/)
    expect(screen).toContain('› remember the word marmalade')
    expect(screen).toContain('Noted: marmalade.')
    await submit(again.term, 'which word?')
    await again.term.waitFor('The word was marmalade.', 20_000)
    // the model sees the earlier turn with the new prompt
    const request = sentText(again, 1)
    expect(request).toContain('remember the word marmalade')
    expect(request).toContain('Noted: marmalade.')
    expect(request).toContain('which word?')
  })

  it('tack -r lists this folder’s sessions newest first, and Enter resumes the chosen one', async () => {
    const first = await pastSession('the older session, about apricots', 'Apricots noted.')
    await pastSession('the newer session, about bananas', 'Bananas noted.', first)
    const picker = await openTui([{ kind: 'text', text: 'Back to apricots.' }], {
      after: first,
      args: ['-r'],
      ready: 'Resume a session',
    })
    const screen = await picker.term.waitFor('the older session, about apricots')
    const newer = screen.indexOf('the newer session, about bananas')
    const older = screen.indexOf('the older session, about apricots')
    expect(newer).toBeGreaterThan(-1)
    expect(older).toBeGreaterThan(newer)
    expect(screen).toMatch(/just now · 1 turns? · [0-9a-f]{8}/)
    picker.term.press('down')
    picker.term.press('enter')
    const resumed = await picker.term.waitFor(/resumed session/)
    expect(resumed).toContain('Apricots noted.')
    expect(resumed).not.toContain('Bananas noted.')
    await submit(picker.term, 'and now?')
    await picker.term.waitFor('Back to apricots.', 20_000)
    const request = sentText(picker, 2)
    expect(request).toContain('the older session, about apricots')
    expect(request).not.toContain('bananas')
  })

  it('/resume of another folder’s session is refused, and none of that folder’s project code runs', async () => {
    // This folder is trusted for the run (TACK_TRUST=1); the other folder is not trusted at all.
    const tui = await openTui([{ kind: 'text', text: 'from b' }], { env: { TACK_TRUST: '1' } })
    const b = join(tui.box.root, 'b')
    await mkdir(b)
    await folderWithProjectCode(tui.box, b)
    const made = await runTack(['run', '--json', '--config', tui.config, '--cwd', b, 'go'], {
      env: tui.box.env,
      cwd: tui.box.workspace,
    })
    expect(made.code).toBe(0)
    const id = String(jsonLines(made.stdout).at(-1)?.sessionId)
    await submit(tui.term, `/resume ${id}`)
    const screen = await tui.term.waitFor(`ran in ${b};`)
    expect(screen).not.toContain('resumed session')
    expect(screen).not.toContain('from b')
    expect(ranIn(b)).toEqual([])
  })
})
