// The validated Config of PermissionsPlugin: the default mode and the allow / deny rules.
import { type ConfigOf, Schema } from '@tack/kernel'
import { PERMISSION_MODES } from './modes.ts'

/**
 * A rule: `tool` is a tool name, `*`, or a `*`/`?` wildcard over tool names (`mcp__github__*`); `path` a glob relative to the workspace root or absolute
 * (fs tools); `command` a prefix or a `*`/`?` wildcard pattern of the whole command (bash). A rule
 * has at most one of `path` and `command`; with neither it matches every call of its tool.
 */
export type PermissionRule = {
  readonly tool: string
  readonly path?: string
  readonly command?: string
}

const RULE_KEYS = new Set(['tool', 'path', 'command'])

export function isPermissionRule(value: unknown): value is PermissionRule {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const rule = value as Record<string, unknown>
  if (!Object.keys(rule).every((key) => RULE_KEYS.has(key))) return false
  if (typeof rule.tool !== 'string' || rule.tool === '') return false
  for (const key of ['path', 'command'] as const) {
    if (rule[key] !== undefined && (typeof rule[key] !== 'string' || rule[key] === '')) return false
  }
  return rule.path === undefined || rule.command === undefined
}

const rules = (description: string) =>
  Schema.json<PermissionRule[]>({
    default: [],
    allowed:
      'a list of rules {tool: a tool name, "*" or a wildcard over names such as "mcp__github__*", path?: non-empty glob, command?: non-empty prefix or wildcard}, each with at most one of path and command',
    description,
    test: (value): value is PermissionRule[] => Array.isArray(value) && value.every(isPermissionRule),
  })

export const PermissionsConfig = Schema.object({
  mode: Schema.enum(PERMISSION_MODES, {
    default: 'ask',
    description:
      'The permission mode of agents that set none (`agent.options.permissionMode` overrides it): ask, workspace-write, read-only or yolo. The CLI passes workspace-write for headless runs.',
  }),
  allow: rules(
    'Calls a matching rule allows without asking, in every mode, as an explicit approval (an fs tool then accepts an outside path the rule names).',
  ),
  deny: rules('Calls a matching rule denies, in every mode including yolo; deny wins over allow.'),
})
export type PermissionsConfig = ConfigOf<typeof PermissionsConfig>
