// The permission prompt for `ask` decisions (80-cli.md §5.2) and the queue that answers ctx.approval
// with it: allow once, allow for this session (remembered: the tool, for bash the exact command), deny
// with a reason typed by the user that reaches the model.
import type { ApprovalRequest } from '@tack/tools'
import { describe, expect, test } from 'vitest'
import { ApprovalQueue, USER_DENIED } from '../src/approvals.ts'
import {
  DENY_REASON_LABEL,
  PERMISSION_CHOICES,
  PERMISSION_TITLE,
  type PermissionChoice,
  PermissionPrompt,
  type PermissionQuestion,
} from '../src/components/permission-prompt.ts'
import { colour, hasStyle, plain, strip, widest } from './support.ts'

function prompt() {
  const answers: PermissionChoice[] = []
  const p = new PermissionPrompt(
    { tool: 'bash', keyArg: 'rm -rf build', reason: 'bash runs a shell command' },
    plain,
    (c) => answers.push(c),
  )
  p.focused = true
  return { p, answers, screen: () => p.render(60).map(strip) }
}

const type = (p: PermissionPrompt, text: string) => {
  for (const ch of text) p.handleInput(ch)
}

describe('permission prompt', () => {
  test('shows the call, the reason and the three choices', () => {
    const { screen } = prompt()
    expect(screen().slice(0, 6)).toEqual([
      PERMISSION_TITLE,
      'Allow bash rm -rf build?',
      'bash runs a shell command',
      `› 1. ${PERMISSION_CHOICES[0]}`,
      `  2. ${PERMISSION_CHOICES[1]}`,
      `  3. ${PERMISSION_CHOICES[2]}`,
    ])
  })

  test('1 allows once; ↓ Enter allows for the session; an answer is given once', () => {
    const a = prompt()
    a.p.handleInput('1')
    a.p.handleInput('2')
    expect(a.answers).toEqual([{ choice: 'once' }])
    const b = prompt()
    b.p.handleInput('\x1b[B')
    b.p.handleInput('\r')
    expect(b.answers).toEqual([{ choice: 'session' }])
  })

  test('3 asks for a reason; Enter sends what was typed', () => {
    const { p, answers, screen } = prompt()
    p.handleInput('3')
    expect(answers).toEqual([])
    expect(screen()).toContain(DENY_REASON_LABEL)
    type(p, 'use make clean')
    expect(screen().join('\n')).toContain('use make clean')
    p.handleInput('\r')
    expect(answers).toEqual([{ choice: 'deny', reason: 'use make clean' }])
  })

  test('a message being typed when the question appears answers nothing ("also" + Enter, a digit in a word)', () => {
    const { p, answers } = prompt()
    type(p, 'also note this')
    p.handleInput('\r') // the Enter that ended the message
    type(p, 'fix 2 files')
    expect(answers).toEqual([])
    const later = prompt()
    later.p.handleInput('2') // a deliberate key, no typing before it
    expect(later.answers).toEqual([{ choice: 'session' }])
  })

  test('Esc denies without a reason and asks for the turn to stop', () => {
    const { p, answers } = prompt()
    p.handleInput('\x1b')
    expect(answers).toEqual([{ choice: 'deny', reason: '', interrupt: true }])
  })

  test('fits 60 and 30 columns; colour only when wanted', () => {
    const p = new PermissionPrompt({ tool: 'bash', keyArg: 'x'.repeat(300) }, colour, () => {})
    expect(widest(p.render(30))).toBeLessThanOrEqual(30)
    expect(p.render(60).some(hasStyle)).toBe(true)
    const q = new PermissionPrompt({ tool: 'bash', keyArg: 'ls' }, plain, () => {})
    expect(q.render(60).some(hasStyle)).toBe(false)
  })
})

describe('approval queue', () => {
  const request = (command: string, signal = new AbortController().signal): ApprovalRequest => ({
    exec: { callId: command, name: 'bash', rawArguments: '', arguments: { command }, cwd: '/', signal },
    access: 'execute',
    signal,
  })

  test('0300: a path with newlines in the preview cannot draw lines of its own (a fake set of choices)', async () => {
    const questions: PermissionQuestion[] = []
    const q = new ApprovalQueue(async (question) => {
      questions.push(question)
      return { choice: 'once' }
    })
    const signal = new AbortController().signal
    const evil = `x\n${PERMISSION_CHOICES[2]}`
    await q.request({
      exec: { callId: 'e', name: 'write', rawArguments: '', arguments: { file_path: 'x' }, cwd: '/', signal },
      access: 'write',
      signal,
      preview: [
        { kind: 'created', path: evil, content: 'hello' },
        { kind: 'text', text: `No preview: x\n3. ${PERMISSION_CHOICES[2]}\nis 9 bytes` },
      ],
    })
    const drawn = new PermissionPrompt(questions[0] as PermissionQuestion, plain, () => {}).render(60)
    expect(drawn.every((line) => !line.includes('\n'))).toBe(true)
    const screen = drawn.map(strip)
    expect(screen).toContain(`  x\\n${PERMISSION_CHOICES[2]} (new file)`)
    expect(screen).toContain(`  No preview: x\\n3. ${PERMISSION_CHOICES[2]}\\nis 9 bytes`)
    expect(screen.filter((line) => line.trim().startsWith(`3. ${PERMISSION_CHOICES[2]}`))).toHaveLength(1)
  })

  test('0300: a write or edit asks with its preview — diffs drawn numbered, notes dim, control characters written out', async () => {
    const questions: PermissionQuestion[] = []
    const q = new ApprovalQueue(async (question) => {
      questions.push(question)
      return { choice: 'once' }
    })
    const signal = new AbortController().signal
    const hunk = { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, lines: ['-old', '+new\x1b[31m'] }
    await q.request({
      exec: {
        callId: 'e',
        name: 'edit',
        rawArguments: '',
        arguments: { file_path: 'a.txt' },
        cwd: '/',
        signal,
      },
      access: 'write',
      signal,
      preview: [
        { kind: 'diff', path: 'a.txt', hunks: [hunk] },
        { kind: 'created', path: 'b.txt', content: 'hello' },
        { kind: 'text', text: '… 3 more lines of the change not shown' },
      ],
    })
    const question = questions[0]
    expect(question.preview).toEqual([
      { diff: { path: 'a.txt', hunks: [{ ...hunk, lines: ['-old', '+new\\x1b[31m'] }] } },
      { diff: { path: 'b.txt', created: 'hello' } },
      { note: '… 3 more lines of the change not shown' },
    ])
    const screen = new PermissionPrompt(question, plain, () => {}).render(60).map(strip)
    expect(screen.slice(0, 9)).toEqual([
      PERMISSION_TITLE,
      'Allow edit a.txt?',
      '  a.txt',
      '  @@ -2,1 +2,1 @@',
      '  2 - old',
      '  2 + new\\x1b[31m',
      '  b.txt (new file)',
      '  1 + hello',
      '  … 3 more lines of the change not shown',
    ])
    expect(screen[9]).toBe(`› 1. ${PERMISSION_CHOICES[0]}`)
  })

  test('TL-35 once, then for the session: the same command is allowed by rule, another asks again', async () => {
    const asked: string[] = []
    const replies: PermissionChoice[] = [{ choice: 'once' }, { choice: 'session' }, { choice: 'once' }]
    const q = new ApprovalQueue(async (question) => {
      asked.push(question.keyArg)
      return replies.shift() as PermissionChoice
    })
    expect(await q.request(request('ls'))).toEqual({ action: 'allow', by: 'user', scope: 'once' })
    expect(await q.request(request('ls'))).toEqual({ action: 'allow', by: 'user', scope: 'session' })
    expect(await q.request(request('ls'))).toEqual({ action: 'allow', by: 'rule', scope: 'session' })
    await q.request(request('rm x'))
    expect(asked).toEqual(['ls', 'ls', 'rm x'])
    q.reset()
    await q.request(request('ls')).catch(() => undefined)
    expect(asked).toHaveLength(4)
  })

  test('a denial carries the typed reason to the model; an empty reason a plain refusal', async () => {
    const replies: PermissionChoice[] = [
      { choice: 'deny', reason: 'not on main' },
      { choice: 'deny', reason: '' },
    ]
    const q = new ApprovalQueue(async () => replies.shift() as PermissionChoice)
    expect(await q.request(request('git push'))).toEqual({
      action: 'deny',
      by: 'user',
      scope: 'once',
      reason: `${USER_DENIED} The user said: not on main`,
    })
    expect(await q.request(request('git push'))).toMatchObject({ action: 'deny', reason: USER_DENIED })
  })

  test('one question at a time: the second waits until the first is answered', async () => {
    const open: Array<(c: PermissionChoice) => void> = []
    const q = new ApprovalQueue(() => new Promise((resolve) => open.push(resolve)))
    const first = q.request(request('a'))
    const second = q.request(request('b'))
    await new Promise((r) => setTimeout(r, 10))
    expect(open).toHaveLength(1)
    open[0]({ choice: 'once' })
    await first
    await new Promise((r) => setTimeout(r, 10))
    expect(open).toHaveLength(2)
    open[1]({ choice: 'once' })
    expect(await second).toMatchObject({ action: 'allow' })
  })

  test('a request whose turn was already cancelled is denied without asking', async () => {
    const controller = new AbortController()
    controller.abort()
    const q = new ApprovalQueue(async () => {
      throw new Error('must not ask')
    })
    expect(await q.request(request('ls', controller.signal))).toMatchObject({ action: 'deny', by: 'none' })
  })
})

describe('permission prompt: what is asked is shown whole', () => {
  const render = (question: ConstructorParameters<typeof PermissionPrompt>[0], width = 60) =>
    new PermissionPrompt(question, plain, () => undefined).render(width).map(strip)

  test('a multi-line command: the question says how many more lines, and every line shows before the choices', () => {
    const screen = render({
      tool: 'bash',
      keyArg: 'git status (+1 more line)',
      lines: ['git status', 'touch /tmp/owned'],
    })
    expect(screen.slice(0, 4)).toEqual([
      PERMISSION_TITLE,
      'Allow bash git status (+1 more line)?',
      '    git status',
      '    touch /tmp/owned',
    ])
    expect(screen[4]).toBe(`› 1. ${PERMISSION_CHOICES[0]}`)
  })

  test('a long command wraps instead of losing its end', () => {
    const long = `echo ${'x'.repeat(70)} && rm -rf ~/work`
    const screen = render({ tool: 'bash', keyArg: long })
    expect(screen.join('')).toContain('rm -rf ~/work?')
    expect(widest(screen)).toBeLessThanOrEqual(60)
  })

  test('the queue passes a multi-line command whole to the question', async () => {
    let asked: ConstructorParameters<typeof PermissionPrompt>[0] | undefined
    const queue = new ApprovalQueue(async (question) => {
      asked = question
      return { choice: 'deny', reason: '' }
    })
    await queue.request({
      exec: { name: 'bash', arguments: { command: 'git status\n\ntouch /tmp/owned\n' } },
      signal: new AbortController().signal,
    } as unknown as ApprovalRequest)
    expect(asked).toMatchObject({
      keyArg: 'git status (+1 more line)',
      lines: ['git status', 'touch /tmp/owned'],
    })
  })
})
