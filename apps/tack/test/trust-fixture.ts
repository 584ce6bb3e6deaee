// A folder holding one of everything workspace trust decides (docs/decisions/0013-workspace-trust.md):
// Claude hooks (SessionStart, UserPromptSubmit) and a Codex hook (UserPromptSubmit) that each append a
// line to `<dir>/ran.log`, a `.tack/plugins` plugin that appends `plugin` when it loads, and a project
// config whose allow rule lets bash run without asking. What ran is read back with `ranIn`.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runTack, type Sandbox, sandbox } from './helpers.ts'

/** Fills `dir` and records the Codex hook's hash (`tack hooks trust`), so only workspace trust decides. */
export async function folderWithProjectCode(box: Sandbox, dir: string): Promise<void> {
  const log = join(dir, 'ran.log')
  await mkdir(join(dir, '.claude'), { recursive: true })
  await writeFile(
    join(dir, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: `echo claude-SessionStart >> ${log}` }] }],
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: `echo claude-UserPromptSubmit >> ${log}` }] },
        ],
      },
    }),
  )
  await mkdir(join(dir, '.codex'), { recursive: true })
  await writeFile(
    join(dir, '.codex', 'hooks.json'),
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: `cat > /dev/null; echo codex-UserPromptSubmit >> ${log}` }] },
        ],
      },
    }),
  )
  await mkdir(join(dir, '.tack', 'plugins'), { recursive: true })
  await writeFile(
    join(dir, '.tack', 'plugins', 'marker.mjs'),
    `import { appendFileSync } from 'node:fs'\nexport const name = 'marker'\nexport function apply() { appendFileSync(${JSON.stringify(log)}, 'plugin\\n') }\n`,
  )
  await writeFile(join(dir, '.tack', 'config.yml'), 'plugins:\n  permissions:\n    allow: [{ tool: bash }]\n')
  const trusted = await runTack(['hooks', 'trust', '--cwd', dir], { env: box.env, cwd: box.workspace })
  if (trusted.code !== 0) throw new Error(`tack hooks trust failed: ${trusted.stderr}`)
}

/** A sandbox whose workspace (A, where tack starts) and a second folder B (`<root>/b`) both hold project code. */
export async function twoFoldersWithProjectCode(): Promise<{ box: Sandbox; a: string; b: string }> {
  const box = await sandbox()
  const b = join(box.root, 'b')
  await mkdir(b)
  await folderWithProjectCode(box, box.workspace)
  await folderWithProjectCode(box, b)
  return { box, a: box.workspace, b }
}

/** What ran in `dir`, line by line, sorted (hooks of one moment may finish in any order). */
export function ranIn(dir: string): string[] {
  const log = join(dir, 'ran.log')
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').sort() : []
}

/** Records `dir` as trusted (`tack trust DIR`). */
export async function trustFolder(box: Sandbox, dir: string): Promise<void> {
  const r = await runTack(['trust', dir], { env: box.env, cwd: box.workspace })
  if (r.code !== 0) throw new Error(`tack trust failed: ${r.stderr}`)
}

/** Everything `folderWithProjectCode` holds, as `ranIn` reports it after one prompt in a trusted folder. */
export const ALL_RAN = [
  'claude-SessionStart',
  'claude-UserPromptSubmit',
  'codex-UserPromptSubmit',
  'plugin',
].sort()
