// Bad input (spec 55-mcp.md): a server that crashes mid-call, hangs, writes garbage on stdout, returns
// a huge result, does not start, or starts late — the call gets a result the model can read, one line
// reaches the person, and the session goes on. Real child processes (fixtures/server.ts), no mocks.
import { describe, expect, it } from 'vitest'
import { call, fixture, mcpContext, textOf } from './helpers.ts'

const fast = { restartBackoffMs: 0 }

describe('a server that fails', () => {
  it('crashes mid-call: the call gets an error result, one warning, and the next call restarts it', async () => {
    const { ctx, warnings } = await mcpContext({ servers: { fx: fixture() }, ...fast })
    const pid = Number(textOf(await call(ctx, 'mcp__fx__pid', {})))
    const pending = call(ctx, 'mcp__fx__slow', { ms: 30_000 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    process.kill(pid, 'SIGKILL')
    const failed = await pending
    expect(failed.isError).toBe(true)
    expect(failed.error?.code).toBe('MCP_SERVER_EXITED')
    expect(textOf(failed)).toContain('started again on the next call')
    expect(warnings.filter((w) => w.includes('exited'))).toHaveLength(1)
    const next = await call(ctx, 'mcp__fx__pid', {})
    expect(next.isError).toBe(false)
    expect(Number(textOf(next))).not.toBe(pid)
  }, 30_000)

  it('a restart waits out the backoff after a crash', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() }, restartBackoffMs: 800 })
    const pid = Number(textOf(await call(ctx, 'mcp__fx__pid', {})))
    process.kill(pid, 'SIGKILL')
    await new Promise((resolve) => setTimeout(resolve, 100))
    const started = Date.now()
    expect((await call(ctx, 'mcp__fx__pid', {})).isError).toBe(false)
    expect(Date.now() - started).toBeGreaterThanOrEqual(600)
  }, 30_000)

  it('hangs past toolTimeoutMs: TIMEOUT, and the server is sent notifications/cancelled', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() }, toolTimeoutMs: 300 })
    const started = Date.now()
    const result = await call(ctx, 'mcp__fx__slow', { ms: 20_000 })
    expect(result.error?.code).toBe('TIMEOUT')
    expect(Date.now() - started).toBeLessThan(5_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(textOf(await call(ctx, 'mcp__fx__cancelled', {}))).toBe('1')
  }, 30_000)

  it("a server's own toolTimeoutMs overrides the plugin's", async () => {
    const { ctx } = await mcpContext({
      servers: { fx: { ...fixture(), toolTimeoutMs: 200 } },
      toolTimeoutMs: 60_000,
    })
    expect((await call(ctx, 'mcp__fx__hang', {})).error?.code).toBe('TIMEOUT')
  }, 30_000)

  it('an aborted call sends notifications/cancelled', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() } })
    const abort = new AbortController()
    const pending = call(ctx, 'mcp__fx__slow', { ms: 20_000 }, abort.signal)
    await new Promise((resolve) => setTimeout(resolve, 200))
    abort.abort()
    expect((await pending).isError).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(textOf(await call(ctx, 'mcp__fx__cancelled', {}))).toBe('1')
  }, 30_000)

  it('writes garbage on stdout: its tools still work, and one line says so', async () => {
    const { ctx, warnings } = await mcpContext({ servers: { fx: fixture('--garbage') } })
    expect(textOf(await call(ctx, 'mcp__fx__huge', { bytes: 5 }))).toBe('xxxxx')
    expect(warnings.filter((w) => w.includes('not MCP'))).toHaveLength(1)
  }, 30_000)

  it('returns a huge result: cut at maxResultBytes with a note naming the bound', async () => {
    const { ctx } = await mcpContext({ servers: { fx: fixture() }, maxResultBytes: 2_048 })
    const text = textOf(await call(ctx, 'mcp__fx__huge', { bytes: 5_000_000 }))
    expect(text.startsWith('x'.repeat(2_048))).toBe(true)
    expect(text).toContain('plugins.mcp.maxResultBytes (2048)')
    expect(Buffer.byteLength(text)).toBeLessThan(2_300)
  }, 30_000)

  it('does not start: one line names it and its stderr, the session goes on without its tools', async () => {
    const { ctx, warnings } = await mcpContext({
      servers: {
        broken: {
          type: 'stdio',
          command: process.execPath,
          args: ['-e', 'console.error("no config here"); process.exit(3)'],
        },
        fx: fixture(),
      },
    })
    expect(ctx.tools.schemas().some((t) => t.name.startsWith('mcp__broken__'))).toBe(false)
    expect(textOf(await call(ctx, 'mcp__fx__huge', { bytes: 1 }))).toBe('x')
    expect(warnings.find((w) => w.includes('"broken" did not start'))).toContain('no config here')
  }, 30_000)

  it('starts past startupTimeoutMs: the plugin goes on, one line says so, and its tools join when it is ready', async () => {
    const started = Date.now()
    const { ctx, warnings } = await mcpContext({
      servers: { late: fixture('--delay-start', '1500') },
      startupTimeoutMs: 200,
    })
    expect(Date.now() - started).toBeLessThan(1_400)
    expect(ctx.tools.get('mcp__late__pid')).toBeUndefined()
    await ctx.mcp.ready
    expect(warnings).toContainEqual(
      expect.stringMatching(/"late" is not ready after \d+ ms \(startupTimeoutMs\)/),
    )
    await expect.poll(() => ctx.tools.get('mcp__late__pid'), { timeout: 10_000 }).toBeDefined()
    expect(warnings).toContainEqual(expect.stringMatching(/"late" is ready after all: its 1\d tools join/))
  }, 30_000)
})
