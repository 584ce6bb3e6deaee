// The session's modes and config options (50-acp.md requirement 7): permission mode as both ACP modes
// and the `permission_mode` select, the tools mode as `tools_mode`, the model as `model` (its options from
// the same list as the TUI's `/model` picker), the reasoning effort as `effort` (category `thought_level`,
// 85-skills-and-commands.md I3). Validation
// of a client's choice lives here; applying it is the session's (acp-session.ts).
import { RequestError, type SessionConfigOption, type SessionModeState } from '@agentclientprotocol/sdk'
import { PERMISSION_MODES, type PermissionMode } from '@tack/permissions'
import type { ToolsMode } from '@tack/tools'
import type { EffortChoice } from '@tack/agent'

export interface SessionChoices {
  readonly permissionMode: PermissionMode
  readonly toolsMode: ToolsMode
  readonly model: string
  /** `default`: no effort is sent (the provider's own). */
  readonly effort: EffortChoice
}

export const EFFORT_CHOICES: readonly EffortChoice[] = Object.freeze(['default', 'low', 'medium', 'high'])

const EFFORT_TEXT: Readonly<Record<EffortChoice, { name: string; description: string }>> = {
  default: { name: 'Default', description: "No effort is sent: the provider's own default." },
  low: { name: 'Low', description: 'Least reasoning: faster and cheaper.' },
  medium: { name: 'Medium', description: 'Balanced reasoning.' },
  high: { name: 'High', description: 'Most reasoning: slower and dearer.' },
}

const MODE_TEXT: Readonly<Record<PermissionMode, { name: string; description: string }>> = {
  ask: { name: 'Ask', description: 'Reads run; every write, command and network call asks first.' },
  'workspace-write': {
    name: 'Workspace write',
    description: 'Writes and commands inside the workspace run; anything outside asks.',
  },
  'read-only': {
    name: 'Read only',
    description: 'Reads run; writes, commands and network calls are refused.',
  },
  yolo: { name: 'Yolo', description: 'Everything runs without asking (deny rules still apply).' },
}

const TOOLS_MODE_TEXT: Readonly<Record<ToolsMode, { name: string; description: string }>> = {
  native: { name: 'Native', description: 'Every tool is offered to the model as a native tool call.' },
  code: {
    name: 'Code Mode',
    description: 'The model writes one TypeScript program (run_code) that calls the tools.',
  },
  both: { name: 'Both', description: 'Native tool calls and run_code are both offered.' },
}

export const CONFIG_IDS = Object.freeze(['permission_mode', 'tools_mode', 'model', 'effort'] as const)
export type ConfigId = (typeof CONFIG_IDS)[number]

export interface OptionSpace {
  /** The tools modes this server can serve: Code Mode's only with a code runtime. */
  readonly toolsModes: readonly ToolsMode[]
  /** Models the client may pick; the session's own is always among them. */
  models(current: string): readonly string[]
  /** Why `model` takes no reasoning effort, or undefined when it takes one. */
  effortRefused(model: string): string | undefined
}

export function modeState(choices: SessionChoices): SessionModeState {
  return {
    currentModeId: choices.permissionMode,
    availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODE_TEXT[id] })),
  }
}

export function configOptions(choices: SessionChoices, space: OptionSpace): SessionConfigOption[] {
  return [
    {
      type: 'select',
      id: 'permission_mode',
      name: 'Permission mode',
      category: 'mode',
      currentValue: choices.permissionMode,
      options: PERMISSION_MODES.map((value) => ({ value, ...MODE_TEXT[value] })),
    },
    {
      type: 'select',
      id: 'tools_mode',
      name: 'Tools mode',
      description: 'How tools reach the model: as native tool calls, or through Code Mode.',
      currentValue: choices.toolsMode,
      options: space.toolsModes.map((value) => ({ value, ...TOOLS_MODE_TEXT[value] })),
    },
    {
      type: 'select',
      id: 'model',
      name: 'Model',
      category: 'model',
      currentValue: choices.model,
      options: space.models(choices.model).map((value) => ({ value, name: value })),
    },
    {
      type: 'select',
      id: 'effort',
      name: 'Reasoning effort',
      description:
        space.effortRefused(choices.model) ??
        'How hard the model reasons before it answers, where it takes one.',
      category: 'thought_level',
      currentValue: choices.effort,
      options: EFFORT_CHOICES.map((value) => ({ value, ...EFFORT_TEXT[value] })),
    },
  ]
}

/** The choices with `configId` set to `value`, or -32602 naming what is wrong. */
export function choose(
  choices: SessionChoices,
  space: OptionSpace,
  configId: string,
  value: unknown,
): SessionChoices {
  const pick = <T extends string>(allowed: readonly T[]): T => {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T
    throw RequestError.invalidParams(
      { field: 'value' },
      `value ${JSON.stringify(value)} is not allowed for ${configId} (allowed: ${allowed.join(', ')})`,
    )
  }
  switch (configId) {
    case 'permission_mode':
      return { ...choices, permissionMode: pick(PERMISSION_MODES) }
    case 'tools_mode':
      return { ...choices, toolsMode: pick(space.toolsModes) }
    case 'model':
      return { ...choices, model: pick(space.models(choices.model)) }
    case 'effort': {
      const effort = pick(EFFORT_CHOICES)
      const refused = effort === 'default' ? undefined : space.effortRefused(choices.model)
      if (refused) throw RequestError.invalidParams({ field: 'value' }, refused)
      return { ...choices, effort }
    }
    default:
      throw RequestError.invalidParams(
        { field: 'configId' },
        `unknown config option ${JSON.stringify(configId)} (known: ${CONFIG_IDS.join(', ')})`,
      )
  }
}

export function checkMode(modeId: string): PermissionMode {
  if ((PERMISSION_MODES as readonly string[]).includes(modeId)) return modeId as PermissionMode
  throw RequestError.invalidParams(
    { field: 'modeId' },
    `unknown mode ${JSON.stringify(modeId)} (available: ${PERMISSION_MODES.join(', ')})`,
  )
}
