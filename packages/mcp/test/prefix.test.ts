// A server that joins after the startup bound changes the request once (spec 55-mcp.md M2): through
// the real agent loop, the request before it has neither its tools nor its instructions, the next one
// has both in one header delta, and later requests change nothing.
import { createTestAgent, text } from '@tack/agent/testing'
import { expect, it } from 'vitest'
import { McpPlugin } from '../src/plugin.ts'
import { fixture } from './helpers.ts'

const user = (content: string) => ({ content, source: { kind: 'user' as const } })

it('a late server: one header delta carries its tools and its instructions together', async () => {
  const t = await createTestAgent({
    script: [text('one'), text('two'), text('three')],
    plugins: [
      {
        plugin: McpPlugin,
        config: {
          servers: { late: fixture('--delay-start', '800', '--instructions', 'Use late tools with care.') },
          startupTimeoutMs: 50,
        },
      },
    ],
  })
  try {
    await t.agent.send(user('first'))
    await expect.poll(() => t.ctx.tools.get('mcp__late__pid'), { timeout: 10_000 }).toBeDefined()
    await t.agent.send(user('second'))
    await t.agent.send(user('third'))
    const headers = t.events().filter((e) => e.type.startsWith('request/header'))
    expect(headers.map((e) => e.type)).toEqual(['request/header', 'request/header-delta'])
    const first = JSON.stringify(headers[0]?.data)
    expect(first).not.toContain('mcp__late__')
    expect(first).not.toContain('Use late tools with care.')
    const delta = JSON.stringify(headers[1]?.data)
    expect(delta).toContain('mcp__late__pid')
    expect(delta).toContain('Use late tools with care.')
  } finally {
    await t.dispose()
    t.ctx.registry.delete(McpPlugin as never) // ends the server
  }
}, 30_000)
