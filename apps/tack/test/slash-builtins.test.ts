// The built-in slash commands (80-cli.md §5.4) on a real kernel with the scripted model: what each
// answers, per host, and the files /export writes. The real binary runs them in e2e-slash-commands.test.ts.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTestAgent, SCRIPTED_MODEL, type TestAgent, text } from '@tack/agent/testing'
import { CommandsPlugin, type CommandSurface } from '@tack/commands'
import { PermissionsPlugin } from '@tack/permissions'
import { afterEach, describe, expect, test } from 'vitest'
import { builtinCommandsPlugin } from '../src/slash/plugin.ts'

let t: TestAgent | undefined
afterEach(async () => {
  await t?.dispose()
  t = undefined
})

async function start(script = [text('an answer')]): Promise<TestAgent> {
  t = await createTestAgent({
    script,
    plugins: [
      { plugin: CommandsPlugin },
      { plugin: PermissionsPlugin, config: { mode: 'ask' } },
      { plugin: builtinCommandsPlugin({ home: '/nonexistent-tack-home', permissionMode: 'ask' }) },
    ],
  })
  return t
}

const run = (name: string, args = '', surface: CommandSurface = 'tui') =>
  t!.ctx.commands.run(t!.agent, name, args, { surface })

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
    expect(await run('export', 'out/t.jsonl')).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('ENOENT'),
    })
    expect(await run('export', 't.jsonl')).toMatchObject({ kind: 'text' })
    const lines = readFileSync(join(t!.cwd, 't.jsonl'), 'utf8').trim().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toContain('assistant')
    expect(existsSync(join(t!.cwd, 'out'))).toBe(false)
  })
})
