// `tack doctor` (80-cli §1.3): Node version, config files, models and whether their keys are present
// (never the key), the session store, hooks found. Exits non-zero with a one-line fix per problem.
import { existsSync, statSync } from 'node:fs'
import type { CommonFlags } from '../args.ts'
import { boot } from '../boot.ts'
import type { CommandIO } from '../io.ts'
import { NO_MODEL_MESSAGE, resolveSettings } from '../settings.ts'

export async function doctorCommand(flags: CommonFlags, io: CommandIO): Promise<number> {
  const problems: string[] = []
  const line = (label: string, value: string) => io.out(`${label.padEnd(16)} ${value}\n`)
  const major = Number(process.versions.node.split('.')[0])
  line('node', `${process.version}${major < 22 ? '  (too old)' : ''}`)
  // The launcher runs the built JavaScript while it matches the sources (scripts/build.ts), else the sources.
  line(
    'running',
    import.meta.url.endsWith('.js')
      ? 'built JavaScript (npm run build)'
      : 'TypeScript sources (no fresh build)',
  )
  if (major < 22)
    problems.push(
      'Node.js is older than 22: run tack through `npx tack` in the repository, or install Node 22+',
    )

  const { settings, paths, cwd } = await resolveSettings(flags, io.env, io.cwd)
  line('tack home', paths.home)
  line(
    'invariants',
    io.env.TACK_DEV === '1'
      ? 'on (TACK_DEV=1): every append and request is checked'
      : 'off (TACK_DEV=1 turns them on)',
  )
  line('config files', settings.files.length ? settings.files.join(', ') : '(none; built-in defaults)')
  line('workspace', cwd)

  const booted = await boot({ settings, paths, env: io.env, cwd, noSession: true })
  try {
    const providers = booted.ctx.llmProviders
    const models = new Set<string>()
    if (settings.model) models.add(settings.model)
    if (io.env.DEEPSEEK_API_KEY) models.add('deepseek/deepseek-chat')
    if (models.size === 0) {
      line('model', '(none)')
      problems.push(NO_MODEL_MESSAGE)
    }
    for (const model of models) {
      const r = providers.resolve(model)
      const key = r.keyRequired
        ? `key ${r.apiKeyEnv ?? '?'} ${r.keyPresent ? 'present' : 'MISSING'}`
        : 'no key needed'
      line('model', `${model} → ${r.kind}${'baseUrl' in r && r.baseUrl ? ` at ${r.baseUrl}` : ''}, ${key}`)
      if (r.problem) problems.push(`${model}: ${r.problem}`)
    }
    line('providers', providers.providers().join(', '))
  } finally {
    await booted.close()
  }

  const db = paths.sessionsDb
  line(
    'session store',
    existsSync(db) ? `${db} (${formatBytes(statSync(db).size)})` : `${db} (not created yet)`,
  )

  const hooks = await listHooks(settings, paths, io.env, cwd)
  line('hooks', hooks)

  const warnings: string[] = []
  const sandbox = await describeSandbox(settings.plugins.bash)
  line('bash sandbox', sandbox.line)
  if (sandbox.problem) problems.push(sandbox.problem)
  if (sandbox.warning) warnings.push(sandbox.warning)
  if (warnings.length) {
    io.out('\nwarnings:\n')
    for (const w of warnings) io.out(`  - ${w}\n`)
  }

  if (problems.length) {
    io.out('\nproblems:\n')
    for (const p of problems) io.out(`  - ${p}\n`)
    return 1
  }
  io.out('\nall good\n')
  return 0
}

async function listHooks(
  settings: Awaited<ReturnType<typeof resolveSettings>>['settings'],
  paths: Awaited<ReturnType<typeof resolveSettings>>['paths'],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<string> {
  try {
    const { collectHooks } = await import('./hooks.ts')
    const rows = await collectHooks(settings, paths, env, cwd)
    if (rows.length === 0) return '(none found)'
    const runs = rows.filter((r) => r.willRun).length
    return `${rows.length} found, ${runs} will run (see tack hooks list)`
  } catch (error) {
    return `(could not list: ${(error as Error).message})`
  }
}

/**
 * Whether bash runs confined (issue 9.3). Missing where the config requires it (`sandbox: on`) is a
 * problem: every bash call would fail. Missing under `auto` is a warning: bash runs unconfined.
 */
async function describeSandbox(bash: unknown): Promise<{ line: string; problem?: string; warning?: string }> {
  const options = (bash && typeof bash === 'object' ? bash : {}) as {
    sandbox?: string
    sandboxNetwork?: string
  }
  if (bash === false) return { line: 'bash tool off' }
  const mode = options.sandbox ?? 'auto'
  if (mode === 'off') return { line: 'off (plugins.bash.sandbox: off): bash runs unconfined in every mode' }
  const { detectSandbox } = await import('@tack/process')
  const support = await detectSandbox()
  if (support.kind === 'none') {
    const fix = `bash cannot be sandboxed: ${support.reason}`
    return mode === 'on'
      ? { line: `UNAVAILABLE (${support.reason})`, problem: `${fix}; with sandbox: on every bash call fails` }
      : {
          line: `UNAVAILABLE: bash runs unconfined (${support.reason})`,
          warning: `${fix}; bash runs unconfined in workspace-write and read-only modes`,
        }
  }
  const what =
    support.kind === 'bwrap'
      ? `bubblewrap ${support.version} (${support.path})${support.disableUserns ? '' : ', without --disable-userns'}`
      : `seatbelt (${support.path})`
  const network = options.sandboxNetwork === 'deny' ? 'network denied' : 'network allowed'
  return { line: `${what}: bash is confined in workspace-write and read-only modes, ${network}` }
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`
  return `${(n / 1024 / 1024).toFixed(1)} MiB`
}
