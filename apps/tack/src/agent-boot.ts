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
  const { resolved, flags, io, warn } = opts
  const { settings, paths, cwd, trust } = resolved
  const sandboxWritable = parseSandboxWritable(flags['sandbox-writable'], io.cwd)
  const plugins = findUserPlugins(settings, paths, cwd, trust.trusted)
  const mods = findModFolders(settings, paths, cwd, trust.trusted, flags.mod, io.cwd)
  const notice = opts.heldBack
    ? opts.heldBack.notice
    : await untrustedNotice(resolved, io.env, plugins.heldBack, mods.heldBack)
  if (notice) warn(notice)
  let model: string | undefined
  let modelProblem: Error | undefined
  try {
    model = await chooseModel(settings, io.env)
  } catch (error) {
    if (!opts.deferModelCheck) throw error
    modelProblem = error as Error
  }
  const booted = await boot({
    settings,
    paths,
    env: io.env,
    cwd,
    trust,
    userPlugins: plugins.refs,
    mods: mods.specs,
    warn,
    ...(opts.cliRules ? { cliRules: opts.cliRules } : {}),
    ...(sandboxWritable.length > 0 ? { sandboxWritable } : {}),
    verbose: flags.verbose === true,
    noSession: flags['no-session'] === true,
  })
  // Every variable a plugin declared secret (providers' keys, the search key, $TACK_HOME/.env's names)
  // is redacted from what tack prints, whatever it is called; so is every declared value (an MCP server's
  // literal `env`/`headers` value, docs/decisions/0265-mcp-secret-values.md).
  io.protectSecrets?.(booted.ctx.secrets.variables(), booted.ctx.secrets.values())
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
