// How a tool declares how Codex's hooks see it (`host.codex`, docs/decisions/0210-host-protocol-packages.md):
// its Codex name, its `tool_input`, and the way back from an `updatedInput`. The declarations are read
// by @tack/tools' `HostMappingReader` for `codex` (the same reader as every host's, faults included); a
// tool that declares no Codex mapping keeps its own name and raw arguments (`read`, `mcp__*`, a plugin's
// tool), and an `updatedInput` for it is taken as its arguments.
import type { CodexToolInput } from './tool-shapes.ts'

/** What `fromInput` is told: the call's folder and its arguments before the rewrite. */
export interface CodexInputCall {
  readonly cwd: string
  readonly original: unknown
}

/**
 * A tool's Codex mapping, as a tool package declares it (`host: { codex: … }` in `defineTool`). Either
 * function may answer asynchronously (an apply_patch input is computed against the file as it is).
 * `fromInput` throws an Error whose message says why an `updatedInput` cannot be read back.
 */
export interface CodexToolMapping {
  readonly name: string
  toInput?(args: unknown, cwd: string): CodexToolInput | Promise<CodexToolInput>
  fromInput?(
    input: CodexToolInput,
    call: CodexInputCall,
  ): Record<string, unknown> | Promise<Record<string, unknown>>
}
