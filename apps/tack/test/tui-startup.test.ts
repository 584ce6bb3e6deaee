// Start-up of the interactive UI in a real terminal: what the terminal showed before `tack` stays (in
// the scrollback and on screen), and a start-up warning — an untrusted workspace's notice — is still
// readable once the screen is up; an untrusted folder with project settings asks once whether to trust it. pi-tui's full repaint erases the scrollback (ESC[3J); tack draws its
// first screen below what is there instead. Run `node scripts/build.ts` first.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type Sandbox, sandbox, writeLoopConfig } from './helpers.ts'
import { type PtySession, startPty } from './pty/terminal.ts'
import { TACK_BIN } from './pty/tui.ts'

const started: { term: PtySession; server: LoopbackServer }[] = []
afterEach(async () => {
  for (const { term, server } of started.splice(0)) {
    await term.close()
    await server.close()
  }
})

/** A shell in the pty prints `before`, then becomes tack (as `seq 1 50; tack` typed at a prompt). */
async function tackAfter(
  before: string,
  prepare?: (workspace: string) => Promise<void>,
  /** What the user does before the UI is up (answer the trust question). */
  answer?: (term: PtySession) => Promise<void>,
) {
  const box = await sandbox()
  await prepare?.(box.workspace)
  const server = await startLoopbackServer({ script: [] })
  const config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m' })
  const term = startPty({
    file: '/bin/sh',
    args: ['-c', `${before}; exec "$0" "$@"`, process.execPath, TACK_BIN, '--config', config],
    cwd: box.workspace,
    env: { TERM: 'xterm-256color', COLORTERM: 'truecolor', ...box.env },
    cols: 100,
    rows: 30,
  })
  started.push({ term, server })
  await answer?.(term)
  await term.waitFor('loop/m', 30_000)
  await term.settled()
  return { term, box }
}

/** tack itself (no shell before it) in `box`'s workspace (or `cwd`), against a fresh loopback model. */
async function tackIn(box: Sandbox, cwd = box.workspace): Promise<PtySession> {
  const server = await startLoopbackServer({ script: [] })
  const config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m' })
  const term = startPty({
    file: process.execPath,
    args: [TACK_BIN, '--config', config],
    cwd,
    env: { TERM: 'xterm-256color', ...box.env },
    cols: 100,
    rows: 30,
  })
  started.push({ term, server })
  return term
}

describe('tack interactive: start-up keeps the terminal', () => {
  it('output printed before tack stays in the scrollback; nothing erases it', async () => {
    const { term } = await tackAfter('seq 1 50')
    const all = term.allText().split('\n')
    for (const n of [1, 25, 50]) expect(all).toContain(String(n))
    // the first screen is drawn below the 50 lines, not over them
    expect(all.indexOf('50')).toBeLessThan(all.findIndex((l) => l.startsWith('tack ·')))
    expect(term.raw()).not.toContain('\x1b[3J')
  })

  const projectConfig = async (ws: string) => {
    await mkdir(join(ws, '.tack'))
    await writeFile(join(ws, '.tack', 'config.yml'), 'permissionMode: yolo\n')
  }
  const answering = (text: string) => async (term: PtySession) => {
    await term.waitFor('[y/N]', 30_000)
    term.type(text)
    term.press('enter')
  }

  it('an untrusted workspace asks once; no: its notice stays on screen, its config is ignored, no second question', async () => {
    const { term, box } = await tackAfter('true', projectConfig, answering('n'))
    const screen = term.screen().replace(/\n/g, '')
    expect(screen).toContain(`workspace ${box.workspace} is not trusted`)
    expect(screen).toContain('ignored from')
    expect(screen).toContain('tack will not ask again here')
    expect(term.screen()).toContain('mode ask')
    await term.close()
    // the next start in the same folder does not ask: it says what it ignores and goes on
    const again = await tackIn(box)
    await again.waitFor('loop/m', 30_000)
    expect(again.allText()).not.toContain('[y/N]')
    expect(again.screen()).toContain('mode ask')
  })

  it('started in the home folder, tack does not offer to trust it (that would trust every project below): the notice only', async () => {
    const box = await sandbox()
    await projectConfig(box.home)
    const term = await tackIn(box, box.home)
    await term.waitFor('loop/m', 30_000)
    expect(term.allText()).not.toContain('[y/N]')
    expect(term.screen().replace(/\n/g, '')).toContain(`workspace ${box.home} is not trusted`)
    expect(term.screen()).toContain('mode ask')
  })

  it('Ctrl-C at the trust question leaves tack (exit 130) and decides nothing: the next start asks again', async () => {
    const box = await sandbox()
    await projectConfig(box.workspace)
    const first = await tackIn(box)
    await first.waitFor('[y/N]', 30_000)
    first.press('ctrl-c')
    expect(await first.exit).toMatchObject({ exitCode: 130 })
    const second = await tackIn(box)
    await second.waitFor('[y/N]', 30_000)
  })

  it('the notice after "no" is the summary the question showed, built once (a hook added meanwhile is not counted)', async () => {
    const box = await sandbox()
    const hook = { hooks: [{ type: 'command', command: 'true' }] }
    const settings = join(box.workspace, '.claude', 'settings.json')
    await mkdir(join(box.workspace, '.claude'))
    await writeFile(settings, JSON.stringify({ hooks: { Stop: [hook] } }))
    const term = await tackIn(box)
    await term.waitFor('[y/N]', 30_000)
    expect(term.screen()).toContain('not run: 1 project hook(s)')
    // the repository changes while the question is up: the run must not describe something else
    await writeFile(settings, JSON.stringify({ hooks: { Stop: [hook], SessionStart: [hook] } }))
    term.type('n')
    term.press('enter')
    await term.waitFor('loop/m', 30_000)
    const text = term.allText().replace(/\n/g, '')
    expect(text).toContain(`workspace ${box.workspace} is not trusted — not run: 1 project hook(s)`)
    expect(text).not.toContain('2 project hook(s)')
  })

  it('a folder named with an escape sequence is shown escaped in the question and the answer', async () => {
    const box = await sandbox()
    const evil = join(box.root, 'ws\x1b]0;pwned\x07')
    await mkdir(evil)
    await projectConfig(evil)
    const term = await tackIn(box, evil)
    await term.waitFor('[y/N]', 30_000)
    term.type('y')
    term.press('enter')
    await term.waitFor('loop/m', 30_000)
    const text = term.allText().replace(/\n/g, '')
    expect(text).toContain('Trust ' + box.root + '/ws\\x1b]0;pwned\\x07?')
    expect(text).toContain('tack: trusted ' + box.root + '/ws\\x1b]0;pwned\\x07')
    // what tack printed before the screen came up (the screen's header is the TUI's own business)
    const beforeScreen = term.raw().split('\x1b[?2004h')[0]
    expect(beforeScreen).toContain('tack: trusted')
    expect(beforeScreen).not.toContain('\x1b]0;pwned')
  })

  it('an untrusted workspace asks once; yes: trusted from now on, its config applies', async () => {
    const { term } = await tackAfter('true', projectConfig, answering('y'))
    expect(term.screen().replace(/\n/g, '')).toContain('tack: trusted ')
    expect(term.screen()).toContain('mode yolo') // the project's permission mode now applies
  })
})
