// The protocol's reference server (@modelcontextprotocol/server-everything) over stdio, run with this
// Node: its tools as tack tools, their schemas accepted, results in every content kind, its
// instructions in the system prompt, and an environment without tack's secrets.
import { createHash } from 'node:crypto'
import { SystemPromptService } from '@tack/agent'
import type { ImageBlock } from '@tack/session'
import { declareSecrets } from '@tack/kernel'
import { createToolsContext } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { McpPlugin } from '../src/plugin.ts'
import { call, everything, fixture, mcpContext, textOf } from './helpers.ts'

describe('server-everything over stdio', () => {
  it('calls echo as mcp__everything__echo, described by the server, read-only from its annotations', async () => {
    const { ctx } = await mcpContext({ servers: { everything: everything() } })
    const echo = ctx.tools.get('mcp__everything__echo')
    expect(echo?.description).toBe('Echoes back the input string')
    expect(echo?.access).toBe('read')
    expect(ctx.tools.presentCall('mcp__everything__echo', { message: 'hi' }).title).toBe(
      'everything: Echo Tool',
    )
    const result = await call(ctx, 'mcp__everything__echo', { message: 'hello there' })
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe('Echo: hello there')
  }, 30_000)

  it('registers every tool the server lists, none refused for its schema, and validates arguments by them', async () => {
    const { ctx, warnings } = await mcpContext({ servers: { everything: everything() } })
    const names = ctx.tools.schemas().map((s) => s.name)
    expect(names).toContain('mcp__everything__get-sum')
    expect(names).toContain('mcp__everything__get-structured-content')
    expect(warnings).toEqual([])
    for (const name of names)
      expect(ctx.tools.get(name)?.description).not.toContain('Input schema (JSON Schema')
    const wrong = await call(ctx, 'mcp__everything__get-sum', { a: 'one', b: 2 })
    expect(wrong.error?.code).toBe('INVALID_ARGS')
    expect(textOf(await call(ctx, 'mcp__everything__get-sum', { a: 1, b: 2 }))).toContain('3')
  }, 30_000)

  it('structuredContent is what the model sees, as JSON', async () => {
    const { ctx } = await mcpContext({ servers: { everything: everything() } })
    const text = textOf(await call(ctx, 'mcp__everything__get-structured-content', { location: 'Chicago' }))
    expect(JSON.parse(text)).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 })
  }, 30_000)

  it("an image is an image block in the server's order; resource links read [Resource link: name] uri", async () => {
    const { ctx } = await mcpContext({ servers: { everything: everything() } })
    const tiny = await call(ctx, 'mcp__everything__get-tiny-image', {})
    expect(tiny.content.map((block) => block.type)).toEqual(['text', 'image', 'text'])
    const image = tiny.content[1] as ImageBlock
    const bytes = Buffer.from(image.data, 'base64')
    expect(image).toMatchObject({ mimeType: 'image/png', bytes: bytes.length })
    expect(image.sha256).toBe(createHash('sha256').update(bytes).digest('hex'))
    // PNG's signature: the bytes are the server's image, not a re-encoding.
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect(textOf(tiny)).toMatch(/\[Image: image\/png, \d+ bytes\]/)
    const links = textOf(await call(ctx, 'mcp__everything__get-resource-links', { count: 2 }))
    expect(links).toMatch(/\[Resource link: [^\]]+\] demo:\/\//)
  }, 30_000)

  it("a stdio server's environment is the minimum plus its env, without a variable declared secret", async () => {
    process.env.MCP_TEST_PROVIDER_KEY = 'sk-secret-value'
    process.env.MCP_TEST_UNRELATED = 'not-passed'
    const user = process.env.USER
    // USER is in the SDK's default list: declared secret here, it must be left out all the same.
    process.env.USER = 'tester'
    try {
      const ctx = await createToolsContext()
      declareSecrets(ctx, { variables: ['MCP_TEST_PROVIDER_KEY', 'USER'] })
      const fiber = await ctx.plugin(McpPlugin, {
        servers: { everything: { ...everything(), env: { OWN_VAR: 'own' } } },
      })
      await ctx.mcp.ready
      const env = JSON.parse(textOf(await call(ctx, 'mcp__everything__get-env', {}))) as Record<
        string,
        string
      >
      await fiber.dispose()
      expect(env.OWN_VAR).toBe('own')
      expect(env.PATH).toBe(process.env.PATH)
      expect(env).not.toHaveProperty('MCP_TEST_PROVIDER_KEY')
      expect(env).not.toHaveProperty('MCP_TEST_UNRELATED')
      expect(env).not.toHaveProperty('USER')
    } finally {
      delete process.env.MCP_TEST_PROVIDER_KEY
      delete process.env.MCP_TEST_UNRELATED
      if (user === undefined) delete process.env.USER
      else process.env.USER = user
    }
  }, 30_000)
})

describe('server instructions', () => {
  it('reach the system prompt as one section per server, in name order, byte-stable', async () => {
    const ctx = await createToolsContext()
    const prompt = new SystemPromptService()
    ctx.provide('systemPrompt', prompt)
    const fiber = await ctx.plugin(McpPlugin, {
      servers: {
        zeta: fixture('--instructions', 'Zeta says hi.'),
        alpha: fixture('--instructions', 'Alpha first.'),
      },
    })
    await ctx.mcp.ready
    const text = prompt.assemble()
    expect(text).toContain('# MCP server instructions')
    expect(text.indexOf('## alpha\nAlpha first.')).toBeLessThan(text.indexOf('## zeta\nZeta says hi.'))
    expect(prompt.assemble()).toBe(text)
    await fiber.dispose()
    expect(prompt.assemble()).not.toContain('MCP server instructions')
  }, 30_000)

  it('are cut at maxInstructionsChars, and a long tool description at maxDescriptionChars, each saying so', async () => {
    const ctx = await createToolsContext()
    const prompt = new SystemPromptService()
    ctx.provide('systemPrompt', prompt)
    const fiber = await ctx.plugin(McpPlugin, {
      servers: { big: fixture('--instructions', 'i'.repeat(5_000), '--describe', '1000') },
      maxInstructionsChars: 300,
      maxDescriptionChars: 256,
    })
    await ctx.mcp.ready
    const text = prompt.assemble()
    expect(text).toContain(
      `## big\n${'i'.repeat(300)}\n\n[cut: 5000 characters, past plugins.mcp.maxInstructionsChars (300)]`,
    )
    expect(text).not.toContain('i'.repeat(301))
    expect(ctx.tools.get('mcp__big__pid')?.description).toBe(
      `${'d'.repeat(256)}\n\n[cut: 1000 characters, past plugins.mcp.maxDescriptionChars (256)]`,
    )
    await fiber.dispose()
  }, 30_000)
})

describe('annotations → access', () => {
  it('readOnlyHint → read, openWorldHint → network, none → execute; destructiveHint → alwaysAsk', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() } })
    expect(ctx.tools.get('mcp__fx__pid')?.access).toBe('read')
    expect(ctx.tools.get('mcp__fx__browse')?.access).toBe('network')
    expect(ctx.tools.get('mcp__fx__slow')?.access).toBe('execute')
    expect(ctx.tools.get('mcp__fx__wipe')?.alwaysAsk).toBe(true)
    expect(ctx.tools.get('mcp__fx__slow')?.alwaysAsk).toBeUndefined()
    expect(ctx.tools.presentCall('mcp__fx__browse', {}).kind).toBe('fetch')
  }, 30_000)
})
