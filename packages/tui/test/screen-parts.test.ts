// The status line, the todo panel, the activity line and the resume picker (80-cli.md §5.1, §5.5, §2).
import type { SessionSummary } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { EXIT_HINT, renderActivity } from '../src/components/activity-line.ts'
import { renderHeader } from '../src/components/header.ts'
import { PICKER_EMPTY, SessionPicker } from '../src/components/session-picker.ts'
import { renderStatusLine } from '../src/components/status-line.ts'
import { renderTodos } from '../src/components/todo-panel.ts'
import type { StatusView } from '../src/view-model.ts'
import { ascii, colour, hasStyle, plain, strip, widest } from './support.ts'

const status = (over: Partial<StatusView> = {}): StatusView => ({
  model: 'deepseek/deepseek-chat',
  permissionMode: 'ask',
  sessionId: '3910b8f8-aaaa-bbbb-cccc-ddddeeeeffff',
  inputTokens: 1200,
  outputTokens: 134,
  cost: 0.00213,
  contextTokens: 12_800,
  contextWindow: 128_000,
  running: false,
  ...over,
})

describe('status line', () => {
  test('model, context %, tokens, cost, mode and short session id, in that order', () => {
    expect(strip(renderStatusLine(status(), colour, 120))).toBe(
      'deepseek/deepseek-chat · ctx 10% · 1.3k tok · $0.0021 · mode ask · session 3910b8f8',
    )
  })

  test('an unknown price reads "cost n/a"; ASCII separators without UTF-8', () => {
    expect(strip(renderStatusLine(status({ cost: undefined }), ascii, 120))).toBe(
      'deepseek/deepseek-chat | ctx 10% | 1.3k tok | cost n/a | mode ask | session 3910b8f8',
    )
  })

  test('narrow: fields drop from the least useful end, the model and the mode stay, nothing is cut', () => {
    const at60 = strip(renderStatusLine(status(), plain, 60))
    expect(at60).toBe('deepseek/deepseek-chat · ctx 10% · 1.3k tok · mode ask')
    const at40 = strip(renderStatusLine(status(), plain, 40))
    expect(at40).toBe('deepseek/deepseek-chat · mode ask')
    expect(widest([renderStatusLine(status(), colour, 20)])).toBeLessThanOrEqual(20)
  })

  test('NO_COLOR: no escape code', () => {
    expect(hasStyle(renderStatusLine(status(), plain, 120))).toBe(false)
    expect(hasStyle(renderStatusLine(status(), colour, 120))).toBe(true)
  })
})

describe('todo panel', () => {
  const todos = [
    { content: 'read the spec', status: 'completed' as const },
    { content: 'write the card', status: 'in_progress' as const },
    { content: 'test it', status: 'pending' as const },
  ]

  test('TL-34 one line per item with its mark and a done count', () => {
    expect(renderTodos(todos, plain, 60).map(strip)).toEqual([
      'Todos 1/3',
      '  ☑ read the spec',
      '  ▶ write the card',
      '  ☐ test it',
    ])
    expect(renderTodos(todos, ascii, 60).map(strip)[1]).toBe('  [x] read the spec')
  })

  test('folds away when empty or all done', () => {
    expect(renderTodos([], plain, 60)).toEqual([])
    expect(renderTodos([{ content: 'x', status: 'completed' }], plain, 60)).toEqual([])
  })
})

describe('activity line', () => {
  test('a running turn: spinner, elapsed time and the Esc hint; idle: nothing; the Ctrl-C hint wins', () => {
    const running = strip(renderActivity({ runningSince: 0, hint: undefined }, plain, 60, 3_000)[0])
    expect(running).toMatch(/^. working 3\.0s · Esc to interrupt$/)
    expect(renderActivity({ runningSince: undefined, hint: undefined }, plain, 60)).toEqual([])
    expect(strip(renderActivity({ runningSince: 0, hint: EXIT_HINT }, plain, 60)[0])).toBe(EXIT_HINT)
  })
})

describe('resume picker', () => {
  const session = (id: string, firstPrompt: string, minutesAgo: number): SessionSummary => ({
    id,
    createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    lastTime: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    cwd: '/w',
    eventCount: 10,
    turns: 2,
    firstPrompt,
  })

  test('lists first prompts with age, turns and short id; Enter resumes the highlighted one', () => {
    let chosen: string | undefined = 'none'
    const picker = new SessionPicker(
      [session('aaaa1111-x', 'fix the build', 5), session('bbbb2222-y', 'add a test', 120)],
      plain,
      (id) => {
        chosen = id
      },
    )
    const screen = picker.render(80).map(strip).join('\n')
    expect(screen).toContain('Resume a session')
    expect(screen).toMatch(/fix the build.*5 min ago · 2 turns · aaaa1111/)
    expect(screen).toMatch(/add a test.*2 h ago · 2 turns · bbbb2222/)
    picker.handleInput('\x1b[B') // down
    picker.handleInput('\r')
    expect(chosen).toBe('bbbb2222-y')
  })

  test('the prompt gets the width the details leave (100 columns: far more than 30)', () => {
    const long = 'a fairly long first prompt that goes on and on about the build and the tests'
    const picker = new SessionPicker([session('cccc3333-z', long, 1)], plain, () => {})
    const row = picker.render(100).map(strip)[1]
    expect(row).toMatch(
      /^→ a fairly long first prompt that goes on and on about the build.* {2}1 min ago · 2 turns · cccc3333$/,
    )
    expect(widest(picker.render(100))).toBeLessThanOrEqual(100)
    expect(widest(picker.render(30))).toBeLessThanOrEqual(30)
  })

  test('typing filters by prompt text or id prefix', () => {
    let chosen: string | undefined
    const picker = new SessionPicker(
      [session('aaaa1111-x', 'fix the build', 5), session('bbbb2222-y', 'add a test', 120)],
      plain,
      (id) => {
        chosen = id
      },
    )
    for (const ch of 'test') picker.handleInput(ch)
    expect(picker.render(80).map(strip).join('\n')).not.toContain('fix the build')
    picker.handleInput('\r')
    expect(chosen).toBe('bbbb2222-y')
    const byId = new SessionPicker(
      [session('aaaa1111-x', 'one', 5), session('bbbb2222-y', 'two', 9)],
      plain,
      () => {},
    )
    for (const ch of 'bbbb') byId.handleInput(ch)
    expect(byId.render(80).map(strip).join('\n')).toMatch(/two[\s\S]*$/)
    expect(byId.render(80).map(strip).join('\n')).not.toMatch(/ one /)
  })

  test('Esc closes it with no choice; with no session it says so', () => {
    let chosen: string | undefined = 'none'
    const picker = new SessionPicker([session('a', 'p', 1)], plain, (id) => {
      chosen = id
    })
    picker.handleInput('\x1b')
    expect(chosen).toBeUndefined()
    const empty = new SessionPicker([], plain, () => {})
    expect(empty.render(60).map(strip)).toContain(PICKER_EMPTY)
  })
})

describe('header', () => {
  test('the folder with ~, and the keys; a long folder is cut from its start', () => {
    expect(strip(renderHeader('/home/ada/src/app', '/home/ada', plain, 80)[0])).toBe(
      'tack · ~/src/app · / commands · Esc interrupts · Ctrl-D exits',
    )
    const narrow = strip(renderHeader(`/srv/${'deep/'.repeat(20)}project`, '/home/ada', plain, 60)[0])
    expect(narrow).toMatch(/^tack · ….*project · \/ commands · Esc interrupts · Ctrl-D exits$/)
    expect(widest([narrow])).toBeLessThanOrEqual(60)
  })
})
