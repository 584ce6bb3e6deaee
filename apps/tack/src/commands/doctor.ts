// `tack doctor` (80-cli §1.3): Node version, config files, workspace trust, models and whether their keys
// are present (never the key), the session store, hooks (a hooks file that cannot be read is a problem,
// issue 9 item 8) and the user's own plugins (issue 8 item 5). Exits non-zero with a one-line fix per problem.
import { ConfigSyntaxError } from '../config/syntax-error.ts'
import { ConfigError } from '@tack/kernel'
import { makeTackHome, TackHomeError } from '@tack/kernel/home'
import { buildState } from '../../bin/freshness.js'
import type { CommonFlags } from '../args.ts'
import { boot } from '../boot.ts'
import type { CommandIO } from '../io.ts'
import { type Resolved, resolveSettings } from '../settings.ts'
import { heldBackHooks } from '../untrusted-notice.ts'
import { findUserPlugins, importUserPlugin } from '../user-plugins.ts'
import { HOW_TO_TRUST } from '../workspace-trust.ts'
import { printableIO } from '../printable.ts'

export async function doctorCommand(flags: CommonFlags, terminal: CommandIO): Promise<number> {
  // Paths, hook commands, plugin and mod names come from files a repository controls.
  const io = printableIO(terminal)
  const problems: string[] = []
  const line = (label: string, value: string) => io.out(`${label.padEnd(16)} ${value}\n`)
  // node:sqlite as the store uses it arrived in 22.16 and 24.0 (docs/decisions/0025-install-and-build.md)
  const [major, minor] = process.versions.node.split('.').map(Number)
  const tooOld = !(major >= 24 || (major === 22 && minor >= 16))
  line('node', `${process.version}${tooOld ? '  (too old)' : ''}`)
  const running = describeRunning(io.env)
  line('running', running.line)
  if (tooOld)
    problems.push(
      'Node.js is older than 22.16: run tack through `npx tack` in the repository, or install Node 24',
    )

  const resolved = await resolveForDoctor(flags, io, problems)
  const { settings, paths, cwd, trust } = resolved
  line('tack home', paths.home)
  try {
    makeTackHome(paths.home)
  } catch (error) {
    if (!(error instanceof TackHomeError)) throw error
    line('', `UNUSABLE — ${error.message}`)
    problems.push(error.message)
  }
  line(
    'invariants',
    io.env.TACK_DEV === '1'
      ? 'on (TACK_DEV=1): every append and request is checked'
      : 'off (TACK_DEV=1 turns them on)',
  )
  line('config files', settings.files.length ? settings.files.join(', ') : '(none; built-in defaults)')
  line('workspace', cwd)
  line('trust', describeTrust(resolved))
  if (settings.refused) line('', `ignored from ${settings.refused.file}: ${settings.refused.keys.join(', ')}`)

  const booted = await boot({ settings, paths, env: io.env, cwd, trust, noSession: true, makeHome: false })
  try {
    const providers = booted.ctx.llmProviders
    const models = new Set<string>()
    if (settings.model) models.add(settings.model)
    const { defaultModel, noModelHelp } = await import('@tack/llm')
    const fallback = defaultModel(io.env)
    if (fallback) models.add(fallback)
    if (models.size === 0) {
      line('model', '(none)')
      problems.push(noModelHelp(io.env))
    }
    for (const model of models) {
      let r: ReturnType<typeof providers.resolve>
      try {
        r = providers.resolve(model)
      } catch (error) {
        // An unknown provider, a project naming an endpoint the user has not configured: a problem to list.
        line('model', `${model} → UNUSABLE: ${(error as Error).message}`)
        problems.push(`${model}: ${(error as Error).message}`)
        continue
      }
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

  const { reportSessionStore } = await import('./doctor-database.ts')
  await reportSessionStore(settings, paths, io.env, line, problems)

  await reportHooks(resolved, io, line, problems)
  await reportPlugins(resolved, line, problems)
  await reportMods(resolved, flags, line, problems)

  const warnings: string[] = []
  const { reportInstructions } = await import('./doctor-instructions.ts')
  reportInstructions(resolved, line, warnings)
  const { reportMcp } = await import('./doctor-mcp.ts')
  reportMcp(resolved, io.env, line, problems, warnings)
  const { reportSkills } = await import('./doctor-skills.ts')
  await reportSkills(resolved, io.env, line, warnings)
  const sandbox = await describeSandbox(settings.plugins.bash)
  line('bash sandbox', sandbox.line)
  if (sandbox.problem) problems.push(sandbox.problem)
  if (sandbox.warning) warnings.push(sandbox.warning)
  if (running.warning) warnings.push(running.warning)
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

/**
 * The settings doctor checks with. A config file that cannot be read or is invalid is a problem to
 * list, not the end of the diagnosis: it is skipped and the other files load. A profile or model flag
 * that cannot apply is listed too, and the checks go on without it.
 */
async function resolveForDoctor(flags: CommonFlags, io: CommandIO, problems: string[]): Promise<Resolved> {
  const onBrokenFile = (_file: string, error: unknown) => problems.push(...issueLines(error))
  try {
    return await resolveSettings(flags, io.env, io.cwd, { onBrokenFile })
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    problems.push(...issueLines(error))
    const { profile: _p, model: _m, 'base-url': _b, ...rest } = flags
    return resolveSettings(rest, io.env, io.cwd, { onBrokenFile: () => {} })
  }
}

/** One line per issue: the file, the key and the reason's first line (a YAML error goes on with an excerpt). */
function issueLines(error: unknown): string[] {
  const firstLine = (text: string) => text.split('\n')[0].replace(/:$/, '')
  if (!(error instanceof ConfigError)) return [firstLine((error as Error).message)]
  // A file that is not YAML: its one line already says where (file:line:column) and why.
  if (error instanceof ConfigSyntaxError) return [error.message]
  return error.issues.map((issue) =>
    ConfigError.format([{ ...issue, message: firstLine(issue.message) }], error.file),
  )
}

function describeTrust(r: Resolved): string {
  switch (r.trust.via) {
    case 'store':
      return `trusted (recorded for ${r.trust.root})`
    case 'flag':
      return 'trusted for this run (--trust)'
    case 'env':
      return 'trusted for this run (TACK_TRUST=1)'
    default:
      return `not trusted: project config is limited to harmless keys; project hooks and plugins do not run — ${HOW_TO_TRUST}`
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

type Line = (label: string, value: string) => void

async function reportHooks(r: Resolved, io: CommandIO, line: Line, problems: string[]): Promise<void> {
  try {
    const { collectHooks } = await import('./hooks.ts')
    const rows = await collectHooks(r.settings, r.paths, io.env, r.cwd, r.trust)
    const broken = rows.filter((row) => row.broken)
    for (const b of broken) problems.push(`${b.source}: ${b.why} (tack hooks list shows it)`)
    const hooks = rows.filter((row) => !row.broken)
    if (hooks.length === 0 && broken.length === 0) return line('hooks', '(none found)')
    const runs = hooks.filter((row) => row.willRun).length
    const held = heldBackHooks(hooks).length
    line(
      'hooks',
      `${hooks.length} found, ${runs} will run${held ? `, ${held} held back (workspace not trusted)` : ''}${broken.length ? `, ${broken.length} file(s) broken` : ''} (see tack hooks list)`,
    )
  } catch (error) {
    line('hooks', `(could not list: ${(error as Error).message})`)
  }
}

async function reportPlugins(r: Resolved, line: Line, problems: string[]): Promise<void> {
  const found = findUserPlugins(r.settings, r.paths, r.cwd, r.trust.trusted)
  if (found.refs.length === 0 && found.heldBack.length === 0) return line('plugins', '(none of your own)')
  for (const ref of found.refs) {
    try {
      const loaded = await importUserPlugin(ref)
      line('plugin', `${loaded.name} — ${loaded.file} (${PLACE[ref.place]})`)
    } catch (error) {
      line('plugin', `BROKEN — ${(error as Error).message}`)
      problems.push((error as Error).message)
    }
  }
  for (const file of found.heldBack)
    line('plugin', `not run — ${file}: this workspace is not trusted (${HOW_TO_TRUST})`)
}

/** Loaded mods and what the host supports (65-mod-host.md requirement 12). */
async function reportMods(r: Resolved, flags: CommonFlags, line: Line, problems: string[]): Promise<void> {
  const { capabilities, checkModFolder } = await import('@tack/mods')
  const { findModFolders } = await import('../mod-folders.ts')
  const found = findModFolders(r.settings, r.paths, r.cwd, r.trust.trusted, flags.mod)
  if (found.specs.length === 0 && found.heldBack.length === 0) line('mods', '(none)')
  for (const spec of found.specs) {
    const check = await checkModFolder(spec.dir, spec.options)
    if (check.ok)
      line('mod', `${check.name} — ${spec.dir} (events: ${check.scan?.events.join(', ') || 'none'})`)
    else {
      line('mod', `BROKEN — ${check.problems.join('; ')}`)
      problems.push(...check.problems)
    }
  }
  for (const dir of found.heldBack)
    line('mod', `not run — ${dir}: this workspace is not trusted (${HOW_TO_TRUST})`)
  const caps = capabilities()
  line('mod events', caps.events.join(', '))
  line(
    'mod nouns',
    Object.entries(caps.nouns)
      .map(([n, m]) => `${n} (${m.join(', ')})`)
      .join('; '),
  )
}

const PLACE = { home: '$TACK_HOME/plugins', config: 'config', project: '.tack/plugins' } as const

/**
 * What this process runs and why (docs/decisions/0025-install-and-build.md): the launcher's choice,
 * recomputed (apps/tack/bin/freshness.js). A stale build is a warning: tack works, only slower.
 */
function describeRunning(env: NodeJS.ProcessEnv): { line: string; warning?: string } {
  const built = import.meta.url.endsWith('.js')
  const state = buildState(new URL('../../../../', import.meta.url), env)
  const rehashed = state.rehashed ? `; ${state.rehashed} with a new mtime matched by content` : ''
  if (built) return { line: `built JavaScript (${state.why}${rehashed})` }
  // Sources although the build is fresh: main() was imported directly (a test), not through bin/tack.js.
  if (state.use === 'build') return { line: 'TypeScript sources (loaded directly, not through bin/tack.js)' }
  const line = `TypeScript sources (${state.why})`
  if (state.why === 'TACK_FROM_SOURCE=1') return { line }
  return {
    line,
    warning: `tack runs its TypeScript sources, which start slower (${state.why}): run \`npm run build\` in the repository`,
  }
}
