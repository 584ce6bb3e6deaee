// What every command that runs an agent does before its first turn (`tack run`, `tack acp`): find the
// user's plugins and mods (naming those held back by trust), pick the model, boot, redact endpoint keys from
// the output, and check the model is served — closing the boot again when it is not.
import type { AgentOptions } from '@tack/agent'
import type { CommonFlags } from './args.ts'
import { type Booted, boot } from './boot.ts'
import type { CliRuleSpecs } from './cli-rules.ts'
import type { CommandIO } from './io.ts'
import { findModFolders } from './mod-folders.ts'
import { parseSandboxWritable } from './sandbox-writable-flag.ts'
import { assertModelServed } from './model-check.ts'
import type { Settings } from './config/load.ts'
import { chooseModel, type Resolved } from './settings.ts'
import { type HeldBack, untrustedNotice } from './untrusted-notice.ts'
import { findUserPlugins } from './user-plugins.ts'

export interface BootAgentOptions {
  resolved: Resolved
  flags: CommonFlags
  io: CommandIO
  warn: (text: string) => void
  cliRules?: CliRuleSpecs
  /** The untrusted notice when the caller already built it (the interactive trust question). */
  heldBack?: HeldBack
  /**
   * A headless slash command may need no model (`tack run "/help"`): a model that is missing or not
   * served is returned as `modelProblem` instead of thrown, for the caller to throw if the command
   * turns out to need the model after all.
   */
  deferModelCheck?: boolean
}

/** A boot whose model check was deferred: `model` is undefined when none is configured. */
export interface DeferredBoot {
  booted: Booted
  model: string | undefined
  modelProblem?: Error
}

export async function bootAgentCommand(
  opts: BootAgentOptions & { deferModelCheck: boolean },
): Promise<DeferredBoot>
export async function bootAgentCommand(
  opts: Omit<BootAgentOptions, 'deferModelCheck'>,
): Promise<{ booted: Booted; model: string }>
export async function bootAgentCommand(opts: BootAgentOptions): Promise<DeferredBoot> {
  const { flags, io } = opts
  return bootAgent({
    resolved: opts.resolved,
    env: io.env,
    processCwd: io.cwd,
    warn: opts.warn,
    ...(opts.cliRules ? { cliRules: opts.cliRules } : {}),
    ...(opts.heldBack ? { heldBack: opts.heldBack } : {}),
    ...(flags.mod ? { mods: flags.mod } : {}),
    ...(flags['sandbox-writable'] ? { sandboxWritable: flags['sandbox-writable'] } : {}),
    verbose: flags.verbose === true,
    noSession: flags['no-session'] === true,
    deferModelCheck: opts.deferModelCheck === true,
    ...(io.protectSecrets ? { protectSecrets: io.protectSecrets } : {}),
  })
}

/** What an agent's boot needs, whoever asks: a command (its flags) or a library session (its options). */
export interface AgentBootRequest {
  readonly resolved: Resolved
  readonly env: NodeJS.ProcessEnv
  /** What relative `mods` and `sandboxWritable` folders are relative to. */
  readonly processCwd: string
  readonly warn: (text: string) => void
  readonly cliRules?: CliRuleSpecs
  readonly heldBack?: HeldBack
  /** Mod folders for this run (`--mod`). */
  readonly mods?: readonly string[]
  /** Folders sandboxed commands may write (`--sandbox-writable`). */
  readonly sandboxWritable?: readonly string[]
  readonly verbose?: boolean
  readonly noSession?: boolean
  readonly deferModelCheck?: boolean
  /** Told the secrets the boot declared, to redact them from what the caller prints. */
  readonly protectSecrets?: (names: Iterable<string>, values?: Iterable<string>) => void
}

/** Finds plugins and mods, picks the model, boots, and checks the model is served (see the top of the file). */
export async function bootAgent(opts: AgentBootRequest): Promise<DeferredBoot> {
  const { resolved, env, warn } = opts
  const { settings, paths, cwd, trust } = resolved
  const sandboxWritable = parseSandboxWritable(opts.sandboxWritable, opts.processCwd)
  const plugins = findUserPlugins(settings, paths, cwd, trust.trusted)
  const mods = findModFolders(settings, paths, cwd, trust.trusted, opts.mods, opts.processCwd)
  const notice = opts.heldBack
    ? opts.heldBack.notice
    : await untrustedNotice(resolved, env, plugins.heldBack, mods.heldBack)
  if (notice) warn(notice)
  let model: string | undefined
  let modelProblem: Error | undefined
  try {
    model = await chooseModel(settings, env)
  } catch (error) {
    if (!opts.deferModelCheck) throw error
    modelProblem = error as Error
  }
  const booted = await boot({
    settings,
    paths,
    env,
    cwd,
    trust,
    userPlugins: plugins.refs,
    mods: mods.specs,
    warn,
    ...(opts.cliRules ? { cliRules: opts.cliRules } : {}),
    ...(sandboxWritable.length > 0 ? { sandboxWritable } : {}),
    verbose: opts.verbose === true,
    noSession: opts.noSession === true,
  })
  // Every variable a plugin declared secret (providers' keys, the search key, $TACK_HOME/.env's names)
  // is redacted from what tack prints, whatever it is called; so is every declared value (an MCP server's
  // literal `env`/`headers` value, docs/decisions/0265-mcp-secret-values.md).
  opts.protectSecrets?.(booted.ctx.secrets.variables(), booted.ctx.secrets.values())
  try {
    if (model !== undefined) assertModelServed(booted.ctx, model)
  } catch (error) {
    if (!opts.deferModelCheck) {
      await booted.close()
      throw error
    }
    modelProblem = error as Error
  }
  return { booted, model, ...(modelProblem ? { modelProblem } : {}) }
}

/** The options of the agent a command runs: the model and its effort, the permission mode, the tools mode when set. */
export function agentOptionsFor(
  settings: Pick<Settings, 'toolsMode' | 'effort'>,
  /** Undefined: the agent plugin's default (a headless slash command with no model configured). */
  model: string | undefined,
  permissionMode: string,
  labels: Readonly<Record<string, unknown>>,
): AgentOptions {
  return {
    ...(model !== undefined
      ? { config: { model, ...(settings.effort ? { reasoningEffort: settings.effort } : {}) } }
      : {}),
    permissionMode,
    ...(settings.toolsMode ? { toolsMode: settings.toolsMode } : {}),
    labels,
  }
}
