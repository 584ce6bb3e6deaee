// Issue 16 acceptance (80-cli.md §5.1, §5.5, §5.6): the real `tack` in a pseudo-terminal against a
// loopback scripted model — a streamed answer and the status line, then the terminals people use:
// NO_COLOR, a non-UTF-8 locale, 60 columns, and a resize. Run `node scripts/build.ts` first.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sandbox } from './helpers.ts'
import { startTui } from './pty/tui.ts'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const ANSWER = 'The **answer** is forty-two, computed by the deep thought engine over a long afternoon.'
const answer = (usage = { inputTokens: 1200, outputTokens: 30 }) => [
  { kind: 'text' as const, text: ANSWER, usage },
]

/** SGR sequences that set a colour (30–38, 40–48, 90–97, 100–107), not just bold or reset. */
function colourCodes(raw: string): string[] {
  const found: string[] = []
  for (const [seq, params] of raw.matchAll(/\x1b\[([0-9;:]*)m/g)) {
    const numbers = params.split(/[;:]/).map(Number)
    if (numbers.some((n) => (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 107)))
      found.push(seq)
  }
  return found
}

describe('tack interactive: the answer and the status line', () => {
  it('streams the answer under the prompt and counts it in the status line', async () => {
    const { term, server } = await openTui(answer())
    const before = await term.waitFor(/loop\/m · ctx 0% · 0 tok · .* · mode ask · session [0-9a-f]{8}/)
    expect(before).not.toContain('forty-two')
    await submit(term, 'what is the answer?')
    const screen = await term.waitFor('over a long afternoon.', 20_000)
    expect(screen).toContain('› what is the answer?')
    // markdown is rendered: the asterisks are gone
    expect(screen).toContain('The answer is forty-two')
    await term.waitFor(/loop\/m · ctx \d+% · 1\.2k tok · .* · mode ask · session/)
    // the model got the prompt as typed
    expect(JSON.stringify(server.requests[0].body)).toContain('what is the answer?')
  })

  it('shows the first part of an answer before the rest has arrived', async () => {
    // The loopback model sends the text in two halves, frames 0.8 s apart.
    const { term } = await openTui(answer(), { frameDelayMs: 800 })
    await submit(term, 'stream it')
    const partial = await term.waitFor('The answer is forty-two, computed', 20_000)
    expect(partial).not.toContain('afternoon.')
    expect(partial).toMatch(/working \d+\.\d+s · Esc to interrupt/)
    const whole = await term.waitFor('over a long afternoon.', 20_000)
    await term.waitForGone('Esc to interrupt')
    expect(whole).toContain('The answer is forty-two')
  })

  it('writes no colour codes under NO_COLOR, and does without it', async () => {
    const plain = await openTui(answer(), { env: { NO_COLOR: '1' } })
    await submit(plain.term, 'hello')
    await plain.term.waitFor('long afternoon.', 20_000)
    expect(colourCodes(plain.term.raw())).toEqual([])
    const coloured = await openTui(answer())
    await submit(coloured.term, 'hello')
    await coloured.term.waitFor('long afternoon.', 20_000)
    expect(colourCodes(coloured.term.raw()).length).toBeGreaterThan(0)
  })

  it('draws plain ASCII in a non-UTF-8 locale (LANG=C): no mojibake', async () => {
    const { term } = await openTui(answer(), { env: { LANG: 'C', LC_ALL: 'C' } })
    await submit(term, 'hello')
    const screen = await term.waitFor('long afternoon.', 20_000)
    expect(screen).toContain('> hello')
    expect(screen).toMatch(/loop\/m \| ctx \d+% \| .* \| mode ask/)
    // every byte tack wrote is ASCII: nothing for a C-locale terminal to garble
    const nonAscii = [...term.raw()].filter((c) => c.charCodeAt(0) > 0x7e && c !== '\x7f')
    expect(nonAscii.join('')).toBe('')
  })

  it('fits 60 columns: the answer wraps whole words and the status line keeps model and mode', async () => {
    const { term } = await openTui(answer(), { cols: 60, rows: 20 })
    await submit(term, 'hello')
    const screen = await term.waitFor('afternoon.', 20_000)
    const lines = screen.split('\n')
    expect(lines.every((l) => l.length <= 60)).toBe(true)
    // wrapped, but no word is cut in two
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(
      'The answer is forty-two, computed by the deep thought engine over a long afternoon.',
    )
    const status = lines.find((l) => l.startsWith('loop/m'))
    expect(status).toMatch(/mode ask/)
    expect(status).not.toContain('session')
  })

  it('redraws for a resize: narrower drops the session id, wider brings it back', async () => {
    const { term } = await openTui(answer())
    await submit(term, 'hello')
    await term.waitFor('long afternoon.', 20_000)
    await term.waitFor(/mode ask · session [0-9a-f]{8}/)
    term.resize(60, 24)
    const narrow = await term.waitFor(/^loop\/m · .*mode ask\s*$/m)
    expect(narrow).toContain('afternoon.')
    expect(narrow.split('\n')).toHaveLength(24)
    term.resize(110, 30)
    await term.waitFor(/mode ask · session [0-9a-f]{8}/)
  })
})

describe('tack interactive: before the screen', () => {
  it('a broken config or no model: one line in the terminal, exit 2, no screen drawn', async () => {
    const box = await sandbox()
    const bad = join(box.root, 'bad.yml')
    await writeFile(bad, 'plugins:\n  tui:\n    diffMaxLines: -3\n')
    const broken = startTui({ cwd: box.workspace, env: box.env, args: ['--config', bad] })
    expect((await broken.exit).exitCode).toBe(2)
    expect(broken.raw()).toBe(
      `tack: ${bad}: plugins.tui.diffMaxLines: must be an integer 5–10000 (got -3)\r\n`,
    )
    const modelless = startTui({ cwd: box.workspace, env: box.env })
    expect((await modelless.exit).exitCode).toBe(2)
    expect(modelless.raw()).toMatch(/^tack: no model configured: set DEEPSEEK_API_KEY [^\n]*\r\n$/)
    await Promise.all([broken.close(), modelless.close()])
  })
})
