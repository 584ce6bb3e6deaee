// The interactive screen driven by keys, on a real kernel (sessions, tools, fs tools, permissions in
// `ask` mode, the command registry, TuiPlugin) with the scripted model, in a temp folder. The screen is
// read from the frame the app would draw.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentHandle, DisposeCause } from '@tack/agent'
import {
  bootKernel,
  createScriptedModel,
  SCRIPTED_MODEL,
  type ScriptEntry,
  text,
  toolCalls,
} from '@tack/agent/testing'
import { CommandsPlugin, type UiNotification } from '@tack/commands'
import { PermissionsPlugin } from '@tack/permissions'
import { FsToolsPlugin } from '@tack/tool-fs'
import type { Context } from 'cordis'
import { afterEach, describe, expect, test } from 'vitest'
import { InteractiveApp } from '../src/app.ts'
import { TuiPlugin } from '../src/plugin.ts'
import { MemoryTerminal } from './memory-terminal.ts'
import { hasStyle, strip } from './support.ts'

const ENTER = '\r'
const ESC = '\x1b'
const DOWN = '\x1b[B'
const CTRL_C = '\x03'
const CTRL_D = '\x04'

interface Screen {
  app: InteractiveApp
  ctx: Context
  term: MemoryTerminal
  cwd: string
  home: string
  done: Promise<DisposeCause>
  disposed: DisposeCause[]
  text(): string
  until(pattern: RegExp, ms?: number): Promise<string>
  type(text: string): void
  /** Types `text` and presses Enter. */
  submit(text: string): void
}

const running: Screen[] = []
afterEach(async () => {
  for (const s of running.splice(0)) {
    s.app.exit('exit')
    await s.done.catch(() => undefined)
  }
})

async function start(
  script: readonly ScriptEntry[],
  opts: {
    env?: Record<string, string>
    files?: Record<string, string>
    columns?: number
    tui?: Record<string, unknown>
    setup?: (ctx: Context) => void
  } = {},
): Promise<Screen> {
  const cwd = await mkdtemp(join(tmpdir(), 'tack-tui-app-'))
  const home = await mkdtemp(join(tmpdir(), 'tack-tui-home-'))
  for (const [name, content] of Object.entries(opts.files ?? {})) await writeFile(join(cwd, name), content)
  const { ctx } = await bootKernel({
    plugins: [
      { plugin: FsToolsPlugin, config: {} },
      { plugin: PermissionsPlugin, config: { mode: 'ask' } },
      { plugin: CommandsPlugin, config: {} },
      { plugin: TuiPlugin, config: opts.tui ?? {} },
    ],
  })
  opts.setup?.(ctx)
  const model = createScriptedModel(script)
  ctx.modelAdapters.register([SCRIPTED_MODEL], model.adapter)
  const disposed: DisposeCause[] = []
  const term = new MemoryTerminal(opts.columns ?? 80, 30)
  const app = new InteractiveApp(
    {
      ctx,
      cwd,
      model: SCRIPTED_MODEL,
      permissionMode: 'ask',
      historyDir: join(home, 'history'),
      open: async (target): Promise<AgentHandle> => {
        const options = { config: { model: SCRIPTED_MODEL }, permissionMode: 'ask' }
        const handle = target.resume
          ? await ctx.agents.resume(target.resume, options)
          : await ctx.agents.create({ cwd, options, ...(target.cleared ? { source: 'clear' as const } : {}) })
        return {
          agent: handle.agent,
          dispose: async (cause) => {
            disposed.push(cause ?? 'exit')
            await handle.dispose(cause)
          },
        }
      },
      sessions: async () => ctx.sessions.list(),
      redirectWarnings: () => {},
    },
    {
      env: opts.env ?? { LANG: 'C.UTF-8' },
      start: {},
      pricing: { costOf: () => undefined, contextWindowOf: () => 100_000 },
      terminal: term,
    },
  )
  const done = app.run()
  const screen: Screen = {
    app,
    ctx,
    term,
    cwd,
    home,
    done,
    disposed,
    text: () => app.frame().map(strip).join('\n'),
    until: async (pattern, ms = 5000) => {
      const end = Date.now() + ms
      for (;;) {
        const now = screen.text()
        if (pattern.test(now)) return now
        if (Date.now() > end) throw new Error(`screen never matched ${pattern}:\n${now}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
    type: (t) => term.send(...t),
    submit: (t) => term.send(...t, ENTER),
  }
  running.push(screen)
  await screen.until(/mode ask/)
  return screen
}

/**
 * A screen whose model calls `write` on `file`, prompted and showing the permission question; `then` is
 * the model's answer after the call.
 */
async function askedToWrite(file: string, content: string, then: ScriptEntry): Promise<Screen> {
  const s = await start([toolCalls([{ name: 'write', args: { file_path: file, content } }]), then])
  s.submit(`write ${file}`)
  await s.until(/Permission required/)
  return s
}

describe('interactive screen', () => {
  test('ui/notification: a permission question waiting permissionNotifyMs, then the box idle idleNotifyMs after the turn — once each', async () => {
    const notes: UiNotification[] = []
    const s = await start(
      [toolCalls([{ name: 'write', args: { file_path: 'n.txt', content: 'n' } }]), text('ok')],
      {
        tui: { permissionNotifyMs: 1000, idleNotifyMs: 1000 },
        setup: (ctx) => ctx.on('ui/notification', (_agent, note) => void notes.push(note)),
      },
    )
    const noted = async (count: number) => {
      for (const end = Date.now() + 5000; notes.length < count && Date.now() < end; )
        await new Promise((r) => setTimeout(r, 20))
    }
    s.submit('write n.txt')
    await s.until(/Permission required/)
    await noted(1)
    expect(notes).toEqual([{ kind: 'permission-prompt', message: 'tack needs your permission to use write' }])
    s.term.send('1')
    await s.until(/ok/)
    await noted(2)
    expect(notes.map((n) => n.kind)).toEqual(['permission-prompt', 'idle-prompt'])
    expect(notes[1].message).toBe('tack is waiting for your input')
    await new Promise((r) => setTimeout(r, 1200))
    expect(notes).toHaveLength(2)
  })

  test('ui/notification: a question answered in time and a key in the box say nothing', async () => {
    const notes: UiNotification[] = []
    const s = await start(
      [toolCalls([{ name: 'write', args: { file_path: 'q.txt', content: 'q' } }]), text('fine')],
      {
        tui: { permissionNotifyMs: 1000, idleNotifyMs: 1000 },
        setup: (ctx) => ctx.on('ui/notification', (_agent, note) => void notes.push(note)),
      },
    )
    s.submit('write q.txt')
    await s.until(/Permission required/)
    s.term.send('1')
    await s.until(/fine/)
    s.type('x')
    await new Promise((r) => setTimeout(r, 1300))
    expect(notes).toEqual([])
  })

  test('a prompt, its streamed markdown answer and the status line', async () => {
    const s = await start([text('Hello from **tack**', { usage: { inputTokens: 900, outputTokens: 100 } })])
    s.submit('hi there')
    const screen = await s.until(/Hello from tack/)
    expect(screen).toContain('› hi there')
    expect(screen).toMatch(/scripted\/test · ctx 1% · 1\.0k tok · cost n\/a · mode ask · session [0-9a-f]{8}/)
  })

  test('a write asks; "Allow once" runs it and its diff card shows; the file is written', async () => {
    const s = await askedToWrite('hello.txt', 'hi\n', text('written'))
    let screen = s.text()
    expect(screen).toContain('Allow write hello.txt?')
    expect(screen).toMatch(/○ write hello\.txt +waiting for approval/)
    s.term.send('1')
    screen = await s.until(/written/)
    expect(screen).toMatch(/✓ write hello\.txt +done \d+\.\ds/)
    expect(screen).toContain('hello.txt (new file)')
    expect(screen).toContain('1 + hi')
    expect(screen).not.toContain('Permission required')
    expect(await readFile(join(s.cwd, 'hello.txt'), 'utf8')).toBe('hi\n')
  })

  test('Deny with a reason: the file is not written and the model gets the reason', async () => {
    const s = await askedToWrite('x.txt', 'x', text('ok'))
    s.term.send('3')
    await s.until(/Reason for the model/)
    s.submit('wrong file')
    const screen = await s.until(/denied/)
    expect(screen).toMatch(/✗ write x\.txt +denied/)
    await expect(readFile(join(s.cwd, 'x.txt'), 'utf8')).rejects.toThrow()
    const result = s.app.agent?.session.events().find((e) => e.type === 'tool/result')
    expect(JSON.stringify(result?.data)).toContain('The user said: wrong file')
  })

  test('Esc at a permission question refuses the call and interrupts the turn: no further request', async () => {
    const s = await askedToWrite('x.txt', 'x', text('SHOULD NOT BE ASKED FOR'))
    s.term.send(ESC)
    await s.until(/interrupted/)
    await expect(readFile(join(s.cwd, 'x.txt'), 'utf8')).rejects.toThrow()
    const events = s.app.agent?.session.events() ?? []
    expect(events.filter((e) => e.type === 'step/start')).toHaveLength(1)
    // the call ends aborted (the interrupt reaches it before the denial is recorded): it never ran
    expect(JSON.stringify(events.find((e) => e.type === 'tool/result')?.data)).toMatch(/"isError":true/)
    expect(s.text()).not.toContain('SHOULD NOT BE ASKED FOR')
  })

  test('Esc interrupts a running turn; Ctrl-D on the empty box exits and ends the session with "exit"', async () => {
    const s = await start([{ kind: 'hang' }])
    s.submit('wait forever')
    await s.until(/working .* Esc to interrupt/)
    s.term.send(ESC)
    await s.until(/interrupted/)
    expect(s.text()).not.toMatch(/working/)
    s.term.send(CTRL_D)
    expect(await s.done).toBe('exit')
    expect(s.disposed).toEqual(['exit'])
  })

  test('typing during a turn queues a steering message', async () => {
    const s = await start([{ kind: 'hang' }, text('after steering')])
    s.submit('first')
    await s.until(/working/)
    s.submit('and also this')
    await s.until(/queued: and also this/)
    expect(s.app.agent?.status).toBe('running')
  })

  test('Esc puts steering the loop has not taken back into the box, before what is typed there (AL-23)', async () => {
    const s = await start([{ kind: 'hang' }, text('after the interrupt')])
    s.submit('first')
    await s.until(/working/)
    s.submit('my steering note')
    s.submit('second note')
    await s.until(/queued: second note/)
    s.type('half typed')
    s.term.send(ESC)
    await s.until(/interrupted/)
    expect(s.app.frame().map(strip).join('\n')).not.toMatch(/queued:/)
    // the box holds the withdrawn steering, oldest first, then what was being typed
    await s.until(/my steering note\s*\n\s*second note\s*\n\s*half typed/)
    const log = s.app.agent?.session.events() ?? []
    expect(log.some((e) => e.type === 'steering/message')).toBe(false)
    // sent again with Enter, it is one prompt of a new turn — nothing was lost
    s.term.send(ENTER)
    await s.until(/after the interrupt/)
    const prompts = (s.app.agent?.session.events() ?? []).filter((e) => e.type === 'user/message')
    expect(JSON.stringify(prompts.at(-1)?.data)).toContain('my steering note\\nsecond note\\nhalf typed')
  })

  test('Esc with nothing queued leaves the box as it is', async () => {
    const s = await start([{ kind: 'hang' }])
    s.submit('first')
    await s.until(/working/)
    s.type('draft')
    s.term.send(ESC)
    await s.until(/interrupted/)
    expect(s.text()).toMatch(/draft/)
  })

  test('start-up draws below what the terminal shows; only a session switch repaints the whole screen', async () => {
    const s = await start([])
    await new Promise((r) => setTimeout(r, 100))
    // ESC[3J erases the scrollback (and ESC[2J the screen): the user's earlier output would be gone
    expect(s.term.written).not.toContain('\x1b[3J')
    expect(s.term.written).not.toContain('\x1b[2J')
    s.ctx.commands.register({ name: 'clear', description: 'new session', run: () => ({ kind: 'clear' }) })
    s.type('/clear')
    s.term.send(ESC) // closes the / menu; the box keeps its text
    s.term.send(ENTER)
    for (let i = 0; i < 100 && !s.disposed.includes('clear'); i++) await new Promise((r) => setTimeout(r, 20))
    expect(s.disposed).toContain('clear')
    await new Promise((r) => setTimeout(r, 100))
    expect(s.term.written).toContain('\x1b[2J')
  })

  test('Ctrl-C clears the box, then asks for a second Ctrl-C, which exits', async () => {
    const s = await start([])
    s.type('draft')
    await s.until(/draft/)
    s.term.send(CTRL_C)
    await s.until(/^(?![\s\S]*draft)/)
    s.term.send(CTRL_C)
    await s.until(/Press Ctrl-C again to exit/)
    s.term.send(CTRL_C)
    expect(await s.done).toBe('exit')
  })

  test('/clear ends the session with "clear" and starts a new one; a command text is shown; unknown says so', async () => {
    const s = await start([text('one')])
    s.ctx.commands.register({
      name: 'clear',
      description: 'new session',
      surfaces: ['tui'],
      run: () => ({ kind: 'clear' }),
    })
    s.ctx.commands.register({
      name: 'hello',
      description: 'greets',
      run: ({ args }) => ({ kind: 'text', text: `hi ${args}` }),
    })
    const first = s.app.agent?.session.id
    const sources: string[] = []
    s.ctx.on('agent/session-start', (_agent, source) => void sources.push(source))
    s.type('/hello Ada')
    s.term.send(ESC) // closes the / menu; the box keeps its text
    s.term.send(ENTER)
    await s.until(/hi Ada/)
    s.type('/nope')
    s.term.send(ESC)
    s.term.send(ENTER)
    await s.until(/unknown command \/nope/)
    s.type('/clear')
    s.term.send(ESC)
    s.term.send(ENTER)
    await s.until(/^(?![\s\S]*hi Ada)/)
    expect(s.disposed).toEqual(['clear'])
    expect(s.app.agent?.session.id).not.toBe(first)
    // AL-10: the new session starts with source `clear` (Claude Code's SessionStart `clear`).
    expect(sources).toEqual(['clear'])
  })

  test('a slash command typed and sent at once runs as typed, however late the / menu fills (no stale item)', async () => {
    const s = await start([text('one')])
    s.ctx.commands.register({
      name: 'help',
      description: 'lists',
      run: () => ({ kind: 'text', text: 'HELP SHOWN' }),
    })
    s.ctx.commands.register({
      name: 'hello',
      description: 'greets',
      run: () => ({ kind: 'text', text: 'HELLO SHOWN' }),
    })
    s.type('/')
    await s.until(/greets/) // the menu shows every command
    s.submit('help') // and Enter at once, before pi-tui refills the menu for "/help"
    await s.until(/HELP SHOWN/)
    expect(s.text()).not.toMatch(/unknown command/)
    // a bare / and Enter runs nothing (it used to run the first item); ↓ then Enter runs the chosen one
    s.type('/')
    await s.until(/greets/)
    s.term.send(ENTER)
    await new Promise((r) => setTimeout(r, 200))
    expect(s.text()).not.toMatch(/HELLO SHOWN/)
    expect(s.text()).toMatch(/greets/) // the menu is still open
    s.term.send(DOWN)
    const chosen = /→ (help|hello)\b/.exec(await s.until(/→ (help|hello)\b/))?.[1] as string
    const shown = (name: string) => s.text().split(`${name.toUpperCase()} SHOWN`).length - 1
    const before = shown(chosen)
    s.term.send(ENTER)
    await s.until(new RegExp(`(${chosen.toUpperCase()} SHOWN[\\s\\S]*){${before + 1}}`))
  })

  test('backslash-Enter adds a line; ↑ on the empty box recalls the last prompt, kept per folder', async () => {
    const s = await start([text('one'), text('two')])
    s.type('line one\\')
    s.term.send(ENTER)
    s.submit('line two')
    await s.until(/one\n/)
    const prompt = s.app.agent?.session.events().find((e) => e.type === 'user/message')
    expect(JSON.stringify(prompt?.data)).toContain('line one\\nline two')
    await s.until(/↑ line one line two/) // the suggestion line of the empty, idle box
    s.term.send('\x1b[A')
    await s.until(/│?\s*line one\n.*line two/)
    expect(await readFile(join(s.home, 'history', (await readdir(join(s.home, 'history')))[0]), 'utf8')).toBe(
      `${JSON.stringify('line one\nline two')}\n`,
    )
  })

  test('the suggestion line of a long prompt is one line cut to the width, not a wrapped block', async () => {
    const s = await start([text('ok')], { columns: 60 })
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')
    s.submit(long)
    const screen = await s.until(/↑ word0/)
    const lines = screen.split('\n')
    const at = lines.findIndex((l) => l.startsWith('↑ word0'))
    expect(lines[at + 1]).toMatch(/^─+$/) // the box's rule follows at once
    expect(lines[at]).not.toContain('word39')
  })

  test('ui/prompt-edit sees each edit and may rewrite the box; ui/prompt-suggest may hide the suggestion', async () => {
    const s = await start([text('ok')])
    const edits: Array<{ key?: string; text: string; inputText: string }> = []
    s.ctx.on('ui/prompt-edit', async (_agent, edit, next) => {
      edits.push({ ...(edit.key ? { key: edit.key } : {}), text: edit.text, inputText: edit.inputText })
      const box = await next()
      return edit.text === 'shout' ? { text: 'SHOUT', cursor: 5 } : box
    })
    let suggestShown = true
    s.ctx.on('ui/prompt-suggest', async (_agent, _suggestion, next) =>
      suggestShown ? next() : { isShown: false },
    )
    s.type('shout')
    await s.until(/SHOUT/)
    expect(edits.map((e) => e.key)).toEqual(['s', 'h', 'o', 'u', 't'])
    expect(edits.at(-1)).toMatchObject({ text: 'shout', inputText: 't' })
    s.term.send(ENTER)
    await s.until(/↑ SHOUT/)
    suggestShown = false
    s.type('x')
    s.term.send('\x7f')
    await new Promise((r) => setTimeout(r, 100))
    expect(s.text()).not.toContain('↑ SHOUT')
  })

  test('a bracketed paste of several lines is one prompt; a resize to 60 columns redraws to fit', async () => {
    const s = await start([text('got it')], { columns: 100 })
    s.term.send('\x1b[200~first line\nsecond line\x1b[201~')
    s.term.send(ENTER)
    await s.until(/got it/)
    const prompt = s.app.agent?.session.events().find((e) => e.type === 'user/message')
    expect(JSON.stringify(prompt?.data)).toContain('first line\\nsecond line')
    expect(s.app.frame().some((l) => strip(l).length > 60)).toBe(true)
    s.term.resize(60, 30)
    expect(s.app.frame().every((l) => strip(l).length <= 60)).toBe(true)
    expect(s.text()).toMatch(/scripted\/test · ctx 0% · 0 tok · cost n\/a · mode ask/)
  })

  test('/resume of a session that cannot be opened says why and goes on in a new session', async () => {
    const s = await start([])
    s.ctx.commands.register({
      name: 'goto',
      description: 'resume a given id',
      surfaces: ['tui'],
      run: () => ({ kind: 'resume', sessionId: 'no-such-session' }),
    })
    const first = s.app.agent?.session.id
    s.type('/goto')
    s.term.send(ESC)
    s.term.send(ENTER)
    await s.until(/could not open that session/)
    expect(s.disposed).toEqual(['resume'])
    expect(s.app.agent?.session.id).not.toBe(first)
    expect(s.app.agent?.status).toBe('idle')
  })

  test('console output of a plugin goes into the transcript while the screen is up, and back after', async () => {
    const original = console.log
    const s = await start([])
    expect(console.log).not.toBe(original)
    console.log('a plugin says %s', 'hello')
    await s.until(/a plugin says hello/)
    s.term.send(CTRL_D)
    await s.done
    expect(console.log).toBe(original)
  })

  test('NO_COLOR: nothing pi-tui writes sets a colour; ASCII locale: every byte is ASCII', async () => {
    const s = await start([text('Plain — answer ✓')], { env: { NO_COLOR: '1', LANG: 'C' }, columns: 60 })
    s.submit('go')
    await s.until(/Plain/)
    await new Promise((r) => setTimeout(r, 100))
    expect(hasStyle(s.term.written.replace(/\x1b\[7m/g, ''))).toBe(false)
    expect(s.term.written).toMatch(/^[\x00-\x7f]*$/)
    expect(s.term.written).toContain('Plain - answer ?')
  })
})
