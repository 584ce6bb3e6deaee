// Tools as Codex's hooks see them: each tool's own `host.codex` declaration, read through
// @tack/tools' `HostMappingReader` (docs/decisions/0210-host-protocol-packages.md). Nothing here knows
// a tool or its arguments: `bash` declares `Bash`, `write` and `edit` declare `apply_patch` (matcher
// aliases `Edit`, `Write`), every other tool (incl. `mcp__*`) keeps its name and raw arguments.
import { type HostDeclarations, HostMappingReader } from '@tack/tools'
import type { Bridge } from './bridge.ts'

/** The registered tools, looked up per call (tools registered later count); faulty declarations warned. */
export function codexToolsOf(b: Pick<Bridge, 'ctx' | 'warn'>): HostMappingReader {
  const tools: HostDeclarations = { get: (name, agent) => b.ctx.get('tools')?.get(name, agent) }
  return new HostMappingReader('codex', tools, (message) => b.warn(message))
}
