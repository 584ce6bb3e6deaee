// Through the real binary (docs/decisions/0145-private-files.md; docs/security.md): in a TACK_HOME the user
// made with `mkdir` (0755) under umask 022, a session that runs Claude and Codex hooks (transcripts, a
// CLAUDE_ENV_FILE, a spilled hook output), the agent-state mod, a mod using `$.store` and `$.fs`, a bash
// call whose output spills, and Node's compile cache of tack's own code leave nothing in TACK_HOME that
// group or others can read: every file 0600 or tighter, every folder 0700.
import { spawn } from 'node:child_process'
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startLoopbackServer } from '@tack/llm/testing'
import { afterEach, expect, test } from 'vitest'
import { jsonLines, outcomeOf, type Sandbox, sandbox, TACK_BIN, writeLoopConfig } from './helpers.ts'

const AGENT_STATE_MOD = fileURLToPath(new URL('../../../products/agent-state/mod', import.meta.url))

const STORE_MOD = `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('turn.complete', async ($, e, next) => {
    await $.store.set('last-answer', e.answer)
    await $.fs.write((await $.env.get('TACK_HOME')) + '/notes/answer.txt', String(e.answer))
    return next(e)
  })
}
`

/** Every entry under `dir` with its mode bits, as `relative path → octal`. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      const info = lstatSync(path)
      out[`${relative(dir, path)}${info.isDirectory() ? '/' : ''}`] = (info.mode & 0o777).toString(8)
      if (info.isDirectory()) walk(path)
    }
  }
  walk(dir)
  return out
}

/** The real binary under umask 022, the umask a user's shell usually has. */
function withUmask022(args: readonly string[], box: Sandbox) {
  const child = spawn('sh', ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, TACK_BIN, ...args], {
    env: box.env,
    cwd: box.workspace,
    stdio: 'pipe',
  })
  child.stdin?.end()
  return outcomeOf(child)
}

let closeServer: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeServer?.()
  closeServer = undefined
})

test('umask 022 and a mkdir-made 0755 TACK_HOME: transcripts, env files, mod state and store, spills are 0600 in 0700 folders', async () => {
  const box = await sandbox({ CODEX_HOME: '' })
  mkdirSync(box.tackHome, { mode: 0o755 })
  chmodSync(box.tackHome, 0o755)
  const codexHome = join(box.root, 'codex')
  box.env.CODEX_HOME = codexHome
  const hook = (command: string) => [{ hooks: [{ type: 'command', command }] }]
  await mkdir(join(box.home, '.claude'), { recursive: true })
  await writeFile(
    join(box.home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        SessionStart: hook('cat > /dev/null; echo "export FROM_HOOK=1" >> "$CLAUDE_ENV_FILE"'),
        // over Claude Code's 10,000-character cap: spilled to a file in tack's data folder
        UserPromptSubmit: hook("cat > /dev/null; head -c 12000 /dev/zero | tr '\\0' a"),
        PreToolUse: hook('cat > /dev/null'),
        PostToolUse: hook('cat > /dev/null'),
        Stop: hook('cat > /dev/null'),
      },
    }),
  )
  await mkdir(codexHome, { recursive: true })
  await writeFile(join(codexHome, 'hooks.json'), JSON.stringify({ hooks: { Stop: hook('cat > /dev/null') } }))
  const storeMod = join(box.root, 'store-mod')
  await mkdir(join(storeMod, '.claude-plugin'), { recursive: true })
  await mkdir(join(storeMod, 'hooks'), { recursive: true })
  await writeFile(
    join(storeMod, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name: 'store-mod', version: '1.0.0' }),
  )
  await writeFile(join(storeMod, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./register.ts'] }))
  await writeFile(join(storeMod, 'hooks', 'register.ts'), STORE_MOD)

  const server = await startLoopbackServer({
    script: [
      // more than the bash tool keeps in memory: the rest goes to a spill file under scratch/
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo hi; seq 1 200000' } }] },
      { kind: 'text', text: 'all done' },
    ],
  })
  closeServer = () => server.close()
  const config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m' })
  // Codex keeps a hash trust for each hook, in a store of its own under TACK_HOME
  const trusted = await withUmask022(['hooks', 'trust'], box)
  expect(trusted.code).toBe(0)
  const args = ['run', '--json', '--config', config, '--mod', AGENT_STATE_MOD, '--mod', storeMod, 'count']
  const run = await withUmask022(args, box)
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  const id = String(jsonLines(run.stdout).find((l) => typeof l.sessionId === 'string')?.sessionId)

  const found = modes(box.tackHome)
  // the writers this test means to reach did write
  for (const path of [
    'sessions.db',
    `claude-transcripts/${id}.jsonl`,
    `claude-env/${id}.sh`,
    `agent-state/${id}.json`,
    `agent-state/${id}.jsonl`,
    'mod-store/store-mod.json',
    'notes/answer.txt',
  ])
    expect(found, path).toHaveProperty([path])
  expect(Object.keys(found).some((p) => p.startsWith('claude-hook-output/') && p.endsWith('.txt'))).toBe(true)
  expect(Object.keys(found).some((p) => p.startsWith('codex-') && p.endsWith('.jsonl'))).toBe(true)
  expect(Object.keys(found).some((p) => p.startsWith(`scratch/${id}/bash-`))).toBe(true)
  // The checkpoint store (its objects are read-only, 0400) holds copies of the workspace's files.
  expect(Object.keys(found).some((p) => p.startsWith('checkpoints/') && p.includes('/objects/'))).toBe(true)
  // Node's module compile cache, written at exit (docs/decisions/0325-start-up-steps.md)
  expect(Object.keys(found).some((p) => p.startsWith('cache/compile/') && !p.endsWith('/'))).toBe(true)
  const open = Object.entries(found).filter(([path, mode]) =>
    path.endsWith('/') ? mode !== '700' : (Number.parseInt(mode, 8) & 0o177) !== 0,
  )
  expect(open).toEqual([])
}, 60_000)
