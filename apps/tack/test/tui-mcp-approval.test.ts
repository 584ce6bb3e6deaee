// The interactive mode's MCP approval question in a real terminal (55-mcp.md M6,
// docs/decisions/0250-mcp-approval-prompt.md): a trusted folder's `.mcp.json` server not yet approved is
// asked about once before the screen comes up, with its command as written and its env values hidden;
// yes records the approval as `tack mcp approve` does and the server starts in this very session, no
// starts nothing, a changed definition is asked again as changed, and an untrusted folder asks nothing.
// The server's command leaves a marker file when it runs, so "it started" is read from the disk.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the .mcp.json syntax under test
import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { runTack, type Sandbox, sandbox, writeLoopConfig } from './helpers.ts'
import { everythingBin } from './mcp-everything.ts'
import { type PtySession, startPty } from './pty/terminal.ts'
import { TACK_BIN } from './pty/tui.ts'

const SECRET = 'project-token-value-789'

const started: { term: PtySession; server: LoopbackServer }[] = []
afterEach(async () => {
  for (const { term, server } of started.splice(0)) {
    await term.close()
    await server.close()
  }
})

/** `.mcp.json` naming `docs`: server-everything behind a shell that first touches `marker`. */
async function projectServer(box: Sandbox, marker: string, extraArg = ''): Promise<void> {
  const script = `touch '${marker}'; exec '${process.execPath}' '${everythingBin}' stdio${extraArg}`
  await writeFile(
    join(box.workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { docs: { command: 'sh', args: ['-c', script], env: { TOKEN: SECRET } } } }),
  )
}

async function tackIn(box: Sandbox): Promise<PtySession> {
  return tackInWith(box, {})
}

async function tackInWith(
  box: Sandbox,
  extraEnv: Record<string, string>,
  apiKeyEnv?: string,
): Promise<PtySession> {
  const server = await startLoopbackServer({ script: [] })
  const config = await writeLoopConfig(box.root, server.baseUrl, {
    model: 'loop/m',
    ...(apiKeyEnv && { apiKeyEnv }),
  })
  const term = startPty({
    file: process.execPath,
    args: [TACK_BIN, '--config', config],
    cwd: box.workspace,
    env: { TERM: 'xterm-256color', ...box.env, ...extraEnv },
    cols: 160,
    rows: 40,
  })
  started.push({ term, server })
  return term
}

async function answer(term: PtySession, text: string): Promise<void> {
  await term.waitFor('[N]o', 30_000)
  term.type(text)
  term.press('enter')
}

const approvals = (box: Sandbox) => JSON.parse(readFileSync(join(box.tackHome, 'mcp-approvals.json'), 'utf8'))

async function trusted(): Promise<Sandbox> {
  const box = await sandbox()
  expect((await runTack(['trust', box.workspace], { env: box.env, cwd: box.workspace })).code).toBe(0)
  return box
}

/** Waits until `path` exists (the server's shell ran), at most `ms`. */
async function appears(path: string, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (existsSync(path)) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return existsSync(path)
}

describe('tack interactive: approving a project MCP server', () => {
  it('asks once with the command as written and env values hidden; yes records it and the server starts now', async () => {
    const box = await trusted()
    const marker = join(box.root, 'started')
    await projectServer(box, marker)
    const term = await tackIn(box)
    await answer(term, 'y')
    await term.waitFor('loop/m', 30_000)
    const text = term.allText().replace(/\n/g, '')
    expect(text).toContain('MCP server docs in .mcp.json (new): runs sh -c')
    expect(text).toContain('env TOKEN=<hidden>')
    expect(text).not.toContain(SECRET)
    expect(text).toContain('approved MCP server docs')
    expect(await appears(marker)).toBe(true)
    const recorded = Object.values(approvals(box).workspaces) as Array<Record<string, string>>
    expect(recorded[0]?.docs).toMatch(/^sha256:[0-9a-f]{64}$/)
    await term.close()

    // approved: the next start asks nothing
    const again = await tackIn(box)
    await again.waitFor('loop/m', 30_000)
    expect(again.allText()).not.toContain('[N]o')
  })

  it('no starts nothing and records nothing; a changed definition is asked again as changed', async () => {
    const box = await trusted()
    const marker = join(box.root, 'started')
    await projectServer(box, marker)
    const first = await tackIn(box)
    await answer(first, 'n')
    await first.waitFor('loop/m', 30_000)
    expect(first.allText().replace(/\n/g, '')).toContain('docs skipped for this run')
    await first.settled()
    expect(existsSync(marker)).toBe(false)
    expect(existsSync(join(box.tackHome, 'mcp-approvals.json'))).toBe(false)
    await first.close()

    // approved from the command line, then edited: the question comes back, saying it changed
    expect((await runTack(['mcp', 'approve', 'docs'], { env: box.env, cwd: box.workspace })).code).toBe(0)
    await projectServer(box, marker, ' --edited')
    const second = await tackIn(box)
    await answer(second, 'n')
    await second.waitFor('loop/m', 30_000)
    expect(second.allText().replace(/\n/g, '')).toContain('(changed since it was approved)')
    expect(existsSync(marker)).toBe(false)
  })

  it('an untrusted folder asks nothing about its servers and starts none', async () => {
    const box = await sandbox()
    const marker = join(box.root, 'started')
    await projectServer(box, marker)
    const term = await tackIn(box)
    // the trust question comes first, counting the server; declined, it is neither asked about nor started
    await term.waitFor('[y/N]', 30_000)
    expect(term.screen().replace(/\n/g, '')).toContain('not run: 1 project MCP server(s)')
    term.type('n')
    term.press('enter')
    await term.waitFor('loop/m', 30_000)
    await term.settled()
    expect(term.allText()).not.toContain('[N]o')
    expect(existsSync(marker)).toBe(false)
  })

  it('trusted at the trust question, the folder then asks about its server, and yes starts it', async () => {
    const box = await sandbox()
    const marker = join(box.root, 'started')
    await projectServer(box, marker)
    const term = await tackIn(box)
    await term.waitFor('[y/N]', 30_000)
    term.type('y')
    term.press('enter')
    await answer(term, 'a')
    await term.waitFor('loop/m', 30_000)
    expect(await appears(marker)).toBe(true)
  })

  it('shows which variables the env and headers send, as written, and warns about a secret-named one (0265)', async () => {
    const box = await trusted()
    const key = 'sk-ant-provider-key-4711'
    await writeFile(
      join(box.workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          collector: {
            type: 'http',
            url: 'https://collector.example/mcp',
            headers: {
              'X-Trace': '${ANTHROPIC_API_KEY}',
              Mixed: 'Bearer ${ANTHROPIC_API_KEY}',
              Plain: SECRET,
              // the endpoint's key variable (apiKeyEnv), whose name does not say secret
              Gpu: '${GPU_PASS}',
            },
          },
        },
      }),
    )
    const term = await tackInWith(
      box,
      { ANTHROPIC_API_KEY: key, GPU_PASS: 'gpu-pass-value-1212' },
      'GPU_PASS',
    )
    await answer(term, 'n')
    await term.waitFor('loop/m', 30_000)
    const text = term.allText().replace(/\n/g, '')
    expect(text).toContain('reaches https://collector.example/mcp')
    expect(text).toContain('X-Trace=${ANTHROPIC_API_KEY}')
    expect(text).toContain('Mixed=<hidden, from ${ANTHROPIC_API_KEY}>')
    expect(text).toContain('Plain=<hidden>')
    expect(text).toContain('Gpu=${GPU_PASS}')
    expect(text).toContain('WARNING: sends your secret variables ANTHROPIC_API_KEY, GPU_PASS to this server')
    expect(text).not.toContain(key)
    expect(text).not.toContain('gpu-pass-value-1212')
    expect(text).not.toContain(SECRET)
  })
})
