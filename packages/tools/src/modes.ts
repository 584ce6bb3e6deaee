// How tools reach the model (TL-19), defined once: the tools plugin's `mode`, the CLI's `--tools-mode` and
// `toolsMode:` in config files all take their values from here (issue 8 item 3).
export const TOOLS_MODES = Object.freeze(['native', 'code', 'both'] as const)
export type ToolsMode = (typeof TOOLS_MODES)[number]

/** The part of an agent a tools mode is read from (structurally `ToolAgent`). */
interface ModedAgent {
  readonly options: { readonly toolsMode?: ToolsMode }
}

const switched = new WeakMap<object, ToolsMode>()

/**
 * TL-36: changes one agent's tools mode during its session (ACP `tools_mode`, `/tools-mode`). It takes
 * effect at the next step's assembly, where the request header's tools delta records it (SL-15).
 */
export function setToolsMode(agent: ModedAgent, mode: ToolsMode): void {
  if (!(TOOLS_MODES as readonly string[]).includes(mode))
    throw new RangeError(
      `unknown tools mode ${JSON.stringify(mode)} (expected one of ${TOOLS_MODES.join(', ')})`,
    )
  switched.set(agent, mode)
}

/** An agent's tools mode: a switch during the session, else its options, else undefined (the registry's). */
export function toolsModeOf(agent: ModedAgent | undefined): ToolsMode | undefined {
  if (!agent) return undefined
  return switched.get(agent) ?? agent.options.toolsMode
}
