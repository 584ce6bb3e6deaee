// From flags and files to the settings a command runs with, and the model it will use.
import { resolve } from 'node:path'
import type { CommonFlags } from './args.ts'
import { loadSettings, PERMISSION_MODES, type Settings, TOOLS_MODES } from './config/load.ts'
import { UsageError } from './args.ts'
import { CliError } from './errors.ts'
import { projectConfigPath, type TackPaths, tackPaths } from './paths.ts'

export interface Resolved {
  readonly settings: Settings
  readonly paths: TackPaths
  readonly cwd: string
}

export async function resolveSettings(
  flags: CommonFlags,
  env: NodeJS.ProcessEnv,
  processCwd: string,
): Promise<Resolved> {
  const cwd = resolve(processCwd, flags.cwd ?? '.')
  const paths = tackPaths(env, processCwd)
  const pm = flags['permission-mode']
  if (pm !== undefined && !(PERMISSION_MODES as readonly string[]).includes(pm)) {
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got "${pm}")`)
  }
  const tm = flags['tools-mode']
  if (tm !== undefined && !(TOOLS_MODES as readonly string[]).includes(tm)) {
    throw new UsageError(`--tools-mode must be one of ${TOOLS_MODES.join(', ')} (got "${tm}")`)
  }
  let model = flags.model
  if (model !== undefined && flags['base-url'] && !model.includes('/')) model = `local/${model}`
  const settings = await loadSettings({
    userConfig: paths.userConfig,
    projectConfig: projectConfigPath(cwd),
    ...(flags.config ? { extraConfig: resolve(processCwd, flags.config) } : {}),
    ...(flags.profile ? { profile: flags.profile } : {}),
    flags: {
      ...(model !== undefined ? { model } : {}),
      ...(flags['base-url'] !== undefined ? { baseUrl: flags['base-url'] } : {}),
      ...(pm !== undefined ? { permissionMode: pm as Settings['permissionMode'] } : {}),
      ...(tm !== undefined ? { toolsMode: tm as Settings['toolsMode'] } : {}),
    },
  })
  return { settings, paths, cwd }
}

export const NO_MODEL_MESSAGE =
  'no model configured: set DEEPSEEK_API_KEY (DeepSeek is the default), or pass --model provider/model ' +
  '(e.g. openai/gpt-4.1, anthropic/claude-sonnet-4-5, or local/<model> with --base-url for an OpenAI-compatible server), ' +
  'or set `model:` in ~/.tack/config.yml'

/** The model a run uses: flag or config, else DeepSeek when its key is present. */
export function chooseModel(settings: Settings, env: NodeJS.ProcessEnv): string {
  if (settings.model) return settings.model
  if (env.DEEPSEEK_API_KEY) return 'deepseek/deepseek-chat'
  throw new CliError(NO_MODEL_MESSAGE)
}
