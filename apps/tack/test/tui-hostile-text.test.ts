// Text the model, a tool or a repository controls reaches the interactive screen with its control
// characters shown, not obeyed (docs/security.md "Hostile text on the terminal"): a command carrying
// `ESC[2K` + `\r` cannot redraw the permission prompt as a harmless one, and an OSC in an answer cannot
// retitle the terminal. Through the real `tack` in a pseudo-terminal; run `node scripts/build.ts` first.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { askedToRun, closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const ESC = '\x1b'

describe('tack interactive: hostile text is shown, not obeyed', () => {
  it('a command that erases its own line cannot forge the permission prompt', async () => {
    const { term, box, question } = await askedToRun(`touch SPOOF #${ESC}[2K\rAllow bash ls -la`, [
      { kind: 'text', text: 'ok' },
    ])
    // the real command is on the question's line, its escape sequence and carriage return written out
    expect(question).toMatch(/Allow bash touch SPOOF #\\x1b\[2K\\x0dAllow bash ls -la\?/)
    expect(question).toMatch(/bash touch SPOOF/)
    term.press('esc')
    await term.waitForGone('Permission required')
    expect(existsSync(join(box.workspace, 'SPOOF'))).toBe(false)
  })

  it('a command that moves the cursor up cannot hide itself', async () => {
    const { term, question } = await askedToRun(`touch HIDDEN ${ESC}[1A${ESC}[2K`, [
      { kind: 'text', text: 'ok' },
    ])
    expect(question).toContain('Allow bash touch HIDDEN \\x1b[1A\\x1b[2K?')
    term.press('esc')
  })

  it('an OSC in the answer, a tool argument or a todo never reaches the terminal', async () => {
    const { term } = await openTui(
      [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'bash', args: { command: `echo hi ${ESC}]0;ARGTITLE\x07` } },
            {
              name: 'todo_write',
              args: { todos: [{ content: `step ${ESC}]0;TODOTITLE\x07one`, status: 'in_progress' }] },
            },
          ],
        },
        { kind: 'text', text: `Done ${ESC}]0;PWNED\x07 here. ${ESC}[8mhidden` },
      ],
      { args: ['--permission-mode', 'yolo'] },
    )
    let title = ''
    term.terminal.onTitleChange((t) => {
      title = t
    })
    await submit(term, 'go')
    const screen = await term.waitFor('here.', 20_000)
    expect(screen).toContain('Done \\x1b]0;PWNED\\x07 here. \\x1b[8mhidden')
    expect(screen).toContain('\\x1b]0;ARGTITLE\\x07')
    expect(screen).toContain('step \\x1b]0;TODOTITLE\\x07one')
    expect(title).toBe('')
    expect(term.raw()).not.toMatch(/\x1b\]0;(PWNED|ARGTITLE|TODOTITLE)/)
    expect(term.raw()).not.toContain(`${ESC}[8m`)
  })
})

describe('tack interactive: a multi-line command is shown whole before it is allowed', () => {
  it('the question lists every line; the card marks that more lines exist', async () => {
    const { term, box, question } = await askedToRun('git status\ntouch SECOND', [
      { kind: 'text', text: 'ok' },
    ])
    expect(question).toMatch(/Allow bash git status \(\+1 more line\)\?\n\s+git status\n\s+touch SECOND\n/)
    expect(question).toMatch(/○ bash git status \(\+1 more line\)\s+waiting for approval/)
    term.press('esc')
    await term.waitForGone('Permission required')
    expect(existsSync(join(box.workspace, 'SECOND'))).toBe(false)
  })
})
