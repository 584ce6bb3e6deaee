// `tack mcp` and the MCP sources of a run, through the real binary (docs/decisions/0225-mcp-server-sources.md):
// add/list/get/remove/approve round trips with secrets hidden, and project servers that must not start
// (untrusted, unapproved, changed) named once on stderr. A project server's command would leave a
// marker file if anything ran it, so "nothing ran" holds whatever the MCP plugin does.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the .mcp.json syntax under test
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { jsonLines, runOnLoop, runTack, sandbox, scriptedModel, textAnswers } from './helpers.ts'

const SECRET_ENV = 'env-secret-value-123'
const SECRET_HEADER = 'header-secret-value-456'

describe('tack mcp add/list/get/remove/approve', () => {
  it('round-trips user and project servers; env and header values never reach the output', async () => {
    const box = await sandbox()
    const mcp = (...args: string[]) => runTack(['mcp', ...args], { env: box.env, cwd: box.workspace })
    const added = await mcp(
      'add',
      'gh',
      '-e',
      `GITHUB_TOKEN=${SECRET_ENV}`,
      '--',
      'npx',
      '-y',
      'server-github',
    )
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)
    const web = await mcp(
      'add',
      '--transport',
      'http',
      'docs',
      'https://docs.example/mcp',
      '--header',
      `Authorization: Bearer ${SECRET_HEADER}`,
    )
    expect(web.code).toBe(0)
    const proj = await mcp('add', '--scope', 'project', 'proj', '--', 'sh', '-c', 'touch marker')
    expect(proj.stdout).toContain('tack mcp approve proj')

    // the user's file keeps what it held, and gained the servers
    const userConfig = readFileSync(join(box.tackHome, 'config.yml'), 'utf8')
    expect(userConfig).toContain(SECRET_ENV)
    expect(JSON.parse(readFileSync(join(box.workspace, '.mcp.json'), 'utf8'))).toEqual({
      mcpServers: { proj: { type: 'stdio', command: 'sh', args: ['-c', 'touch marker'] } },
    })

    const list = await mcp('list', '--no-connect')
    expect(list.code).toBe(0)
    expect(list.stdout).toMatch(
      /^docs\s+tack config\s+http\s+starts\s+not connected\s+https:\/\/docs\.example\/mcp$/m,
    )
    expect(list.stdout).toMatch(/^gh\s+tack config\s+stdio\s+starts\s+not connected\s+npx -y server-github$/m)
    expect(list.stdout).toMatch(
      /^proj\s+\.mcp\.json\s+stdio\s+untrusted\s+not connected\s+sh -c "touch marker"$/m,
    )
    const json = await mcp('list', '--json', '--no-connect')
    const get = await mcp('get', 'gh')
    const getDocs = await mcp('get', 'docs', '--json')
    expect(get.stdout).toContain('GITHUB_TOKEN')
    for (const out of [list, json, get, getDocs])
      for (const secret of [SECRET_ENV, SECRET_HEADER]) {
        expect(out.stdout).not.toContain(secret)
        expect(out.stderr).not.toContain(secret)
      }
    expect(JSON.parse(getDocs.stdout)[0].definition.headers).toEqual({ Authorization: '<hidden>' })

    // approval is for a trusted workspace's project servers
    expect((await mcp('approve', 'gh')).code).toBe(2)
    expect((await runTack(['trust', box.workspace], { env: box.env, cwd: box.workspace })).code).toBe(0)
    expect((await mcp('list', '--no-connect')).stdout).toMatch(/^proj\s+\.mcp\.json\s+stdio\s+not approved/m)
    const approve = await mcp('approve', 'proj')
    expect(approve.code).toBe(0)
    expect((await mcp('list', '--no-connect')).stdout).toMatch(/^proj\s+\.mcp\.json\s+stdio\s+starts/m)

    const removed = await mcp('remove', 'gh')
    expect(removed.code).toBe(0)
    expect(readFileSync(join(box.tackHome, 'config.yml'), 'utf8')).not.toContain(SECRET_ENV)
    expect((await mcp('remove', 'proj', '--scope', 'project')).code).toBe(0)
    expect(JSON.parse(readFileSync(join(box.workspace, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: {} })
    expect(existsSync(join(box.workspace, 'marker'))).toBe(false)
  }, 60_000)

  it('tack mcp get shows the ${VAR} references env and headers send, hiding only literal values (0265)', async () => {
    const box = await sandbox()
    const key = 'sk-openai-provider-key-8080'
    const env = { ...box.env, OPENAI_API_KEY: key }
    writeFileSync(
      join(box.workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          collector: {
            url: 'https://collector.example/mcp',
            headers: {
              'X-Trace': '${OPENAI_API_KEY}',
              Mixed: 'Bearer ${OPENAI_API_KEY}',
              Plain: SECRET_HEADER,
            },
          },
        },
      }),
    )
    const get = await runTack(['mcp', 'get', 'collector'], { env, cwd: box.workspace })
    const json = await runTack(['mcp', 'get', 'collector', '--json'], { env, cwd: box.workspace })
    expect(get.code).toBe(0)
    expect(get.stdout).toContain('"X-Trace":"${OPENAI_API_KEY}"')
    expect(JSON.parse(json.stdout)[0].definition.headers).toEqual({
      'X-Trace': '${OPENAI_API_KEY}',
      Mixed: '<hidden, from ${OPENAI_API_KEY}>',
      Plain: '<hidden>',
    })
    for (const out of [get, json])
      for (const secret of [key, SECRET_HEADER]) {
        expect(out.stdout).not.toContain(secret)
        expect(out.stderr).not.toContain(secret)
      }
  }, 60_000)

  it('bad input is one line and exit code 2, never echoing a value', async () => {
    const box = await sandbox()
    const mcp = (...args: string[]) => runTack(['mcp', ...args], { env: box.env, cwd: box.workspace })
    const cases: Array<[string[], RegExp]> = [
      [['add', 'bad name', '--', 'x'], /server name "bad name" must be/],
      [['add', 'x', '-e', `NOEQUALS${SECRET_ENV}`, '--', 'y'], /-e takes NAME=VALUE/],
      [['add', 'x'], /needs its command/],
      [['add', '--transport', 'http', 'x', 'not a url'], /is not a URL/],
      [['add', '--transport', 'ftp', 'x', 'u'], /--transport must be one of stdio, http, sse/],
      [['add', '--scope', 'team', 'x', '--', 'y'], /--scope must be one of user, project/],
      [['add', 'x', '--header', 'A: b', '--', 'y'], /--header is for http and sse servers/],
      [['remove', 'nothing'], /no MCP server named nothing/],
      [['get', 'nothing'], /no MCP server named nothing/],
      [['frobnicate'], /usage: tack mcp list/],
    ]
    for (const [args, message] of cases) {
      const r = await mcp(...args)
      expect({ args, code: r.code }).toEqual({ args, code: 2 })
      expect(r.stderr).toMatch(message)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).not.toContain(SECRET_ENV)
    }
    await mcp('add', 'twice', '--', 'a')
    const again = await mcp('add', 'twice', '--', 'b')
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/twice already exists in/)
  }, 60_000)
})

describe('project MCP servers in a headless run', () => {
  async function projectWithServer() {
    const box = await sandbox()
    const marker = join(box.workspace, 'marker')
    const write = (command: string) =>
      writeFileSync(
        join(box.workspace, '.mcp.json'),
        JSON.stringify({ mcpServers: { probe: { command: 'sh', args: ['-c', command] } } }),
      )
    write(`touch ${marker}`)
    const run = async (...flags: string[]) => {
      const model = await scriptedModel(box.root, textAnswers('done'))
      return runTack(['run', ...flags, '--model', model, 'hello'], { env: box.env, cwd: box.workspace })
    }
    return { box, marker, write, run }
  }

  it('an untrusted workspace starts nothing from .mcp.json and says so once on stderr', async () => {
    const { marker, run } = await projectWithServer()
    const r = await run()
    expect(r.code).toBe(0)
    const lines = r.stderr.split('\n').filter((l) => l.includes('MCP server probe'))
    expect(lines).toEqual([
      'tack: mcp: MCP server probe in .mcp.json does not start: the workspace is not trusted (tack trust, then tack mcp approve probe)',
    ])
    expect(existsSync(marker)).toBe(false)
  }, 60_000)

  it('a trusted but unapproved server is skipped; approved it is not; changed it is skipped again', async () => {
    const { box, marker, write, run } = await projectWithServer()
    const unapproved = await run('--trust')
    expect(unapproved.code).toBe(0)
    expect(unapproved.stderr.split('\n').filter((l) => l.includes('MCP server'))).toEqual([
      'tack: mcp: MCP server probe in .mcp.json is not approved: tack mcp approve probe',
    ])
    expect(existsSync(marker)).toBe(false)

    const approve = await runTack(['mcp', 'approve', 'probe', '--trust'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(approve.code).toBe(0)
    const approved = await run('--trust')
    // Approved, it is started: its command ran (it is no MCP server, so the client then says it did not
    // start — one line, and the run goes on), and no line says it was skipped.
    expect(approved.code).toBe(0)
    expect(existsSync(marker)).toBe(true)
    expect(approved.stderr).not.toMatch(/not approved|changed since/)
    expect(approved.stderr.split('\n').filter((l) => l.includes('MCP server'))).toEqual([
      expect.stringMatching(/^tack: mcp: MCP server "probe" did not start: /),
    ])

    // a marker of its own: once @tack/mcp connects servers, the approved run above may have made the first
    const changedMarker = join(box.workspace, 'changed-marker')
    write(`touch ${changedMarker}`)
    const changed = await run('--trust')
    expect(changed.stderr.split('\n').filter((l) => l.includes('MCP server'))).toEqual([
      'tack: mcp: MCP server probe in .mcp.json changed since it was approved: tack mcp approve probe',
    ])
    expect(existsSync(changedMarker)).toBe(false)
  }, 90_000)
})

describe('tack doctor and MCP servers', () => {
  it('lists every server with its state; an unusable one is a problem, an unapproved one a warning; no value is shown', async () => {
    const box = await sandbox()
    writeFileSync(
      join(box.workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          needsvar: { command: 'x', env: { TOKEN: '${UNSET_TOKEN_VAR}' } },
          waiting: { command: 'y', env: { TOKEN: SECRET_ENV } },
        },
      }),
    )
    const r = await runTack(['doctor', '--trust'], { env: box.env, cwd: box.workspace })
    expect(r.stdout).toMatch(
      /^mcp servers +needsvar \(\.mcp\.json, invalid\), waiting \(\.mcp\.json, not approved\)$/m,
    )
    expect(r.stdout).toContain(
      `  - MCP server needsvar in ${join(box.workspace, '.mcp.json')}: env.TOKEN uses \${UNSET_TOKEN_VAR}, which is not set and has no default — skipped`,
    )
    expect(r.stdout).toContain(
      '  - MCP server waiting in .mcp.json is not approved: tack mcp approve waiting',
    )
    expect(r.stdout).not.toContain(SECRET_ENV)
    expect(r.code).toBe(1)

    const list = await runTack(['mcp', 'list', '--trust'], { env: box.env, cwd: box.workspace })
    expect(list.stdout).toMatch(/^needsvar\s+\.mcp\.json\s+stdio\s+invalid\s+not connected\s+x$/m)
    const approve = await runTack(['mcp', 'approve', 'needsvar', '--trust'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(approve.code).toBe(2)
    expect(approve.stderr).toMatch(/UNSET_TOKEN_VAR\}, which is not set and has no default/)
  }, 60_000)

  it('a .mcp.json that is not JSON is a problem naming the file, without the excerpt Node quotes', async () => {
    const box = await sandbox()
    // an unquoted value: Node's message would quote the text around it
    writeFileSync(join(box.workspace, '.mcp.json'), `{"K": ${SECRET_ENV}}`)
    const r = await runTack(['doctor'], { env: box.env, cwd: box.workspace })
    expect(r.stdout).toContain(`  - ${join(box.workspace, '.mcp.json')}: not readable as JSON\n`)
    expect(r.stdout).not.toContain(SECRET_ENV.slice(0, 8))
  }, 60_000)
})

describe("the variables of an MCP server's secrets", () => {
  it("are declared secret: bash's commands do not get them and tack's output redacts them", async () => {
    const canary = 'mcp-canary-value-7781'
    const box = await sandbox({ MCP_CANARY_VAR: canary })
    writeFileSync(
      join(box.workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { probe: { command: 'true', env: { TOKEN: '${MCP_CANARY_VAR}' } } } }),
    )
    expect(
      (await runTack(['mcp', 'approve', 'probe', '--trust'], { env: box.env, cwd: box.workspace })).code,
    ).toBe(0)
    const script: LoopbackEntry[] = [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo "v=[$MCP_CANARY_VAR]"' } }] },
      { kind: 'text', text: `the value is ${canary}` },
    ]
    const server = await startLoopbackServer({ script })
    try {
      const run = await runOnLoop(box, server.baseUrl, ['--trust', '--json', '--model', 'loop/m', 'probe'])
      expect(run.code).toBe(0)
      const seen = server.requests.map((r) => JSON.stringify(r.body ?? '')).join('\n')
      expect(seen).toContain('v=[]')
      expect(seen).not.toContain(canary)
      expect(run.stdout).not.toContain(canary)
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ answer: 'the value is [redacted]' })
    } finally {
      await server.close()
    }
  }, 60_000)
})
