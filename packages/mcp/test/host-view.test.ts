// MCP tools as Claude Code's and Codex's hooks see them (55-mcp.md M8, docs/decisions/0250-mcp-approval-prompt.md),
// with the reference server: the host mappings' `tool_response` for one text, several blocks, an image
// (its note, never its data) and structured content, and the bound on what `meta.mcp` keeps.
import { HostMappingReader, type ToolExecutionResult } from '@tack/tools'
import { describe, expect, it } from 'vitest'
import { hostView } from '../src/mcp-host.ts'
import { call, everything, mcpContext } from './helpers.ts'

type Ctx = Awaited<ReturnType<typeof mcpContext>>['ctx']

function responses(ctx: Ctx, name: string, result: ToolExecutionResult) {
  const tools = { get: (n: string) => ctx.tools.get(n) }
  const of = (host: 'claude' | 'codex') => {
    const mapping = new HostMappingReader(host, tools).mapping(name)
    expect(mapping?.name).toBe(name)
    return mapping?.toResponse?.({}, result, { cwd: '/', before: undefined })
  }
  return { claude: of('claude'), codex: of('codex') }
}

describe("MCP tools' hook payloads", () => {
  it('one text block: Claude gets it as a block, Codex as {content}; nothing is kept in meta', async () => {
    const { ctx } = await mcpContext({ servers: { everything: everything() } })
    const result = await call(ctx, 'mcp__everything__echo', { message: 'hi' })
    expect(result.meta).toBeUndefined()
    const block = { type: 'text', text: 'Echo: hi' }
    expect(responses(ctx, 'mcp__everything__echo', result)).toEqual({
      claude: [block],
      codex: { content: [block] },
    })
  }, 30_000)

  it('several blocks stay several; an image is its note and its base64 data is kept nowhere', async () => {
    const { ctx } = await mcpContext({ servers: { everything: everything() } })
    const links = await call(ctx, 'mcp__everything__get-resource-links', { count: 2 })
    const { claude } = responses(ctx, 'mcp__everything__get-resource-links', links)
    expect(claude).toHaveLength(3)
    expect((claude as Array<{ text: string }>)[1]?.text).toMatch(/^\[Resource link: [^\]]+\] demo:\/\//)

    const image = await call(ctx, 'mcp__everything__get-tiny-image', {})
    const view = responses(ctx, 'mcp__everything__get-tiny-image', image).claude as Array<{ text: string }>
    expect(view.some((b) => /^\[Image: image\/png, \d+ bytes/.test(b.text))).toBe(true)
    expect(JSON.stringify(image.meta)).not.toMatch(/[A-Za-z0-9+/]{200,}/)
  }, 30_000)

  it('structured content: Codex gets it beside the content blocks the server sent', async () => {
    const { ctx } = await mcpContext({ servers: { everything: everything() } })
    const name = 'mcp__everything__get-structured-content'
    const result = await call(ctx, name, { location: 'Chicago' })
    const chicago = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 }
    const { claude, codex } = responses(ctx, name, result)
    expect(codex).toEqual({ content: claude, structuredContent: chicago })
    expect(JSON.parse((claude as Array<{ text: string }>)[0]?.text ?? '')).toEqual(chicago)
  }, 30_000)

  it('meta.mcp is bounded by maxResultBytes in all: the block past the bound is cut, the ones after it dropped', () => {
    const block = (n: number) => ({ type: 'text', text: 'x'.repeat(n) })
    const view = hostView({ content: [block(600), block(600), block(600)] }, 1024)
    expect(view?.content).toHaveLength(2)
    expect(view?.content[0]?.text).toBe('x'.repeat(600))
    expect(view?.content[1]?.text).toMatch(
      /^x{424}\n\n\[MCP result cut: 600 bytes, past plugins\.mcp\.maxResultBytes \(424\)/,
    )
    // structured content whose JSON is past the bound is not kept
    expect(hostView({ content: [block(10)], structuredContent: { big: 'y'.repeat(2000) } }, 1024)).toEqual({
      content: [block(10)],
    })
  })
})
