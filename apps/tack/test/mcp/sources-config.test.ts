// `plugins.mcp.approve` and `plugins.mcp.codexServers` (apps/tack/src/mcp/sources-config.ts): defaults,
// configured values, rejected values naming the file and key, and an untrusted project that cannot set
// them (nor `servers`).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSettings } from '../../src/config/load.ts'
import { MCP_CATALOG_ENTRY } from '../../src/mcp/catalog-entry.ts'
import { mcpSourceSettings } from '../../src/mcp/resolve.ts'

async function load(user: string, project = '', projectTrusted = false) {
  const dir = mkdtempSync(join(tmpdir(), 'tack-mcp-config-'))
  mkdirSync(join(dir, 'ws', '.tack'), { recursive: true })
  const userConfig = join(dir, 'config.yml')
  const projectConfig = join(dir, 'ws', '.tack', 'config.yml')
  writeFileSync(userConfig, user)
  if (project) writeFileSync(projectConfig, project)
  return loadSettings({ userConfig, projectConfig, projectTrusted, flags: {} })
}

describe('plugins.mcp source fields', () => {
  it('default to no blanket approval and no Codex servers', async () => {
    expect(mcpSourceSettings(await load(''))).toEqual({ servers: {}, approve: 'none', codexServers: false })
    const { Config } = await MCP_CATALOG_ENTRY.load()
    expect(Config.parse({})).toMatchObject({ approve: 'none', codexServers: false, servers: {} })
  })

  it('take configured values', async () => {
    const s = await load(
      'plugins:\n  mcp:\n    approve: all\n    codexServers: true\n    servers:\n      a: { command: x }\n',
    )
    expect(mcpSourceSettings(s)).toEqual({
      servers: { a: { command: 'x' } },
      approve: 'all',
      codexServers: true,
    })
  })

  it('reject a wrong value, naming the file, the key and what is allowed', async () => {
    await expect(load('plugins:\n  mcp:\n    approve: yes-please\n')).rejects.toThrow(
      /config\.yml: plugins\.mcp\.approve: must be one of 'none', 'all' \(got "yes-please"\)/,
    )
    await expect(load('plugins:\n  mcp:\n    codexServers: 1\n')).rejects.toThrow(
      /plugins\.mcp\.codexServers: must be true or false/,
    )
    await expect(load('plugins:\n  mcp:\n    servers: [a]\n')).rejects.toThrow(
      /plugins\.mcp\.servers: must be an object of server name/,
    )
  })

  it('an untrusted project cannot set servers, approve or codexServers', async () => {
    const s = await load(
      '',
      'plugins:\n  mcp:\n    approve: all\n    codexServers: true\n    servers:\n      evil: { command: x }\n',
    )
    expect(mcpSourceSettings(s)).toEqual({ servers: {}, approve: 'none', codexServers: false })
    expect(s.refused?.keys).toEqual([
      'plugins.mcp.approve',
      'plugins.mcp.codexServers',
      'plugins.mcp.servers',
    ])
  })
})
