// `--allow TOOL[:pattern]` and `--deny TOOL[:pattern]` (80-cli §4a.3, issue 10 item 6): permission rules
// for one run, the same rules a config file writes under `plugins.permissions.allow|deny`
// (`{tool, path?, command?}`, packages/permissions/README.md). The flags are the user's own, so they
// apply in an untrusted workspace too; they are added after the config's rules (deny still wins).
//
// The pattern is a command for a tool that declares `execute` access (bash) and a path glob for every
// other tool: a rule of the wrong kind never matches, so a named tool gets one rule of each kind
// (`toPermissionRules`), and nothing depends on which plugins are loaded when the permission plugin is.
import type { PermissionRule } from '@tack/permissions'
import { MCP_TOOL_NAME_PATTERN, TOOL_NAME_PATTERN, type ToolRegistry } from '@tack/tools'
import { UsageError } from './args.ts'

/** A parsed flag value: the tool and, when given, the text after the first `:`. */
export interface RuleSpec {
  readonly tool: string
  readonly pattern?: string
}

export interface CliRuleSpecs {
  readonly allow: readonly RuleSpec[]
  readonly deny: readonly RuleSpec[]
}

/**
 * A `*`/`?` wildcard over tool names (`mcp__github__*`, spec 55-mcp.md M8): the characters tool names
 * may hold, at least one wildcard. The permission rules match it as config rules do
 * (packages/permissions/src/rules.ts `toolMatches`).
 */
const TOOL_WILDCARD = /^(?=.*[*?])[A-Za-z0-9_*?-]{1,64}$/

/** The names tools may have (@tack/tools: a tack tool or an MCP tool), `*`, or a wildcard over names. */
const isToolSpec = (tool: string): boolean =>
  TOOL_NAME_PATTERN.test(tool) || MCP_TOOL_NAME_PATTERN.test(tool) || TOOL_WILDCARD.test(tool)

/**
 * MCP tools come and go while a session runs (a server that did not start, one that restarts or lists
 * new tools, 55-mcp.md M5), so a rule naming one is not a typo when no such tool is registered yet
 * (docs/decisions/0230-cli-rules-for-mcp-tools.md); nor is a wildcard, which may match none yet.
 */
const isCheckedName = (tool: string): boolean =>
  tool !== '*' && !TOOL_WILDCARD.test(tool) && !MCP_TOOL_NAME_PATTERN.test(tool)

export function parseRuleSpec(flag: '--allow' | '--deny', value: string): RuleSpec {
  const colon = value.indexOf(':')
  const tool = colon === -1 ? value : value.slice(0, colon)
  const pattern = colon === -1 ? undefined : value.slice(colon + 1)
  if (!isToolSpec(tool))
    throw new UsageError(
      `${flag} "${value}": TOOL must be a tool name (lower case, e.g. bash, read, write), an MCP tool name (mcp__server__tool), * or a wildcard such as mcp__github__* — the form is TOOL or TOOL:pattern`,
    )
  if (pattern !== undefined && pattern.trim() === '')
    throw new UsageError(
      `${flag} "${value}": the pattern after ":" is empty (write ${flag} ${tool} for every call)`,
    )
  return pattern === undefined ? { tool } : { tool, pattern }
}

export function parseCliRules(flags: { allow?: readonly string[]; deny?: readonly string[] }): CliRuleSpecs {
  return {
    allow: (flags.allow ?? []).map((v) => parseRuleSpec('--allow', v)),
    deny: (flags.deny ?? []).map((v) => parseRuleSpec('--deny', v)),
  }
}

export const hasCliRules = (specs: CliRuleSpecs | undefined): specs is CliRuleSpecs =>
  specs !== undefined && specs.allow.length + specs.deny.length > 0

/**
 * The config rules a spec stands for. A pattern is a command for a tool that declares `execute` access
 * and a path glob for any other; which the tool is may not be known yet (boot loads plugins in any
 * order, docs/decisions/0206-boot-loop.md), so a named tool gets both rules: the one of the wrong kind
 * never matches (an `execute` tool's call has no paths, any other's no command). `*` is a path rule.
 */
export function toPermissionRules(spec: RuleSpec): PermissionRule[] {
  if (spec.pattern === undefined) return [{ tool: spec.tool }]
  const path = { tool: spec.tool, path: spec.pattern }
  return spec.tool === '*' ? [path] : [{ tool: spec.tool, command: spec.pattern }, path]
}

/** The permission plugin's `allow` and `deny` with the flags' rules after the config's. */
export function withCliRules(
  config: Record<string, unknown>,
  specs: CliRuleSpecs,
): { allow: PermissionRule[]; deny: PermissionRule[] } {
  const existing = (key: 'allow' | 'deny') =>
    Array.isArray(config[key]) ? (config[key] as PermissionRule[]) : []
  return {
    allow: [...existing('allow'), ...specs.allow.flatMap(toPermissionRules)],
    deny: [...existing('deny'), ...specs.deny.flatMap(toPermissionRules)],
  }
}

/** A rule naming a (non-MCP) tool no plugin registered is a typo: say so instead of never matching. */
export function checkRuleTools(specs: CliRuleSpecs, tools: ToolRegistry | undefined): void {
  if (!tools) return
  for (const [flag, list] of [
    ['--allow', specs.allow],
    ['--deny', specs.deny],
  ] as const) {
    for (const spec of list) {
      if (!isCheckedName(spec.tool) || tools.get(spec.tool)) continue
      const names = tools.schemas().map((s) => s.name)
      throw new UsageError(`${flag}: no tool is named "${spec.tool}" (tools: ${names.join(', ')})`)
    }
  }
}
