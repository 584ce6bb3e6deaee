// Deferred tools (deferred.ts, spec 55-mcp.md M11): hidden from an agent's wire list, SDK section and
// calls until `loadTools` logs them as loaded for it; a new agent object on the same log sees the same.
import { expect, it } from 'vitest'
import { defineTool, loadedTools, loadTools, type ToolDefinition } from '../src/index.ts'
import { agentWith, call, createToolsContext, newSession } from './support.ts'

const tool = (name: string, deferred: boolean) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: {} },
    execute: () => `${name} ran`,
    ...(deferred ? { deferred: true } : {}),
  }) as ToolDefinition

it('a deferred tool is neither sent nor callable for an agent until loaded, and the log brings it back on resume', async () => {
  const ctx = await createToolsContext()
  ctx.tools.register(tool('plain', false))
  ctx.tools.register(tool('hidden', true))
  const session = newSession()
  const agent = agentWith(session)
  expect(ctx.tools.schemas(agent).map((s) => s.name)).toEqual(['plain'])
  const refused = await ctx.tools.execute(call('hidden', {}, { agent }))
  expect(refused.error?.code).toBe('UNKNOWN_TOOL')
  expect(ctx.tools.get('hidden')?.deferred).toBe(true)

  expect(loadTools(agent, ['hidden', 'hidden'])).toEqual(['hidden'])
  expect(loadTools(agent, ['hidden'])).toEqual([])
  expect(
    session
      .events()
      .filter((e) => e.type === 'tools/loaded')
      .map((e) => e.data),
  ).toEqual([{ names: ['hidden'] }])
  expect(ctx.tools.schemas(agent).map((s) => s.name)).toEqual(['hidden', 'plain'])
  expect((await ctx.tools.execute(call('hidden', {}, { agent }))).isError).toBe(false)
  // Another agent object on the same log (a resume) folds the same set; another log has none.
  const resumed = agentWith(session)
  expect([...loadedTools(resumed)]).toEqual(['hidden'])
  expect(ctx.tools.schemas(resumed).map((s) => s.name)).toEqual(['hidden', 'plain'])
  expect(ctx.tools.schemas(agentWith(newSession())).map((s) => s.name)).toEqual(['plain'])
})
