// MCP tools in Code Mode (until spec 55-mcp.md M9's `tools.mcp.<server>.<tool>`): the SDK section
// declares a name that is not an identifier quoted, and a run_code program calls it by that name
// through the pipeline.
import { CodeRuntimePlugin } from '@tack/code-runtime'
import { callTool, createToolsContext } from '@tack/tools/testing'
import { expect, it } from 'vitest'
import { McpPlugin } from '../src/plugin.ts'
import { fixture, textOf } from './helpers.ts'

it('a run_code program calls tools["mcp__fx__rpc-error"] and mcp__fx__huge', async () => {
  const ctx = await createToolsContext({ mode: 'code' })
  await ctx.plugin(CodeRuntimePlugin, {})
  const fiber = await ctx.plugin(McpPlugin, { servers: { fx: fixture() } })
  try {
    const sdk = ctx.tools.sdkSection()
    expect(sdk).toContain('  "mcp__fx__rpc-error"(args?: {')
    expect(sdk).toContain('  mcp__fx__huge(args?: {')
    const code = `const a = await tools.mcp__fx__huge({ bytes: 3 })
let b = 'none'
try { await tools["mcp__fx__rpc-error"]() } catch (e) { b = e.code }
console.log(a, b)`
    const result = await callTool(ctx, 'run_code', { code })
    expect(textOf(result)).toContain('xxx MCP_ERROR')
  } finally {
    await fiber.dispose()
  }
}, 30_000)
