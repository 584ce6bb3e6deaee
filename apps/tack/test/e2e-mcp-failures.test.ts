// Servers that misbehave, through the real binary (spec 55-mcp.md "Bad input", issue 24's acceptance): in
// one `tack run`, the model calls in parallel a tool whose result is 50 MB, one that never answers, one
// whose server exits mid-call and one on a server that writes non-protocol bytes on stdout. The session
// goes on, every call gets a result the model reads in the next request (nothing lost; the 50 MB answer,
// past `maxMessageBytes`, is an error naming that bound), one line per failing server reaches the
// person, and the servers that were ended answer the next calls (a 2 MB result cut at `maxResultBytes`).
import { fileURLToPath } from 'node:url'
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

const fixtureServer = fileURLToPath(new URL('../../../packages/mcp/test/fixtures/server.ts', import.meta.url))
const fixture = (...args: string[]) => ({
  type: 'stdio',
  command: process.execPath,
  args: [fixtureServer, ...args],
})

const FIFTY_MB = 50 * 1024 * 1024

test('a 50 MB result, a hang, a crash and stdout garbage: the session goes on and the model reads each failure', async () => {
  const box = await sandbox()
  const server = await startLoopbackServer({
    script: [
      {
        kind: 'tool-calls',
        calls: [
          { name: 'mcp__big__huge', args: { bytes: FIFTY_MB } },
          { name: 'mcp__stuck__hang', args: {} },
          { name: 'mcp__dies__crash', args: {} },
          { name: 'mcp__junk__pid', args: {} },
        ],
      },
      {
        kind: 'tool-calls',
        calls: [
          { name: 'mcp__dies__pid', args: {} },
          { name: 'mcp__big__huge', args: { bytes: 2_000_000 } },
        ],
      },
      { kind: 'text', text: 'done' },
    ],
  })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl)
    const servers = {
      big: fixture(),
      stuck: { ...fixture(), toolTimeoutMs: 1_500 },
      dies: fixture(),
      junk: fixture('--garbage'),
    }
    const { appendFile } = await import('node:fs/promises')
    await appendFile(
      config,
      `  mcp:\n    restartBackoffMs: 0\n    deferAbove: 1000\n    maxResultBytes: 4096\n    servers: ${JSON.stringify(servers)}\n`,
    )
    const run = await runTack(
      ['run', '--config', config, '--json', '--permission-mode', 'yolo', '--model', 'loop/m', 'go'],
      { env: box.env, cwd: box.workspace },
    )
    expect(run.code, run.stderr).toBe(0)

    const results = jsonLines(run.stdout)
      .filter((line) => line.type === 'tool/result')
      .map((line) => line.data as { name: string; isError: boolean; content: Array<{ text: string }> })
    const byName = (name: string) => results.filter((r) => r.name === name)
    const text = (r: { content: Array<{ text: string }> } | undefined) =>
      r?.content.map((b) => b.text).join('')

    const [big, cut] = byName('mcp__big__huge')
    expect(big?.isError).toBe(true)
    expect(text(big)).toContain('over 10485760 bytes (plugins.mcp.maxMessageBytes)')
    expect(cut?.isError).toBe(false)
    expect(text(cut)).toContain('plugins.mcp.maxResultBytes (4096)')
    expect(Buffer.byteLength(text(cut) ?? '')).toBeLessThan(8_192)

    const [stuck] = byName('mcp__stuck__hang')
    expect(stuck?.isError).toBe(true)
    expect(text(stuck)).toMatch(/1500 ms/)

    const [crashed, again] = byName('mcp__dies__crash').concat(byName('mcp__dies__pid'))
    expect(crashed?.isError).toBe(true)
    expect(text(crashed)).toContain('started again on the next call')
    expect(again?.isError).toBe(false)
    expect(Number(text(again))).toBeGreaterThan(0)

    const [junk] = byName('mcp__junk__pid')
    expect(junk?.isError).toBe(false)
    expect(Number(text(junk))).toBeGreaterThan(0)

    // The model read every result of the first step in the second request, the 50 MB cut to the bound.
    const second = JSON.stringify(server.requests[1])
    for (const r of results.slice(0, 4)) expect(second).toContain(JSON.stringify(text(r)).slice(1, 60))
    expect(second.length).toBeLessThan(64 * 1024)
    expect(server.requests).toHaveLength(3)

    // One line per failing server reaches the person.
    const lines = (name: string) => run.stderr.split('\n').filter((l) => l.includes(`"${name}"`))
    expect(lines('dies'), run.stderr).toHaveLength(1)
    expect(lines('big'), run.stderr).toHaveLength(1)
    expect(lines('big')[0]).toMatch(/over 10485760 bytes \(plugins\.mcp\.maxMessageBytes\)/)
    expect(lines('junk'), run.stderr).toHaveLength(1)
    expect(lines('junk')[0]).toMatch(/not MCP/)
  } finally {
    await server.close()
  }
}, 90_000)
