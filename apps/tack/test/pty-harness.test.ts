// The pseudo-terminal harness itself, against a tiny interactive program (test/pty/fixture-program.ts):
// what the TUI acceptance tests rely on — typed keys reach the program, the screen is what a terminal
// shows, resizes reach it, failures print the screen — must hold before any UI test means anything.
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { screenToSvg } from './pty/svg.ts'
import { type PtySession, startPty } from './pty/terminal.ts'

const FIXTURE = fileURLToPath(new URL('./pty/fixture-program.ts', import.meta.url))
const open: PtySession[] = []

function startFixture(opts: { env?: NodeJS.ProcessEnv; cols?: number; rows?: number } = {}): PtySession {
  const session = startPty({
    file: process.execPath,
    args: [FIXTURE],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, TERM: 'xterm-256color', ...opts.env },
    cols: opts.cols ?? 80,
    rows: opts.rows ?? 12,
  })
  open.push(session)
  return session
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()))
})

describe('pty harness', () => {
  it('types into the program and reads the screen it draws', async () => {
    const term = startFixture()
    await term.waitFor('ready 80x12')
    term.type('hello')
    await term.waitFor('> hello')
    term.press('enter')
    const screen = await term.waitFor('you said: hello')
    expect(screen.split('\n')).toHaveLength(12)
    expect(screen).toMatch(/^ fixture {2}ready 80x12$/m)
  })

  it('delivers Esc and Backspace as keys', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    term.type('abc')
    term.press('backspace')
    await term.waitFor(/^> ab$/m)
    term.press('esc')
    await term.waitFor('interrupted')
  })

  it('reads no screen in the middle of a synchronized frame', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    term.type('!')
    const screen = await term.waitFor('frame part one')
    expect(screen).toContain('frame part one, part two')
  })

  it('resizes the terminal and the program sees the new size', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    term.resize(60, 20)
    await term.waitFor('size 60x20')
    expect(term.cols).toBe(60)
    expect(term.screen().split('\n')).toHaveLength(20)
  })

  it('times a keystroke until its echo is on the screen', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    const ms = await term.timeKeys('Q', /^> Q$/m)
    expect(ms).toBeGreaterThanOrEqual(0)
    expect(ms).toBeLessThan(5000)
    await expect(term.timeKeys('Z', /^> Q/m)).rejects.toThrow('shows before typing')
  })

  it('reports the exit code and the process RSS', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    expect(term.rss()).toBeGreaterThan(5 * 1024 * 1024)
    term.press('ctrl-c')
    expect((await term.exit).exitCode).toBe(3)
  })

  it('fails a wait with a message that shows the screen', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    const failure = await term.waitFor('never shown', 300).catch((e: Error) => e.message)
    expect(failure).toContain('expected never shown to show within 300 ms')
    expect(failure).toContain('── screen (80×12) ──')
    expect(failure).toContain(' fixture  ready 80x12')
  })

  it('fails a wait at once when the program exits', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    term.type('q')
    const failure = await term.waitFor('never shown', 5000).catch((e: Error) => e.message)
    expect(failure).toContain('but the program exited 3')
  })

  it('keeps the raw bytes: colour codes with colour, none under NO_COLOR', async () => {
    const coloured = startFixture()
    await coloured.waitFor('ready')
    expect(coloured.raw()).toMatch(/\x1b\[[0-9;]*m/)
    const plain = startFixture({ env: { NO_COLOR: '1' } })
    await plain.waitFor('ready')
    expect(plain.raw()).not.toMatch(/\x1b\[[0-9;]*m/)
  })
})

describe('screen to SVG', () => {
  it('renders text with its colours and backgrounds', async () => {
    const term = startFixture()
    await term.waitFor('ready')
    term.type('<a&b>')
    term.press('enter')
    await term.waitFor('you said: <a&b>')
    const svg = screenToSvg(term.terminal)
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    // bold white on blue: a background rectangle and bold text
    expect(svg).toMatch(/<rect [^>]*fill="#61afef"\/>/)
    expect(svg).toMatch(/<text [^>]*fill="#ffffff" font-weight="bold">[ ]?fixture/)
    // 24-bit colour kept exactly
    expect(svg).toContain('fill="#ff8000">ready</text>')
    // the green answer, XML-escaped
    expect(svg).toContain('fill="#98c379">you said: &lt;a&amp;b&gt;</text>')
    // a crop: only the first row, so only the banner
    const banner = screenToSvg(term.terminal, { rows: [0, 1], title: 'a <banner>' })
    expect(banner).toContain('<title>a &lt;banner&gt;</title>')
    expect(banner).toContain('height="42"')
    expect(banner).toContain('ready</text>')
    expect(banner).not.toContain('you said')
  })
})
