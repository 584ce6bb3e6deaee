// The slash-command registry (80-cli.md §7.3): registration and its undoing, listing per surface, and
// running through the `ui/command` seam, with a scripted agent on a real kernel.
import { createTestAgent, type TestAgent } from '@tack/agent/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type CommandResult, CommandsPlugin, parseSlashCommand, registerCommand } from '../src/index.ts'

let t: TestAgent | undefined
afterEach(async () => {
  await t?.dispose()
  t = undefined
})

async function start(): Promise<TestAgent> {
  t = await createTestAgent({ plugins: [{ plugin: CommandsPlugin }] })
  return t
}

const echo = {
  name: 'echo',
  description: 'Says its arguments back',
  args: 'text',
  run: ({ args }: { args: string }): CommandResult => ({ kind: 'text', text: `echo: ${args}` }),
}

describe('ctx.commands', () => {
  it('registers, lists in name order, runs by name and removes with the disposer', async () => {
    const { ctx, agent } = await start()
    const undo = ctx.commands.register(echo)
    ctx.commands.register({ name: 'alpha', description: 'First', run: () => ({ kind: 'clear' }) })
    expect(ctx.commands.list().map((c) => c.name)).toEqual(['alpha', 'echo'])
    expect(ctx.commands.get('echo')).toEqual({
      name: 'echo',
      description: 'Says its arguments back',
      args: 'text',
      surfaces: ['tui', 'headless', 'acp'],
    })
    expect(await ctx.commands.run(agent, 'echo', 'hi there', { surface: 'headless' })).toEqual({
      kind: 'text',
      text: 'echo: hi there',
    })
    undo()
    expect(ctx.commands.get('echo')).toBeUndefined()
    expect(await ctx.commands.run(agent, 'echo', '', { surface: 'headless' })).toEqual({
      kind: 'unknown',
      name: 'echo',
    })
  })

  it("a plugin's commands go when the plugin is disposed (injected or through registerCommand)", async () => {
    const { ctx } = await start()
    const injected = await ctx.plugin({
      name: 'greeter',
      inject: ['commands'],
      apply: (c: typeof ctx) => {
        c.commands.register({
          name: 'greet',
          description: 'Greets',
          run: () => ({ kind: 'text', text: 'hello' }),
        })
      },
    })
    const loose = await ctx.plugin({
      name: 'waver',
      apply: (c: typeof ctx) => {
        registerCommand(c, { name: 'wave', description: 'Waves', run: () => ({ kind: 'text', text: 'o/' }) })
      },
    })
    expect(ctx.commands.list().map((c) => c.name)).toEqual(['greet', 'wave'])
    await injected.dispose()
    await loose.dispose()
    expect(ctx.commands.list()).toEqual([])
  })

  it('a yielding command gives way to one of its name registered before or after it, saying so once', async () => {
    const { ctx, agent } = await start()
    const yielded: string[] = []
    const fromFile = (name: string) => ({
      name,
      description: 'From a file',
      yields: (n: string) => yielded.push(n),
      run: (): CommandResult => ({ kind: 'prompt', text: 'from the file' }),
    })
    // Before: the built-in holds the name, the file's command is not registered.
    ctx.commands.register(echo)
    ctx.commands.register(fromFile('echo'))
    // After: the file's command held the name, the late built-in takes it (an MCP prompt, say).
    ctx.commands.register(fromFile('late'))
    ctx.commands.register({ ...echo, name: 'late' })
    expect(yielded).toEqual(['echo', 'late'])
    expect(await ctx.commands.run(agent, 'late', 'x', { surface: 'headless' })).toEqual({
      kind: 'text',
      text: 'echo: x',
    })
    expect(await ctx.commands.run(agent, 'echo', 'y', { surface: 'headless' })).toEqual({
      kind: 'text',
      text: 'echo: y',
    })
    expect(() => ctx.commands.register({ ...echo, name: 'z', yields: 'no' } as never)).toThrow(
      'yields must be a function',
    )
  })

  it('refuses a duplicate name, a bad name, a missing description or an unknown surface, naming it', async () => {
    const { ctx } = await start()
    ctx.commands.register(echo)
    expect(() => ctx.commands.register(echo)).toThrow('a slash command named "/echo" is already registered')
    expect(() => ctx.commands.register({ ...echo, name: '/echo2' })).toThrow('"/echo2" is not valid')
    expect(() => ctx.commands.register({ ...echo, name: 'x', description: ' ' })).toThrow(
      '"/x" needs a description',
    )
    expect(() =>
      // biome-ignore lint/suspicious/noExplicitAny: an invalid surface on purpose
      ctx.commands.register({ ...echo, name: 'y', surfaces: ['web' as any] }),
    ).toThrow('unknown surface "web"')
  })

  it('lists per surface, and a command run where it cannot act answers an error naming where it works', async () => {
    const { ctx, agent } = await start()
    ctx.commands.register({
      name: 'clear',
      description: 'New session',
      surfaces: ['tui'],
      run: () => ({ kind: 'clear' }),
    })
    ctx.commands.register(echo)
    expect(ctx.commands.list({ surface: 'acp' }).map((c) => c.name)).toEqual(['echo'])
    expect(ctx.commands.list({ surface: 'tui' }).map((c) => c.name)).toEqual(['clear', 'echo'])
    expect(await ctx.commands.run(agent, 'clear', '', { surface: 'tui' })).toEqual({ kind: 'clear' })
    expect(await ctx.commands.run(agent, 'clear', '', { surface: 'headless' })).toEqual({
      kind: 'error',
      message: '/clear works only in the interactive UI (tack)',
    })
  })

  it('a command that throws answers an error of one line', async () => {
    const { ctx, agent } = await start()
    ctx.commands.register({
      name: 'boom',
      description: 'Fails',
      run: () => {
        throw new Error('no such file\n    at somewhere')
      },
    })
    expect(await ctx.commands.run(agent, 'boom', '', { surface: 'tui' })).toEqual({
      kind: 'error',
      message: '/boom: no such file',
    })
  })

  it('ui/command listeners see the request and may answer instead of the command; nothing is logged', async () => {
    const { ctx, agent } = await start()
    ctx.commands.register(echo)
    const seen: string[] = []
    ctx.on('ui/command', async (_agent, request, next) => {
      seen.push(`${request.name}|${request.args}|${request.surface}|${request.columns}`)
      if (request.name === 'shadowed') return { kind: 'text', text: 'answered by a listener' }
      return next()
    })
    const before = agent.session.length
    expect(await ctx.commands.run(agent, 'echo', 'SECRET-ARG', { surface: 'tui', columns: 120 })).toEqual({
      kind: 'text',
      text: 'echo: SECRET-ARG',
    })
    expect(await ctx.commands.run(agent, 'shadowed', '', { surface: 'acp' })).toEqual({
      kind: 'text',
      text: 'answered by a listener',
    })
    expect(seen).toEqual(['echo|SECRET-ARG|tui|120', 'shadowed||acp|80'])
    expect(agent.session.length).toBe(before)
  })

  it('fires commands/changed when the set changes', async () => {
    const { ctx } = await start()
    let changes = 0
    ctx.on('commands/changed', () => {
      changes++
    })
    const undo = ctx.commands.register(echo)
    undo()
    expect(changes).toBe(2)
  })
})

describe('parseSlashCommand', () => {
  it('splits name and arguments and leaves prompts alone', () => {
    expect(parseSlashCommand('/model  deepseek/deepseek-chat ')).toEqual({
      name: 'model',
      args: 'deepseek/deepseek-chat',
    })
    expect(parseSlashCommand('/help')).toEqual({ name: 'help', args: '' })
    expect(parseSlashCommand('/compact keep\nthe API')).toEqual({ name: 'compact', args: 'keep\nthe API' })
    expect(parseSlashCommand('fix /etc/hosts')).toBeUndefined()
    expect(parseSlashCommand('/ nothing')).toBeUndefined()
    expect(parseSlashCommand('/etc/hosts is broken')).toBeUndefined()
  })
})
