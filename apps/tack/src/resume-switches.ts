// Flags given when a session is continued or resumed (`tack -c`, `tack -r ID`, `tack run -c|-r`) are new
// switches of that session, logged like the ones its log holds (80-cli.md §2, 85-skills-and-commands.md I3,
// docs/decisions/0290-model-choice-and-effort.md): `--model` through `switchAgentModel` (so
// PreModelSwitch hooks see it, source `flag`), `--effort` as `agent/effort`, and for `tack run`
// `--permission-mode` and `--tools-mode` as their own switches. Before, the interactive UI let a logged
// `/model` silently beat `--model`, and `tack run` switched the model past the PreModelSwitch hooks.
import {
  type Agent,
  effortOf,
  setAgentEffort,
  setAgentModel,
  switchAgentModel,
  switchedEffortOf,
  switchedModelOf,
} from '@tack/agent'
import type { LlmProviders } from '@tack/llm'
import { isPermissionMode, permissionModeOf, setPermissionMode } from '@tack/permissions'
import { foldRequestHeader, type ReasoningEffort } from '@tack/session'
import { isToolsMode, setToolsMode, toolsModeOf } from '@tack/tools'
import type { Context } from 'cordis'
import type { CommonFlags } from './args.ts'

export interface FlagSwitches {
  /** `--model` as the settings resolved it (`local/…` with `--base-url`); undefined: not given. */
  readonly model?: string
  readonly effort?: ReasoningEffort
}

/**
 * Applies the flags to a resumed `agent`; returns one line per switch for the person (stderr or the
 * transcript), a refused one included.
 */
export async function applyResumeFlags(
  ctx: Context,
  agent: Agent,
  given: FlagSwitches,
  /**
   * `tack run`'s `--permission-mode` and `--tools-mode` (its flags switch those too); the interactive UI
   * passes none: there a resumed session keeps its modes and a wider one is announced (0119).
   */
  modes: Pick<CommonFlags, 'permission-mode' | 'tools-mode'> = {},
): Promise<string[]> {
  const lines: string[] = []
  // What the session ran with before this start: its last switch, else its last request's header.
  const header = foldRequestHeader(agent.session.events())
  if (given.model !== undefined) {
    const before = switchedModelOf(agent) ?? header?.config.model
    if (before !== undefined && before !== given.model) {
      const decision = await switchAgentModel(ctx, agent, given.model, 'flag', before)
      if (decision.action === 'allow') lines.push(`model switched from ${before} to ${given.model} (--model)`)
      else {
        // The agent was created with the flag's model: pin the session's own, so the refusal holds.
        if (agent.model !== before) setAgentModel(agent, before)
        lines.push(`--model ${given.model} was refused: ${decision.reason}; the session keeps ${before}`)
      }
    }
  }
  if (given.effort !== undefined) {
    const switched = switchedEffortOf(agent)
    const before =
      switched === undefined ? header?.config.reasoningEffort : switched === 'default' ? undefined : switched
    if (before !== given.effort) {
      setAgentEffort(agent, given.effort)
      lines.push(`reasoning effort set to ${given.effort} (--effort)`)
    }
  }
  const permission = modes['permission-mode']
  if (isPermissionMode(permission) && permission !== permissionModeOf(agent, permission))
    setPermissionMode(agent, permission)
  const tools = modes['tools-mode']
  if (isToolsMode(tools) && tools !== toolsModeOf(agent)) setToolsMode(agent, tools)
  return lines
}

/** A line when `--effort` was given and the agent's model takes none (it is not sent), else undefined. */
export function effortFlagWarning(
  ctx: Context,
  agent: Agent,
  effort: ReasoningEffort | undefined,
): string | undefined {
  // no model configured (`tack run "/help"` needs none): nothing to warn about yet
  if (effort === undefined || !agent.model || effortOf(agent) !== effort) return undefined
  const llm = ctx.get('llmProviders') as LlmProviders | undefined
  const support = llm?.effortSupport(agent.model)
  return support && !support.ok ? `--effort ${effort} is not sent: ${support.reason}` : undefined
}

/** The switches the command line asked for: `--model` and `--effort` as the settings resolved them. */
export function flagSwitches(
  flags: CommonFlags,
  settings: { readonly model?: string; readonly effort?: ReasoningEffort },
): FlagSwitches {
  return {
    ...(flags.model !== undefined && settings.model ? { model: settings.model } : {}),
    ...(flags.effort !== undefined && settings.effort ? { effort: settings.effort } : {}),
  }
}
