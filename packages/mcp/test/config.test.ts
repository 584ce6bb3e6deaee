// The plugin's Config: defaults, configured values, and rejected ones naming the key and the range.
import { ConfigError } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import { McpConfig } from '../src/config.ts'

const parse = (input: unknown) => McpConfig.parse(input as never)

describe('plugins.mcp config', () => {
  it('defaults', () => {
    expect(parse({})).toEqual({
      servers: {},
      startupTimeoutMs: 10_000,
      connectTimeoutMs: 60_000,
      toolTimeoutMs: 300_000,
      maxResultBytes: 100_000,
      maxDescriptionChars: 8_192,
      maxInstructionsChars: 8_192,
      maxMessageBytes: 10 * 1024 * 1024,
      stderrMaxBytes: 65_536,
      restartBackoffMs: 1_000,
      restartBackoffMaxMs: 30_000,
      deferAbove: 40,
    })
  })

  it('configured servers: stdio is the default type', () => {
    const config = parse({
      servers: {
        a: { command: 'srv', args: ['x'], env: { K: 'v' } },
        b: { type: 'http', url: 'https://h/mcp', headers: { A: 'b' } },
      },
      toolTimeoutMs: 5_000,
      deferAbove: 0,
    })
    expect(config.servers.a).toEqual({ type: 'stdio', command: 'srv', args: ['x'], env: { K: 'v' } })
    expect(config.servers.b?.type).toBe('http')
    expect(config.toolTimeoutMs).toBe(5_000)
    expect(config.deferAbove).toBe(0)
  })

  it.each([
    [{ toolTimeoutMs: 0 }, 'toolTimeoutMs'],
    [{ maxResultBytes: 10 }, 'maxResultBytes'],
    [{ maxMessageBytes: 1_000 }, 'maxMessageBytes'],
    [{ maxDescriptionChars: 10 }, 'maxDescriptionChars'],
    [{ maxInstructionsChars: 2_000_000 }, 'maxInstructionsChars'],
    [{ deferAbove: -1 }, 'deferAbove'],
    [{ deferAbove: 2.5 }, 'deferAbove'],
    [{ servers: { a: { command: '' } } }, 'servers.a.command'],
    [{ servers: { a: { type: 'http', url: 'ftp://x' } } }, 'servers.a.url'],
    [{ servers: { a: { type: 'ws', url: 'http://x' } } }, 'servers.a.type'],
    [{ servers: { a: { command: 'x', url: 'http://x' } } }, 'servers.a.url'],
    [{ servers: { a: { command: 'x', toolTimeoutMs: -1 } } }, 'servers.a.toolTimeoutMs'],
    [{ servers: { a: { command: 'x', env: { K: 1 } } } }, 'servers.a.env'],
    [{ restartBackoffMs: 5_000, restartBackoffMaxMs: 1_000 }, 'restartBackoffMs'],
  ])('rejects %j at %s', (input, path) => {
    let error: unknown
    try {
      parse(input)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).issues.map((i) => i.path)).toContain(path)
  })
})
