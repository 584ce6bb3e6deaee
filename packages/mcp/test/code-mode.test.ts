// MCP tools in Code Mode (spec 55-mcp.md M9): each is `tools.mcp.<server>.<tool>(args)` in the SDK
// section, typed from its input schema (and its output schema, when the server gives one), and a
// run_code program that chains them still sends every call through the pipeline under its own name.
import { CodeRuntimePlugin } from '@tack/code-runtime'
import { callTool, createToolsContext } from '@tack/tools/testing'
import { expect, it } from 'vitest'
import { McpPlugin } from '../src/plugin.ts'
import { everything, fixture, textOf } from './helpers.ts'

async function codeModeContext(servers: Parameters<typeof McpPlugin.apply>[1]['servers']) {
  const ctx = await createToolsContext({ mode: 'code' })
  await ctx.plugin(CodeRuntimePlugin, {})
  const fiber = await ctx.plugin(McpPlugin, { servers })
  await ctx.mcp.ready
  return { ctx, fiber }
}

it('one program calls tools.mcp.everything.echo twice and combines the results, each call through tools/pre-execute as mcp__everything__echo', async () => {
  const { ctx, fiber } = await codeModeContext({ everything: everything() })
  try {
    const sdk = ctx.tools.sdkSection()
    expect(sdk).toContain('  mcp: {\n    everything: {\n')
    expect(sdk).toMatch(
      /\n {6}echo\(args: \{\n {8}\/\*\* Message to echo \*\/\n {8}message: string\n[^}]*\}\): Promise<string>/,
    )
    const seen: string[] = []
    ctx.on('tools/pre-execute', (exec, next) => {
      seen.push(exec.name)
      return next()
    })
    const code = `const a = await tools.mcp.everything.echo({ message: 'one' })
const b = await tools.mcp.everything.echo({ message: a + ' two' })
return b.toUpperCase()`
    const result = await callTool(ctx, 'run_code', { code })
    expect(textOf(result)).toBe('"ECHO: ECHO: ONE TWO"')
    expect(seen).toEqual(['run_code', 'mcp__everything__echo', 'mcp__everything__echo'])
  } finally {
    await fiber.dispose()
  }
}, 30_000)

it('a tool with an output schema resolves to its typed value, declared from that schema', async () => {
  const { ctx, fiber } = await codeModeContext({ everything: everything() })
  try {
    const sdk = ctx.tools.sdkSection()
    expect(sdk).toMatch(
      /"get-structured-content"\(args: \{[\s\S]*?\}\): Promise<\{\n[\s\S]*?temperature: number/,
    )
    const code = `const weather = await tools.mcp.everything["get-structured-content"]({ location: 'Chicago' })
return typeof weather.temperature`
    expect(textOf(await callTool(ctx, 'run_code', { code }))).toBe('"number"')
  } finally {
    await fiber.dispose()
  }
}, 30_000)

it('a program gets an image result as its words with the note, never the base64 (docs/decisions/0255-image-content.md)', async () => {
  const { ctx, fiber } = await codeModeContext({ everything: everything() })
  try {
    const code = `return await tools.mcp.everything["get-tiny-image"]({})`
    const text = textOf(await callTool(ctx, 'run_code', { code }))
    expect(text).toMatch(
      /Here's the image you requested:\\n\[Image: image\/png, \d+ bytes\]\\nThe image above/,
    )
    expect(text).not.toContain('iVBORw0KGgo')
  } finally {
    await fiber.dispose()
  }
}, 30_000)

it('a tool name that is not an identifier is quoted under its server: tools.mcp.fx["rpc-error"]', async () => {
  const { ctx, fiber } = await codeModeContext({ fx: fixture() })
  try {
    const sdk = ctx.tools.sdkSection()
    expect(sdk).toContain('    fx: {\n')
    expect(sdk).toContain('      "rpc-error"(args?: {')
    expect(sdk).toContain('      huge(args?: {')
    const code = `const a = await tools.mcp.fx.huge({ bytes: 3 })
let b = 'none'
try { await tools.mcp.fx["rpc-error"]() } catch (e) { b = e.code }
console.log(a, b)`
    expect(textOf(await callTool(ctx, 'run_code', { code }))).toContain('xxx MCP_ERROR')
  } finally {
    await fiber.dispose()
  }
}, 30_000)
