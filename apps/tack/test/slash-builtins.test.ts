// The built-in slash commands (80-cli.md §5.4) on a real kernel with the scripted model: what each
// answers, per host, and the files /export writes. The real binary runs them in e2e-slash-commands.test.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestAgent, SCRIPTED_MODEL, type TestAgent, text } from '@tack/agent/testing'
import { CommandsPlugin, type CommandSurface } from '@tack/commands'
import { createLlmPlugin } from '@tack/llm'
import { PermissionsPlugin } from '@tack/permissions'
import { afterEach, describe, expect, test } from 'vitest'
import { builtinCommandsPlugin } from '../src/slash/plugin.ts'

let t: TestAgent | undefined
afterEach(async () => {
  await t?.dispose()
  t = undefined
})

async function start(script = [text('an answer')], env?: Record<string, string>): Promise<TestAgent> {
  t = await createTestAgent({
    script,
    plugins: [
      // the llm plugin (with this env as its keys) makes /model check models as `tack run --model` does
      ...(env ? [{ plugin: createLlmPlugin({ env }) }] : []),
      { plugin: CommandsPlugin },
      { plugin: PermissionsPlugin, config: { mode: 'ask' } },
      { plugin: builtinCommandsPlugin({ home: '/nonexistent-tack-home', permissionMode: 'ask' }) },
    ],
  })
  return t
}

const run = (name: string, args = '', surface: CommandSurface = 'tui', columns?: number) =>
  t!.ctx.commands.run(t!.agent, name, args, { surface, ...(columns ? { columns } : {}) })

describe('built-in slash commands', () => {
  test('/help lists what the host can run; /clear and /resume only in the TUI', async () => {
    await start()
    const tui = await run('help')
    const acp = await run('help', '', 'acp')
    expect(tui.kind === 'text' && tui.text).toContain('/clear')
    expect(tui.kind === 'text' && tui.text).toMatch(/^\/model \[provider\/model\] +Show or switch the model/m)
    expect(acp.kind === 'text' && acp.text).not.toContain('/clear')
    expect(t!.ctx.commands.list({ surface: 'acp' }).map((c) => c.name)).toEqual([
      'compact',
      'cost',
      'dice',
      'effort',
      'export',
      'help',
      'model',
      'permissions',
      'state',
      'tools-mode',
    ])
    expect(await run('clear')).toEqual({ kind: 'clear' })
    expect(await run('resume')).toEqual({ kind: 'resume' })
  })

  test('/resume finds a session by prefix and names what it cannot find', async () => {
    await start()
    const id = t!.agent.session.id
    expect(await run('resume', id.slice(0, 8))).toEqual({ kind: 'resume', sessionId: id })
    expect(await run('resume', 'zzzz')).toEqual({
      kind: 'error',
      message: '/resume: no session "zzzz" (tack sessions list shows them)',
    })
  })

  test('/model, /permissions, /tools-mode show what is in force and refuse what is not valid', async () => {
    await start()
    expect(await run('model')).toEqual({ kind: 'text', text: `model: ${SCRIPTED_MODEL}` })
    expect(await run('model', 'nowhere/x')).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('no provider serves nowhere/x'),
    })
    expect(await run('permissions')).toEqual({ kind: 'text', text: 'permission mode: ask' })
    expect(await run('permissions', 'yolo')).toMatchObject({ kind: 'text' })
    expect(await run('permissions')).toEqual({ kind: 'text', text: 'permission mode: yolo' })
    expect(
      t!
        .events()
        .filter((e) => e.type === 'permission/mode')
        .map((e) => e.data),
    ).toEqual([{ mode: 'yolo' }])
    expect(await run('tools-mode')).toEqual({ kind: 'text', text: 'tools mode: native' })
    expect(await run('tools-mode', 'code')).toEqual({
      kind: 'error',
      message:
        '/tools-mode code needs the code-runtime plugin, which the config turns off (plugins.codeRuntime: false)',
    })
    expect(await run('tools-mode', 'fast')).toEqual({
      kind: 'error',
      message: '/tools-mode: "fast" is not one of native, code, both',
    })
  })

  test('/cost counts turns and tokens; /compact without the compaction plugin says which key turns it off', async () => {
    await start()
    await t!.agent.send({ content: 'hi', source: { kind: 'user' } })
    const cost = await run('cost')
    expect(cost.kind === 'text' && cost.text).toContain('1 turn, 1 model request')
    expect(await run('compact')).toEqual({
      kind: 'error',
      message: '/compact needs the compaction plugin, which the config turns off (plugins.compaction: false)',
    })
  })

  test('/export writes markdown by default and a Claude Code transcript for .jsonl, in the workspace', async () => {
    await start()
    await t!.agent.send({ content: 'say something', source: { kind: 'user' } })
    const md = await run('export', '', 'headless')
    const mdPath = join(t!.cwd, `tack-${t!.agent.session.id.slice(0, 8)}.md`)
    expect(md).toEqual({ kind: 'text', text: `exported to ${mdPath}` })
    expect(readFileSync(mdPath, 'utf8')).toContain('an answer')
    // the whole conversation: owner-only, like the store (docs/decisions/0145-private-files.md)
    expect(statSync(mdPath).mode & 0o777).toBe(0o600)
    expect(await run('export', 'out/t.jsonl')).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('ENOENT'),
    })
    expect(await run('export', 't.jsonl')).toMatchObject({ kind: 'text' })
    const lines = readFileSync(join(t!.cwd, 't.jsonl'), 'utf8').trim().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toContain('assistant')
    expect(existsSync(join(t!.cwd, 'out'))).toBe(false)
  })

  test('/help wraps long descriptions under the description column, within the host width', async () => {
    await start()
    const help = await run('help', '', 'tui', 60)
    const lines = help.kind === 'text' ? help.text.split('\n') : []
    const column = lines[0]!.search(/ {2}\S/) + 2
    expect(lines.every((l) => l.length <= 60)).toBe(true)
    const continuations = lines.filter((l) => !l.startsWith('/'))
    expect(continuations.length).toBeGreaterThan(0)
    for (const l of continuations) expect(l.slice(0, column)).toBe(' '.repeat(column))
    // ACP clients lay text out themselves: one line per command
    const acp = await run('help', '', 'acp', 60)
    expect(acp.kind === 'text' && acp.text.split('\n').every((l) => l.startsWith('/'))).toBe(true)
  })

  test('/state without a snapshot of this session says the agent-state mod is not loaded and how to load it', async () => {
    await start()
    const state = await run('state')
    expect(state.kind).toBe('text')
    const said = state.kind === 'text' ? state.text : ''
    expect(said).toContain(`agent-state has no snapshot of this session (${t!.agent.session.id.slice(0, 8)})`)
    expect(said).toMatch(/--mod ".*agent-state.*mod"/)
    expect(said).toContain('plugins.mods.mods')
  })

  test('/export expands ~/ to the home folder and refuses an extension other than .md or .jsonl', async () => {
    await start()
    await t!.agent.send({ content: 'say something', source: { kind: 'user' } })
    const home = mkdtempSync(join(tmpdir(), 'tack-export-home-'))
    const saved = process.env.HOME
    process.env.HOME = home
    try {
      expect(await run('export', '~/x.md')).toEqual({
        kind: 'text',
        text: `exported to ${join(home, 'x.md')}`,
      })
      expect(readFileSync(join(home, 'x.md'), 'utf8')).toContain('an answer')
    } finally {
      process.env.HOME = saved
      rmSync(home, { recursive: true, force: true })
    }
    expect(await run('export', 'out.txt')).toEqual({
      kind: 'error',
      message: '/export: out.txt must end in .md (markdown) or .jsonl (Claude Code transcript)',
    })
    expect(existsSync(join(t!.cwd, 'out.txt'))).toBe(false)
  })

  test('/cost: no requests yet on a fresh session; an unknown price in one wording; a known price in dollars', async () => {
    await start([text('one'), text('two')])
    expect(await run('cost')).toEqual({
      kind: 'text',
      text: `no model requests yet\ncost: unknown (no price for ${SCRIPTED_MODEL})`,
    })
    await t!.agent.send({ content: 'hi', source: { kind: 'user' } })
    const unpriced = await run('cost')
    expect(unpriced.kind === 'text' && unpriced.text).toContain(
      `cost: unknown (no price for ${SCRIPTED_MODEL})`,
    )
    // the same scripted answers, under a model the catalog has a price for
    t!.ctx.modelAdapters.register(['openai/*'], t!.ctx.modelAdapters.adapterFor(SCRIPTED_MODEL)!)
    expect(await run('model', 'openai/gpt-4o')).toMatchObject({ kind: 'text' })
    await t!.agent.send({ content: 'again', source: { kind: 'user' } })
    const mixed = await run('cost')
    expect(mixed.kind === 'text' && mixed.text).toContain(
      'cost: unknown (no price for a model used earlier in this session)',
    )
  })

  test('/cost of a fresh session on a priced model is $0 with no requests yet', async () => {
    await start()
    t!.ctx.modelAdapters.register(['openai/*'], t!.ctx.modelAdapters.adapterFor(SCRIPTED_MODEL)!)
    await run('model', 'openai/gpt-4o')
    expect(await run('cost')).toEqual({ kind: 'text', text: 'no model requests yet\ncost: $0.0000' })
  })

  test('/model refuses a model tack run --model would refuse (no key), with its one line, and keeps the model', async () => {
    await start([text('an answer')], { TACK_HOME: '/nonexistent-tack-home' })
    const refused = await run('model', 'openai/gpt-4o')
    expect(refused).toEqual({
      kind: 'error',
      message: expect.stringMatching(
        /^\/model: openai\/gpt-4o: OPENAI_API_KEY is not set: export it or add it to /,
      ),
    })
    expect(await run('model', '', 'headless')).toEqual({ kind: 'text', text: `model: ${SCRIPTED_MODEL}` })
    // in the TUI, the picker: the model in use marked, nothing of a provider without its key
    const picker = await run('model')
    expect(picker).toMatchObject({ kind: 'choose', command: 'model', text: `model: ${SCRIPTED_MODEL}` })
    const choices = picker.kind === 'choose' ? picker.choices : []
    expect(choices[0]).toEqual({ value: SCRIPTED_MODEL, detail: 'in use', current: true })
    expect(choices.some((c) => c.value.startsWith('openai/'))).toBe(false)
  })

  test('85-skills-and-commands.md I3: /model alone in the TUI offers the catalogue of a provider whose key is set', async () => {
    await start([text('an answer')], { OPENAI_API_KEY: 'sk-test' })
    const picker = await run('model')
    const values = picker.kind === 'choose' ? picker.choices.map((c) => c.value) : []
    expect(values).toEqual(expect.arrayContaining(['openai/gpt-4.1', 'openai/gpt-5']))
    expect(values.some((v) => v.startsWith('anthropic/'))).toBe(false)
    // OpenAI's own list is asked for only when a picker opens (not here: no request leaves the test)
    expect(picker.kind === 'choose' && picker.more?.length).toBe(1)
  })

  test('85-skills-and-commands.md I3: /effort shows, switches (logged), takes default, and refuses a bad level', async () => {
    await start([text('an answer')])
    expect(await run('effort')).toEqual({
      kind: 'text',
      text: "reasoning effort: default (the provider's own)",
    })
    expect(await run('effort', 'high')).toEqual({
      kind: 'text',
      text: 'reasoning effort set to high (from the next request)',
    })
    expect(await run('effort')).toEqual({ kind: 'text', text: 'reasoning effort: high' })
    expect(
      t!.agent.session
        .events()
        .filter((e) => (e.type as string) === 'agent/effort')
        .map((e) => e.data),
    ).toEqual([{ effort: 'high' }])
    expect(await run('effort', 'default')).toMatchObject({ kind: 'text' })
    expect(await run('effort')).toEqual({
      kind: 'text',
      text: "reasoning effort: default (the provider's own)",
    })
    expect(await run('effort', 'max')).toEqual({
      kind: 'error',
      message: '/effort: "max" is not one of low, medium, high, default',
    })
  })

  test('/model switches to a provider whose key is set', async () => {
    await start([text('an answer')], { OPENAI_API_KEY: 'sk-test' })
    expect(await run('model', 'openai/gpt-4o')).toEqual({
      kind: 'text',
      text: 'model set to openai/gpt-4o (from the next request)',
    })
  })
})
