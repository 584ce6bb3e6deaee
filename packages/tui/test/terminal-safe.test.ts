// Hostile text on the screen (docs/security.md "Hostile text on the terminal"): text the model, a tool,
// a hook or a repository chose is drawn with its control characters written out, and the screen's last
// guard keeps a forgotten one from reaching the terminal while tack's own colours pass.
import { CURSOR_MARKER } from '@mariozechner/pi-tui'
import { describe, expect, test } from 'vitest'
import { renderHeader } from '../src/components/header.ts'
import { Lines } from '../src/components/lines.ts'
import { TerminalSafe } from '../src/components/terminal-safe.ts'
import { escapeControls, printable, safeLine } from '../src/format.ts'
import { SessionView } from '../src/view-model.ts'
import { colour, plain } from './support.ts'

const ESC = '\x1b'
const pricing = { costOf: () => 0, contextWindowOf: () => 128_000 }

describe('escapeControls', () => {
  test('writes out controls (U+0000–U+001F, DEL, U+0080–U+009F) and a lone ESC; keeps newlines; tabs as spaces', () => {
    expect(escapeControls(`a${ESC}[2K\rb\tc\r\nd\x7f\x9b${ESC}`)).toBe('a\\x1b[2K\\x0db  c\nd\\x7f\\x9b\\x1b')
  })

  test('writes out bidirectional overrides and isolates, which reorder what the screen shows', () => {
    expect(escapeControls('access = "user\u202e \u2066// admin\u2069\u2066"')).toBe(
      'access = "user\\u202e \\u2066// admin\\u2069\\u2066"',
    )
  })

  test('plain text is unchanged, right-to-left scripts and their marks included', () => {
    expect(escapeControls('ls -la ~/src — ünïcode')).toBe('ls -la ~/src — ünïcode')
    expect(escapeControls('שלום \u200fعالم\u200e')).toBe('שלום \u200fعالم\u200e')
  })
})

describe('printable (a command output)', () => {
  test('removes colour and cursor sequences, writes out what is left, 8-bit CSI included', () => {
    expect(printable(`${ESC}[31mred${ESC}[0m ${ESC}]0;t\x07bell\x07 csi\x9b2J`)).toBe(
      'red bell\\x07 csi\\x9b2J',
    )
  })
})

describe('safeLine, the last guard', () => {
  test("keeps the theme's colours and pi-tui's cursor mark", () => {
    const line = `${colour.accent('model')} ${CURSOR_MARKER}${ESC}]8;;https://x.test${ESC}\\x${ESC}]8;;${ESC}\\`
    expect(safeLine(line)).toBe(line)
  })

  test('writes out a cursor move, a line erase, a title change, a carriage return', () => {
    expect(safeLine(`a${ESC}[1A${ESC}[2K\r${ESC}]0;PWNED\x07b`)).toBe(
      'a\\x1b[1A\\x1b[2K\\x0d\\x1b]0;PWNED\\x07b',
    )
  })

  test('a component that forgot to escape is guarded by TerminalSafe', () => {
    const forgetful = new Lines(() => [`Allow bash touch x #${ESC}[2K\rAllow bash ls`])
    expect(new TerminalSafe(forgetful).render(80)).toEqual(['Allow bash touch x #\\x1b[2K\\x0dAllow bash ls'])
  })
})

describe('text entering the screen is escaped', () => {
  test('a workspace folder named with an escape sequence, in the header', () => {
    const [line] = renderHeader(`/tmp/${ESC}]0;owned\x07repo`, undefined, plain, 100)
    expect(line).toContain('/tmp/\\x1b]0;owned\\x07repo')
  })

  test('a model name from config, in the status line; a todo; a hook message', () => {
    const view = new SessionView({ model: `m${ESC}[8m`, permissionMode: 'ask', sessionId: 's' }, pricing)
    expect(view.status.model).toBe('m\\x1b[8m')
    const time = new Date().toISOString()
    const event = (type: string, data: unknown) => ({ type, data, time, seq: 1, id: 'e' }) as never
    view.apply(event('todo/write', { todos: [{ content: `do ${ESC}[2Kit`, status: 'pending' }] }))
    expect(view.todos[0]?.content).toBe('do \\x1b[2Kit')
    view.apply(event('hook/result', { systemMessage: `hi${ESC}]0;t\x07` }))
    expect(view.entries.at(-1)).toMatchObject({ kind: 'notice', text: 'hi\\x1b]0;t\\x07' })
    view.setModel(`n${ESC}[1A`)
    expect(view.status.model).toBe('n\\x1b[1A')
  })
})
