// A server's life with the session (spec 55-mcp.md M1, M2): its tools listed over every page, kept in
// step with notifications/tools/list_changed, and its process ended when the plugin is disposed.
import { readdirSync, readFileSync } from 'node:fs'
import { createToolsContext } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { McpPlugin } from '../src/plugin.ts'
import { alive, call, fixture, mcpContext, textOf } from './helpers.ts'

describe('a server with the session', () => {
  it('lists every page of tools', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture('--pages', '2') } })
    const names = ctx.tools.schemas().map((s) => s.name)
    expect(names).toHaveLength(12)
    expect(names).toContain('mcp__fx__browse')
  }, 30_000)

  it('re-lists its tools on notifications/tools/list_changed', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture('--pages', '4') } })
    expect(ctx.tools.get('mcp__fx__grown12')).toBeUndefined()
    expect(textOf(await call(ctx, 'mcp__fx__grow', {}))).toBe('grown')
    await expect.poll(() => ctx.tools.get('mcp__fx__grown12'), { timeout: 5_000 }).toBeDefined()
    expect(ctx.tools.get('mcp__fx__pid')).toBeDefined()
  }, 30_000)

  it('ends the stdio process when the plugin is disposed (the session ends)', async () => {
    const ctx = await createToolsContext()
    const fiber = await ctx.plugin(McpPlugin, { servers: { fx: fixture() } })
    await ctx.mcp.ready
    const pid = Number(textOf(await call(ctx, 'mcp__fx__pid', {})))
    expect(alive(pid)).toBe(true)
    await fiber.dispose()
    expect(ctx.tools.get('mcp__fx__pid')).toBeUndefined()
    expect(alive(pid)).toBe(false)
  }, 30_000)

  it('a disabled server is not started', async () => {
    const { ctx } = await mcpContext({ servers: { fx: { ...fixture(), enabled: false } } })
    expect(ctx.tools.schemas()).toEqual([])
  }, 30_000)
})

describe('a server still starting when the session ends', () => {
  it('is ended at once, not when its start would time out', async () => {
    const marker = `--marker-${process.pid}-${Date.now()}`
    const ctx = await createToolsContext()
    const fiber = await ctx.plugin(McpPlugin, {
      servers: { slow: fixture('--delay-start', '60000', marker) },
      startupTimeoutMs: 100,
    })
    const running = () =>
      readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .some((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)
          } catch {
            return false
          }
        })
    await expect.poll(running, { timeout: 5_000 }).toBe(true)
    await fiber.dispose()
    expect(running()).toBe(false)
  }, 30_000)
})
