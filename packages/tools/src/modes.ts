// How tools reach the model (TL-19), defined once: the tools plugin's `mode`, the CLI's `--tools-mode` and
// `toolsMode:` in config files all take their values from here (issue 8 item 3). A switch during a
// session (`/tools-mode`, ACP's `tools_mode`) is logged as `tools/mode` and restored on resume.
import type { SessionEvent } from '@tack/session'

export const TOOLS_MODES = Object.freeze(['native', 'code', 'both'] as const)
export type ToolsMode = (typeof TOOLS_MODES)[number]

declare module '@tack/session' {
  interface SessionEventMap {
    /** The agent's tools mode was switched to `mode` during the session (TL-36); the next request's tools header records it, and a resume restores it. */
    'tools/mode': { mode: 'native' | 'code' | 'both' }
  }
}

/** The part of an agent a tools mode is read from (structurally `ToolAgent`). */
interface ModedAgent {
  readonly options: { readonly toolsMode?: ToolsMode }
  readonly session?: {
    events(): readonly SessionEvent[]
    append(type: 'tools/mode', data: { mode: ToolsMode }): unknown
  }
}

/** Per agent object: the mode switched to, or null when its log holds no switch (folded once). */
const switched = new WeakMap<object, ToolsMode | null>()

export function isToolsMode(value: unknown): value is ToolsMode {
  return typeof value === 'string' && (TOOLS_MODES as readonly string[]).includes(value)
}

/**
 * TL-36: changes one agent's tools mode during its session (ACP `tools_mode`, `/tools-mode`). It takes
 * effect at the next step's assembly, where the request header's tools delta records it (SL-15); the
 * `tools/mode` event lets a resume restore it.
 */
export function setToolsMode(agent: ModedAgent, mode: ToolsMode): void {
  if (!isToolsMode(mode))
    throw new RangeError(
      `unknown tools mode ${JSON.stringify(mode)} (expected one of ${TOOLS_MODES.join(', ')})`,
    )
  agent.session?.append('tools/mode', { mode })
  switched.set(agent, mode)
}

/** An agent's tools mode: a switch during the session (or its resumed log), else its options, else undefined (the registry's). */
export function toolsModeOf(agent: ModedAgent | undefined): ToolsMode | undefined {
  if (!agent) return undefined
  let mode = switched.get(agent)
  if (mode === undefined) {
    mode = lastLoggedMode(agent.session?.events() ?? [])
    switched.set(agent, mode)
  }
  return mode ?? agent.options.toolsMode
}

function lastLoggedMode(events: readonly SessionEvent[]): ToolsMode | null {
  for (let i = events.length - 1; i >= 0; i--) {
    if ((events[i].type as string) !== 'tools/mode') continue
    const mode = (events[i].data as { mode?: unknown }).mode
    if (isToolsMode(mode)) return mode
  }
  return null
}
