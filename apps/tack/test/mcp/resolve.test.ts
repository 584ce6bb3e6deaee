// resolveMcpServers (apps/tack/src/mcp/resolve.ts): sources, `${VAR}` expansion, precedence, trust and
// approval by definition hash (docs/decisions/0225-mcp-server-sources.md).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the .mcp.json syntax under test
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { definitionHash, recordApproval } from '../../src/mcp/approvals.ts'
import { expandVariables } from '../../src/mcp/expand.ts'
import { maskedDefinition } from '../../src/mcp/mask.ts'
import { pluginServers, resolutionWarnings, resolveMcpServers } from '../../src/mcp/resolve.ts'

function folders() {
  const root = mkdtempSync(join(tmpdir(), 'tack-mcp-'))
  const home = join(root, 'tack-home')
  const cwd = join(root, 'ws')
  const codexHome = join(root, 'codex')
  for (const d of [home, cwd, codexHome]) mkdirSync(d, { recursive: true })
  return { root, home, cwd, codexHome }
}

const mcpJson = (cwd: string, servers: Record<string, unknown>) =>
  writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: servers }))

function resolve(
  f: ReturnType<typeof folders>,
  opts: { mcp?: Record<string, unknown> | false; trusted?: boolean; env?: NodeJS.ProcessEnv } = {},
) {
  return resolveMcpServers({
    settings: { plugins: { mcp: opts.mcp ?? {} } },
    paths: { home: f.home },
    cwd: f.cwd,
    env: { CODEX_HOME: f.codexHome, ...opts.env },
    trust: { trusted: opts.trusted ?? true },
  })
}

describe('expandVariables', () => {
  it('expands ${VAR} and ${VAR:-default}, leaves $VAR, and names an unset variable without default', () => {
    expect(expandVariables('a ${X} ${Y:-dflt} $Z', { X: 'x' })).toEqual({
      ok: true,
      value: 'a x dflt $Z',
      variables: ['X'],
    })
    expect(expandVariables('${EMPTY:-d}', { EMPTY: '' })).toMatchObject({ ok: true, value: 'd' })
    expect(expandVariables('${MISSING}', {})).toEqual({ ok: false, variable: 'MISSING' })
  })
})

describe('resolveMcpServers', () => {
  it('reads .mcp.json with type stdio by default and expands command, args, env, url and headers', () => {
    const f = folders()
    mcpJson(f.cwd, {
      local: { command: '${BIN:-node}', args: ['--root=${ROOT}'], env: { TOKEN: '${GH_TOKEN}' } },
      remote: { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } },
    })
    const r = resolve(f, {
      mcp: { approve: 'all' },
      env: { ROOT: '/r', GH_TOKEN: 'ghp', HOST: 'h.example', API_KEY: 'k' },
    })
    expect(pluginServers(r)).toEqual({
      local: { type: 'stdio', command: 'node', args: ['--root=/r'], env: { TOKEN: 'ghp' } },
      remote: { type: 'http', url: 'https://h.example/mcp', headers: { Authorization: 'Bearer k' } },
    })
    expect(r.servers.local.secretVariables).toEqual(['GH_TOKEN'])
    expect(r.servers.remote.secretVariables).toEqual(['API_KEY', 'HOST'])
  })

  it('skips a server with an unset variable and no default, naming the file, server and key, not the others', () => {
    const f = folders()
    mcpJson(f.cwd, { bad: { command: 'x', env: { TOKEN: '${NOPE}' } }, good: { command: 'y' } })
    const r = resolve(f, { mcp: { approve: 'all' } })
    expect(Object.keys(r.servers)).toEqual(['good'])
    expect(r.skipped).toEqual([expect.objectContaining({ name: 'bad', reason: 'invalid' })])
    expect(resolutionWarnings(r)[0]).toBe(
      `MCP server bad in ${join(f.cwd, '.mcp.json')}: env.TOKEN uses \${NOPE}, which is not set and has no default — skipped`,
    )
  })

  it('a .mcp.json that is not JSON is one problem naming the file', () => {
    const f = folders()
    writeFileSync(join(f.cwd, '.mcp.json'), '{ nope')
    expect(resolve(f).problems[0]).toMatch(new RegExp(`^${join(f.cwd, '.mcp.json')}: not readable as JSON`))
  })

  it('starts nothing from .mcp.json in an untrusted workspace, even with approve: all or an approval', () => {
    const f = folders()
    const def = { command: 'sh', args: ['-c', 'touch marker'] }
    mcpJson(f.cwd, { p: def })
    recordApproval(f.home, f.cwd, 'p', def)
    const r = resolve(f, { trusted: false, mcp: { approve: 'all' } })
    expect(r.servers).toEqual({})
    expect(r.skipped).toEqual([expect.objectContaining({ name: 'p', reason: 'untrusted' })])
  })

  it('in a trusted workspace a project server starts once approved, and is asked again when its definition changes', () => {
    const f = folders()
    const def = { command: 'sh', args: ['-c', 'touch marker'] }
    mcpJson(f.cwd, { p: def })
    expect(resolve(f).skipped).toEqual([
      expect.objectContaining({
        reason: 'unapproved',
        message: 'MCP server p in .mcp.json is not approved: tack mcp approve p',
      }),
    ])
    recordApproval(f.home, f.cwd, 'p', def)
    expect(resolve(f).servers.p).toMatchObject({ approval: 'approved', source: 'project' })
    mcpJson(f.cwd, { p: { ...def, args: ['-c', 'touch other'] } })
    expect(resolve(f).skipped).toEqual([
      expect.objectContaining({
        reason: 'changed',
        message: 'MCP server p in .mcp.json changed since it was approved: tack mcp approve p',
      }),
    ])
  })

  it('an approval is bound to the definition as written, whatever the key order', () => {
    expect(definitionHash({ command: 'a', args: ['b'] })).toBe(definitionHash({ args: ['b'], command: 'a' }))
    expect(definitionHash({ command: 'a' })).not.toBe(definitionHash({ command: 'b' }))
  })

  it('equal names: tack config wins over .mcp.json over Codex; the loser is shadowed, not warned about', () => {
    const f = folders()
    mcpJson(f.cwd, { both: { command: 'from-project' }, pc: { command: 'project-only' } })
    writeFileSync(
      join(f.codexHome, 'config.toml'),
      '[mcp_servers.both]\ncommand = "from-codex"\n[mcp_servers.pc]\ncommand = "codex-pc"\n[mcp_servers.cx]\ncommand = "codex-only"\n',
    )
    const r = resolve(f, {
      mcp: { approve: 'all', codexServers: true, servers: { both: { type: 'stdio', command: 'from-user' } } },
    })
    expect(
      Object.fromEntries(
        Object.entries(pluginServers(r)).map(([n, d]) => [n, 'command' in d ? d.command : '']),
      ),
    ).toEqual({
      both: 'from-user',
      pc: 'project-only',
      cx: 'codex-only',
    })
    expect(r.skipped.map((s) => `${s.name}:${s.source}:${s.reason}`).sort()).toEqual([
      'both:codex:shadowed',
      'both:project:shadowed',
      'pc:codex:shadowed',
    ])
    expect(resolutionWarnings(r)).toEqual([])
  })

  it("reads Codex's servers only on opt-in, with bearer_token_env_var as an Authorization header and seconds as ms", () => {
    const f = folders()
    writeFileSync(
      join(f.codexHome, 'config.toml'),
      'model = "x"\n[mcp_servers.docs]\nurl = "https://d.example/mcp"\nbearer_token_env_var = "DOCS_TOKEN"\nstartup_timeout_sec = 2.5\ntool_timeout_sec = 30\n[mcp_servers.fs]\ncommand = "npx"\nargs = ["-y", "fs"]\nenv = { ROOT = "/r" }\nenabled = false\n',
    )
    expect(resolve(f).servers).toEqual({})
    const r = resolve(f, { mcp: { codexServers: true }, env: { DOCS_TOKEN: 'secret-t' } })
    expect(pluginServers(r)).toEqual({
      docs: {
        type: 'http',
        url: 'https://d.example/mcp',
        headers: { Authorization: 'Bearer secret-t' },
        startupTimeoutMs: 2500,
        toolTimeoutMs: 30000,
      },
      fs: { type: 'stdio', command: 'npx', args: ['-y', 'fs'], env: { ROOT: '/r' }, enabled: false },
    })
    expect(r.servers.docs.secretVariables).toEqual(['DOCS_TOKEN'])
    const unset = resolve(f, { mcp: { codexServers: true } })
    expect(unset.skipped).toEqual([
      expect.objectContaining({
        name: 'docs',
        reason: 'invalid',
        message: expect.stringContaining('DOCS_TOKEN, which is not set'),
      }),
    ])
  })

  it('plugins.mcp: false resolves nothing', () => {
    const f = folders()
    mcpJson(f.cwd, { p: { command: 'x' } })
    expect(resolve(f, { mcp: false })).toEqual({ servers: {}, skipped: [], problems: [] })
  })

  it('masks every env and header value, keeping the names', () => {
    expect(
      maskedDefinition({ command: 'x', env: { A: 'secret' }, headers: { Authorization: 'Bearer t' } }),
    ).toEqual({
      command: 'x',
      env: { A: '<hidden>' },
      headers: { Authorization: '<hidden>' },
    })
  })
})
