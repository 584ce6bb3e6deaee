// From flags and files to the settings a command runs with, and the model it will use.
import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import type { CommonFlags } from './args.ts'
import { UsageError } from './args.ts'
import {
  type LoadOptions,
  loadSettings,
  PERMISSION_MODES,
  type Settings,
  TOOLS_MODES,
} from './config/load.ts'
import { CliError } from './errors.ts'
import { REASONING_EFFORTS, type ReasoningEffort } from '@tack/session'
import { projectConfigPath, type TackPaths, tackPaths } from './paths.ts'
import { type WorkspaceTrust, workspaceTrust } from './workspace-trust.ts'

export interface Resolved {
  readonly settings: Settings
  readonly paths: TackPaths
  readonly cwd: string
  readonly trust: WorkspaceTrust
}

export async function resolveSettings(
  flags: CommonFlags,
  env: NodeJS.ProcessEnv,
  processCwd: string,
  opts: Pick<LoadOptions, 'onBrokenFile'> = {},
): Promise<Resolved> {
  const cwd = resolve(processCwd, flags.cwd ?? '.')
  if (flags.cwd !== undefined) assertFolder(cwd, flags.cwd)
  const pm = flags['permission-mode']
  if (pm !== undefined && !(PERMISSION_MODES as readonly string[]).includes(pm)) {
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got "${pm}")`)
  }
  // The flag wins over TACK_TOOLS_MODE, which wins over config files (an empty variable is unset).
  const tmFlag = flags['tools-mode']
  const tm = tmFlag ?? (env.TACK_TOOLS_MODE || undefined)
  if (tm !== undefined && !(TOOLS_MODES as readonly string[]).includes(tm)) {
    const source = tmFlag !== undefined ? '--tools-mode' : 'TACK_TOOLS_MODE'
    throw new UsageError(`${source} must be one of ${TOOLS_MODES.join(', ')} (got "${tm}")`)
  }
  const effort = flags.effort
  if (effort !== undefined && !(REASONING_EFFORTS as readonly string[]).includes(effort))
    throw new UsageError(`--effort must be one of ${REASONING_EFFORTS.join(', ')} (got "${effort}")`)
  let model = flags.model
  if (model !== undefined && flags['base-url'] && !model.includes('/')) model = `local/${model}`
  return resolveWorkspaceSettings(
    {
      cwd,
      ...(flags.config ? { configFiles: [resolve(processCwd, flags.config)] } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      ...(flags.trust !== undefined ? { trust: flags.trust } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(effort !== undefined ? { effort: effort as ReasoningEffort } : {}),
      ...(flags['base-url'] !== undefined ? { baseUrl: flags['base-url'] } : {}),
      ...(pm !== undefined ? { permissionMode: pm as Settings['permissionMode'] } : {}),
      ...(tm !== undefined ? { toolsMode: tm as Settings['toolsMode'] } : {}),
    },
    env,
    processCwd,
    opts,
  )
}

/** What a command (its flags) or a library session (its options) asks of the settings, already checked. */
export interface SettingsRequest {
  /** The workspace, absolute. */
  readonly cwd: string
  /** Extra config files, absolute, in order (`--config`, a library session's `configFiles`). */
  readonly configFiles?: readonly string[]
  readonly profile?: string
  /** Trusted for this run (`--trust`); absent or false: the trust store and `TACK_TRUST` decide. */
  readonly trust?: boolean
  readonly model?: string
  readonly effort?: ReasoningEffort
  readonly baseUrl?: string
  readonly permissionMode?: Settings['permissionMode']
  readonly toolsMode?: Settings['toolsMode']
  /** Values given as a layer of their own (a library session's `mcpServers`, `storeUrl`). */
  readonly inline?: LoadOptions['inline']
}

/** The settings of one workspace: the layered files, trust, and the request's own values over them. */
export async function resolveWorkspaceSettings(
  req: SettingsRequest,
  env: NodeJS.ProcessEnv,
  processCwd: string,
  opts: Pick<LoadOptions, 'onBrokenFile'> = {},
): Promise<Resolved> {
  const { cwd } = req
  const paths = tackPaths(env, processCwd)
  const trust = workspaceTrust(cwd, paths.home, req.trust, env)
  const settings = await loadSettings({
    userConfig: paths.userConfig,
    projectConfig: projectConfigPath(cwd),
    projectTrusted: trust.trusted,
    userHome: env.HOME || homedir(),
    ...opts,
    ...(req.configFiles?.length ? { extraConfigs: req.configFiles } : {}),
    ...(req.inline ? { inline: req.inline } : {}),
    ...(req.profile ? { profile: req.profile } : {}),
    flags: {
      ...(req.model !== undefined ? { model: req.model } : {}),
      ...(req.effort !== undefined ? { effort: req.effort } : {}),
      ...(req.baseUrl !== undefined ? { baseUrl: req.baseUrl } : {}),
      ...(req.permissionMode !== undefined ? { permissionMode: req.permissionMode } : {}),
      ...(req.toolsMode !== undefined ? { toolsMode: req.toolsMode } : {}),
    },
  })
  return { settings, paths, cwd, trust }
}

/** The model a run uses: flag or config, else `@tack/llm`'s default (DeepSeek when its key is set). */
export async function chooseModel(settings: Settings, env: NodeJS.ProcessEnv): Promise<string> {
  if (settings.model) return settings.model
  const { defaultModel, noModelHelp } = await import('@tack/llm')
  const model = defaultModel(env)
  if (model) return model
  // The code says "no model" to callers that act on it (the fleet's worker: its own fault, not the job's).
  const { LlmError } = await import('@tack/agent')
  const help = noModelHelp(env)
  throw new CliError(help, { cause: new LlmError(help, { code: 'NO_MODEL', transient: false }) })
}

/** `--cwd` must name an existing folder: a typo would otherwise run the agent somewhere unintended. */
function assertFolder(abs: string, given: string): void {
  let isDir: boolean
  try {
    isDir = statSync(abs).isDirectory()
  } catch {
    throw new UsageError(`--cwd ${given}: no such folder (${abs})`)
  }
  if (!isDir) throw new UsageError(`--cwd ${given}: not a folder (${abs})`)
}
