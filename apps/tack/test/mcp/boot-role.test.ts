// The `mcp` entry's boot role (apps/tack/src/mcp/boot-role.ts): the plugin's `servers` are the resolved
// ones (over the user's own), the variables their secrets came from are declared to ctx.secrets, and
// what was skipped is warned once through the plugin's logger.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the .mcp.json syntax under test
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import type { BootOptions } from '../../src/boot-role.ts'
import { MCP_BOOT_ROLE } from '../../src/mcp/boot-role.ts'

function options(trusted: boolean): BootOptions {
  const root = mkdtempSync(join(tmpdir(), 'tack-mcp-boot-'))
  const cwd = join(root, 'ws')
  mkdirSync(cwd)
  writeFileSync(
    join(cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { proj: { command: 'p', env: { K: '${PROJ_TOKEN}' } } } }),
  )
  const servers = { own: { type: 'http', url: 'https://o.example', headers: { A: 'literal' } } }
  return {
    settings: { plugins: { mcp: { servers, approve: 'all' } } } as unknown as BootOptions['settings'],
    paths: { home: join(root, 'home') } as BootOptions['paths'],
    env: { PROJ_TOKEN: 'tok' },
    cwd,
    trust: { trusted, via: trusted ? 'flag' : 'none' },
  }
}

describe('the mcp boot role', () => {
  it('fixes servers to the resolved map and declares the variables of their secrets', () => {
    const opts = options(true)
    expect(MCP_BOOT_ROLE.overrides?.(opts, {})).toEqual({
      servers: {
        own: { type: 'http', url: 'https://o.example', headers: { A: 'literal' } },
        proj: { type: 'stdio', command: 'p', env: { K: 'tok' } },
      },
    })
    const ctx = new Context()
    MCP_BOOT_ROLE.loaded?.(ctx, opts, {})
    expect(ctx.secrets.variables()).toEqual(['PROJ_TOKEN'])
  })

  it('in an untrusted workspace gives the plugin the user’s servers only and warns about the rest', () => {
    const opts = options(false)
    const fixed = MCP_BOOT_ROLE.overrides?.(opts, {}) as { servers: object }
    expect(Object.keys(fixed.servers)).toEqual(['own'])
    const ctx = new Context()
    const warned: string[] = []
    ctx.logger.exporter({
      colors: false,
      export: (m: { type: string; args: unknown[] }) => {
        if (m.type === 'warn') warned.push(String(m.args[0]))
      },
    } as unknown as Parameters<typeof ctx.logger.exporter>[0])
    MCP_BOOT_ROLE.loaded?.(ctx, opts, {})
    expect(warned).toEqual([
      'MCP server proj in .mcp.json does not start: the workspace is not trusted (tack trust, then tack mcp approve proj)',
    ])
    expect(ctx.secrets.variables()).toEqual([])
  })
})
