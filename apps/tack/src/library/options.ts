// A library session's options (api.ts SessionOptions) checked and turned into what the CLI's boot takes:
// the settings request (settings.ts) and the agent boot request (agent-boot.ts). Nothing here parses a
// command line: each option maps to the value its flag would have produced. An option of the wrong shape
// is a TackError naming the option; config-level values (`mcpServers`, `storeUrl`) go through the config
// checks as a layer of their own ("openSession options"), so their errors name the key like a file's.
import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { PERMISSION_MODES } from '@tack/permissions/modes'
import { REASONING_EFFORTS } from '@tack/session'
import { TOOLS_MODES } from '@tack/tools/modes'
import { type CliRuleSpecs, parseCliRules } from '../cli-rules.ts'
import { withEnvFile } from '../env-file.ts'
import { createRedactor, type Redactor } from '../secrets.ts'
import { tackPaths } from '../paths.ts'
import type { SettingsRequest } from '../settings.ts'
import type { ResumeOptions } from './api.ts'
import { TackError } from './errors.ts'

/** What the inline layer's errors name (config/load.ts `inline`). */
export const OPTIONS_LAYER = 'openSession options'

export interface CheckedOptions {
  readonly settings: SettingsRequest
  readonly env: NodeJS.ProcessEnv
  readonly processCwd: string
  readonly cliRules: CliRuleSpecs
  readonly mods: readonly string[]
  readonly sandboxWritable: readonly string[]
  readonly warn: (line: string) => void
  /** Redacts secrets from what the library reports (warnings, errors), as the CLI's output is. */
  readonly redact: Redactor
}

/** `options` checked, with `cwd` the workspace (absolute, an existing folder). */
export function checkOptions(options: ResumeOptions, cwd: string, redact: Redactor): CheckedOptions {
  const processCwd = process.cwd()
  const env = environmentOf(options)
  oneOf('permissionMode', options.permissionMode, PERMISSION_MODES)
  oneOf('effort', options.effort, REASONING_EFFORTS)
  const toolsMode = options.toolsMode ?? (env.TACK_TOOLS_MODE || undefined)
  oneOf(options.toolsMode !== undefined ? 'toolsMode' : 'TACK_TOOLS_MODE', toolsMode, TOOLS_MODES)
  const configFiles = strings('configFiles', options.configFiles).map((f) => resolve(processCwd, f))
  for (const key of ['model', 'baseUrl', 'profile', 'storeUrl'] as const) {
    const v = options[key]
    if (v !== undefined && (typeof v !== 'string' || v === ''))
      throw new TackError('usage', `${key} must be a non-empty string (got ${JSON.stringify(v)})`)
  }
  // Checked here, not at the first ask: a callback that is not one would fail every call it was to answer.
  for (const key of ['onApproval', 'onWarning'] as const) {
    const v = options[key]
    if (v !== undefined && typeof v !== 'function')
      throw new TackError('usage', `${key} must be a function (got ${JSON.stringify(v) ?? typeof v})`)
  }
  let model = options.model
  if (model !== undefined && options.baseUrl && !model.includes('/')) model = `local/${model}`
  if (options.maxCostUsd !== undefined && !(Number.isFinite(options.maxCostUsd) && options.maxCostUsd > 0))
    throw new TackError(
      'usage',
      `maxCostUsd must be a positive number of US dollars (got ${options.maxCostUsd})`,
    )
  const inline = inlineLayer(options)
  const settings: SettingsRequest = {
    cwd,
    ...(configFiles.length ? { configFiles } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.trust === true ? { trust: true } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(options.effort !== undefined ? { effort: options.effort } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
    ...(toolsMode !== undefined ? { toolsMode: toolsMode as SettingsRequest['toolsMode'] } : {}),
    ...(inline ? { inline: { name: OPTIONS_LAYER, baseDir: cwd, layer: inline } } : {}),
  }
  const print =
    options.onWarning ?? ((line: string) => process.stderr.write(line.endsWith('\n') ? line : `${line}\n`))
  const warn = (line: string) => print(redact(line))
  return {
    settings,
    env,
    processCwd,
    cliRules: parseCliRules({ allow: strings('allow', options.allow), deny: strings('deny', options.deny) }),
    mods: strings('mods', options.mods),
    sandboxWritable: strings('sandboxWritable', options.sandboxWritable),
    warn,
    redact,
  }
}

/**
 * The environment the session runs with: `env` (default `process.env`) with `tackHome` as `TACK_HOME`,
 * and `$TACK_HOME/.env` filling what it lacks, as for the CLI (main.ts).
 */
export function environmentOf(options: ResumeOptions | undefined): NodeJS.ProcessEnv {
  const home = options?.tackHome
  if (home !== undefined && (typeof home !== 'string' || !isAbsolute(home)))
    throw new TackError('usage', `tackHome must be an absolute path (got ${JSON.stringify(home)})`)
  const base: NodeJS.ProcessEnv = {
    ...(options?.env ?? process.env),
    ...(home !== undefined ? { TACK_HOME: home } : {}),
  }
  const env = withEnvFile(base, tackPaths(base, process.cwd()).envFile)
  // `storeUrl` is the caller's explicit choice: an exported TACK_STORE_URL (or one in tack's .env), which
  // wins over config files, must not silently send this session to another database.
  if (typeof options?.storeUrl === 'string' && options.storeUrl !== '') delete env.TACK_STORE_URL
  return env
}

/** The environment's secret values, and the store URL's password, redacted from warnings and errors. */
export function redactorFor(options: ResumeOptions | undefined): Redactor {
  const redact = createRedactor(environmentOf(options))
  const password = passwordOf(options?.storeUrl)
  if (password) redact.protect([], [password, encodeURIComponent(password)])
  return redact
}

function passwordOf(url: string | undefined): string | undefined {
  if (typeof url !== 'string') return undefined
  try {
    return decodeURIComponent(new URL(url).password) || undefined
  } catch {
    return undefined
  }
}

/** `cwd` made absolute; it must be an existing folder (a typo would run the agent somewhere unintended). */
export function workspaceOf(cwd: unknown): string {
  if (typeof cwd !== 'string' || cwd === '')
    throw new TackError('usage', `cwd must name the workspace folder (got ${JSON.stringify(cwd)})`)
  const abs = resolve(process.cwd(), cwd)
  let folder = false
  try {
    folder = statSync(abs).isDirectory()
  } catch {
    // missing or unreadable: the same answer
  }
  if (!folder) throw new TackError('usage', `cwd ${cwd}: not an existing folder (${abs})`)
  return abs
}

/** The options that are config keys, as a config layer: `plugins.mcp.servers`, `plugins.store.url`. */
function inlineLayer(options: ResumeOptions): Record<string, unknown> | undefined {
  const plugins: Record<string, unknown> = {}
  if (options.mcpServers !== undefined) plugins.mcp = { servers: options.mcpServers }
  if (options.storeUrl !== undefined) plugins.store = { url: options.storeUrl }
  return Object.keys(plugins).length ? { plugins } : undefined
}

function oneOf(name: string, value: unknown, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value as string))
    throw new TackError(
      'usage',
      `${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`,
    )
}

function strings(name: string, value: readonly string[] | undefined): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new TackError('usage', `${name} must be an array of strings`)
  return [...value]
}
