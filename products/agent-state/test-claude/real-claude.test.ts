// R3 and R27 against the real thing: the shipped mod/ folder inside a real Claude Code (`claude -p`,
// `--plugin-dir`) and inside the real `tack run --mod`, both against one loopback scripted model, the same
// prompt, the same workspace. Their files must match field for field once times, `host`, `version`, the
// session id and tack's provider prefix on the model are normalised.
//
// Opt-in: `CLAUDE_BIN=/path/to/claude npm run test:claude` (not part of `npm test`). Run without
// CLAUDE_BIN it fails, saying so: asking for this test without a Claude Code is a mistake, not a pass.
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type LoggedRequest, type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { runTack } from '../../../apps/tack/test/helpers.ts'
import { normalise } from '../test/support/scenarios.ts'

const MOD = fileURLToPath(new URL('../mod', import.meta.url))
const MODEL = 'claude-sonnet-4-5'

/** One prompt, one Bash call, one answer — whichever wire asks (Anthropic for Claude, OpenAI for tack). */
function answer(request: LoggedRequest): LoopbackEntry {
  const body = (request.body ?? {}) as { tools?: unknown[]; messages?: unknown }
  const anthropic = request.path.endsWith('/messages')
  // Claude Code's side requests (titles, summaries) carry no tools: a plain answer keeps them harmless
  if (!body.tools?.length) return { kind: 'text', text: 'ok' }
  const messages = JSON.stringify(body.messages ?? [])
  if (/tool_result|"role":"tool"/.test(messages))
    return { kind: 'text', text: 'all done', usage: { inputTokens: 60, outputTokens: 3 } }
  return {
    kind: 'tool-calls',
    calls: [{ name: anthropic ? 'Bash' : 'bash', args: { command: 'echo from-bash' } }],
    usage: { inputTokens: 40, outputTokens: 6 },
  }
}

function run(bin: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(bin, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** The one session's two files, with its id, tack's `loop/` model prefix and the workspace normalised. */
async function sessionFiles(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort()
  const id = names.find((n) => n.endsWith('.json'))?.replace(/\.json$/, '')
  expect(names, dir).toEqual([`${id}.json`, `${id}.jsonl`])
  const files: Record<string, string> = {}
  for (const name of names)
    files[name.replace(String(id), 'SESSION')] = (await readFile(join(dir, name), 'utf8'))
      .split(String(id))
      .join('SESSION')
      .replaceAll(`"loop/${MODEL}"`, `"${MODEL}"`)
  return normalise(files)
}

test('R3 the same mod folder writes the same files in Claude Code and in tack', async () => {
  const claude = process.env.CLAUDE_BIN
  expect(claude, 'set CLAUDE_BIN to a Claude Code binary (>= 2.1.287) to run this test').toBeTruthy()
  const root = await mkdtemp(join(tmpdir(), 'agent-state-claude-'))
  const workspace = join(root, 'ws')
  const claudeHome = join(root, 'claude-home')
  const tackHome = join(root, 'tack-home')
  for (const dir of [workspace, claudeHome, tackHome]) await mkdir(dir, { recursive: true })
  const server = await startLoopbackServer({
    script: Array.from({ length: 40 }, () => ({ kind: 'respond', respond: answer }) as LoopbackEntry),
  })
  try {
    const base = { PATH: process.env.PATH, LANG: 'C.UTF-8' }
    const cc = await run(
      String(claude),
      [
        '-p',
        'run echo',
        '--plugin-dir',
        MOD,
        '--output-format',
        'json',
        '--model',
        MODEL,
        '--allowedTools',
        'Bash',
      ],
      {
        ...base,
        HOME: claudeHome,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'sk-loopback',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      workspace,
    ).then(
      (r) => r,
      (error: Error) => ({ code: -1, stdout: '', stderr: error.message }),
    )
    // Bash is allowed by --allowedTools (as root, Claude Code refuses --dangerously-skip-permissions)
    expect(cc.stderr, 'claude -p').toBe('')
    expect(cc.code).toBe(0)
    expect(JSON.parse(cc.stdout)).toMatchObject({ result: 'all done', is_error: false })

    const config = join(root, 'loop.yml')
    await writeFile(
      config,
      `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
    )
    const tack = await runTack(
      ['run', '--config', config, '--model', `loop/${MODEL}`, '--mod', MOD, 'run echo'],
      {
        env: { ...base, HOME: join(root, 'home'), TACK_HOME: tackHome },
        cwd: workspace,
      },
    )
    // stderr carries tack's progress lines only: no mod warning, no fault
    expect(tack.stderr, 'tack run').not.toMatch(/mod|skipped|warn|error/i)
    expect(tack.code).toBe(0)
    expect(tack.stdout).toBe('all done\n')

    const fromClaude = await sessionFiles(join(claudeHome, '.claude', 'agent-state'))
    const fromTack = await sessionFiles(join(tackHome, 'agent-state'))
    expect(fromClaude['SESSION.json']).toContain('"state":"ended"')
    expect(fromClaude['SESSION.jsonl']).toContain('"state":"tool","tool":"Bash"')
    expect(fromClaude['SESSION.jsonl']).toContain(`"kind":"usage","model":"${MODEL}"`)
    expect(fromTack).toEqual(fromClaude)
  } finally {
    await server.close()
  }
})
