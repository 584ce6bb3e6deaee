// Where each tool sits in Code Mode's `tools` object (TL-21): at its declared `sdk.path` (an MCP tool's
// `['mcp', server, tool]`), else at its name. The SDK section and run_code's bindings both come from
// this one layout, so what the model is told is what the program can call. Two tools wanting the same
// place — or one wanting a place inside another (a tool named `mcp` and `tools.mcp.s.t`) — cannot both
// have it: in name order the first keeps it and the later one goes to `tools[<its name>]`.
import type { ToolDefinition } from '../types.ts'
import type { CodeBindingPlace } from './runtime.ts'

export interface SdkMember {
  readonly def: ToolDefinition
  readonly place: CodeBindingPlace
}

/** The members for `tools`, already in name order (run_code excluded by the caller). */
export function sdkLayout(tools: readonly ToolDefinition[]): SdkMember[] {
  const leaves = new Set<string>()
  const branches = new Set<string>()
  const fits = (path: readonly string[]): boolean => {
    for (let i = 1; i < path.length; i++) if (leaves.has(key(path.slice(0, i)))) return false
    return !leaves.has(key(path)) && !branches.has(key(path))
  }
  const claim = (path: readonly string[]): void => {
    leaves.add(key(path))
    for (let i = 1; i < path.length; i++) branches.add(key(path.slice(0, i)))
  }
  const members: SdkMember[] = []
  for (const def of tools) {
    const wanted = def.sdk?.path ?? [def.name]
    const path = fits(wanted) ? wanted : [def.name]
    if (!fits(path)) continue
    claim(path)
    members.push({ def, place: { path, ...(def.sdk?.result ? { parseJson: true } : {}) } })
  }
  return members
}

const key = (path: readonly string[]) => JSON.stringify(path)
