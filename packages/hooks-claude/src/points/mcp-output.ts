// `hookSpecificOutput.updatedMCPToolOutput` of a PostToolUse hook (protocols.md §A, PostToolUse row;
// docs/decisions/0250-mcp-approval-prompt.md): for an MCP tool (`mcp__<server>__<tool>`) it replaces
// what the model sees of the result, as in Claude Code. The value is read as Claude Code's own
// `tool_response` for MCP tools is shaped — content blocks, whose text blocks are joined — or a string;
// any other JSON value is shown as its JSON. The last hook (in config order) that gives one wins, as for
// `updatedInput`. For a tool that is not an MCP tool the field has no effect (warned once).
import { MCP_TOOL_NAME_PATTERN } from '@tack/tools'
import type { HandlerRun } from '../handler-runs.ts'

export const UPDATED_MCP_OUTPUT_FIELD = 'hookSpecificOutput.updatedMCPToolOutput'

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The replacement text the hooks of `runs` gave, if any (the last one). */
export function updatedMcpOutput(
  runs: readonly HandlerRun[],
): { found: false } | { found: true; text: string } {
  for (const run of [...runs].reverse()) {
    const specific = run.output.raw?.hookSpecificOutput
    if (run.output.failed || !isObject(specific) || specific.hookEventName !== 'PostToolUse') continue
    if (!Object.hasOwn(specific, 'updatedMCPToolOutput')) continue
    return { found: true, text: outputText(specific.updatedMCPToolOutput) }
  }
  return { found: false }
}

function outputText(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value))
    return value
      .map((block) =>
        isObject(block) && block.type === 'text' && typeof block.text === 'string'
          ? block.text
          : JSON.stringify(block),
      )
      .join('\n')
  return JSON.stringify(value) ?? ''
}

export const isMcpTool = (tackName: string): boolean => MCP_TOOL_NAME_PATTERN.test(tackName)
