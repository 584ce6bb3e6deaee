// Servers spawned before the plugin loads (docs/decisions/0240-mcp-early-start.md): the plugin's
// connection takes an early process over when it was spawned exactly as the connection would spawn it —
// one process, not two — and ends one spawned otherwise (a definition or environment that changed),
// starting its own. Real processes of the test server, found in /proc by a marker in their environment.
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { endUntakenServers, spawnEarlyServers } from '../src/early-spawn.ts'
import { call, fixture, mcpContext, textOf } from './helpers.ts'

/** The pids of living processes whose environment holds `MARK=<marker>`. */
function marked(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
        if (['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '')) return false
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`MARK=${marker}`)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe.skipIf(process.platform !== 'linux')('stdio servers spawned early', () => {
  it('the connection takes the early process over: one process, the one that answers', async () => {
    const marker = randomUUID()
    const server = { ...fixture(), env: { MARK: marker } }
    spawnEarlyServers({ fx: server }, [])
    await expect.poll(() => marked(marker).length, { timeout: 5_000 }).toBe(1)
    const [early] = marked(marker)
    const { ctx } = await mcpContext({ servers: { fx: server } })
    expect(Number(textOf(await call(ctx, 'mcp__fx__pid', {})))).toBe(early)
    expect(marked(marker)).toEqual([early])
  }, 30_000)

  it('an early process spawned otherwise than the connection would is ended; the connection starts its own', async () => {
    const marker = randomUUID()
    spawnEarlyServers({ fx: { ...fixture(), env: { MARK: marker } } }, [])
    await expect.poll(() => marked(marker).length, { timeout: 5_000 }).toBe(1)
    const [early] = marked(marker)
    // the definition changed between the spawn and the plugin (one more variable)
    const { ctx } = await mcpContext({ servers: { fx: { ...fixture(), env: { MARK: marker, MORE: '1' } } } })
    const own = Number(textOf(await call(ctx, 'mcp__fx__pid', {})))
    expect(own).not.toBe(early)
    await expect.poll(() => marked(marker), { timeout: 10_000 }).toEqual([own])
  }, 30_000)

  it('what no connection takes is ended', async () => {
    const marker = randomUUID()
    spawnEarlyServers({ unused: { ...fixture(), env: { MARK: marker } } }, [])
    await expect.poll(() => marked(marker).length, { timeout: 5_000 }).toBe(1)
    await endUntakenServers()
    expect(marked(marker)).toEqual([])
  }, 30_000)
})
