// What the plugin knows about a call before it runs, read from the tool's own declarations
// (0011-tool-declarations.md): its access, the paths it touches (resolved as the workspace scope
// resolves them) and, for an `execute` tool, its `command` argument. No tool is known here by name:
// a tool in its own package is judged by what it declares. A tool that declares no access counts as
// a write — asked in `ask`, allowed in `workspace-write`, denied in `read-only` (an allow rule can
// let it through).
import { resolve } from 'node:path'
import {
  declaredEscalation,
  declaredPaths,
  type SandboxEscalation,
  resolveInWorkspace,
  type ToolAccess,
  type ToolDefinition,
  type ToolExecution,
  toolAccess,
} from '@tack/tools'

export interface PathFact {
  /** Lexically resolved against the call's cwd. */
  readonly absolute: string
  /** Symlinks followed (nearest existing parent for a new path). */
  readonly real: string
  readonly inside: boolean
}

export interface CallFacts {
  readonly tool: string
  readonly access: ToolAccess
  readonly paths: readonly PathFact[]
  readonly command?: string
  /** The tool asks before every call outside yolo (its `alwaysAsk` declaration, e.g. MCP's destructiveHint). */
  readonly alwaysAsk?: boolean
  /** The call asks to run outside the OS sandbox (docs/decisions/0315-leaving-the-sandbox.md). */
  readonly escalation?: SandboxEscalation
  /** The workspace root, lexically and real. */
  readonly root: { readonly lexical: string; readonly real: string }
  /** The tool's `paths` declaration failed: the call cannot be judged and is denied (fail closed). */
  readonly problem?: string
}

export async function factsOf(exec: ToolExecution, def: ToolDefinition | undefined): Promise<CallFacts> {
  const lexical = resolve(exec.agent?.cwd ?? exec.cwd)
  const access = toolAccess(def)
  const escalated = declaredEscalation(def, exec.arguments)
  const base = {
    tool: exec.name,
    access,
    ...commandOf(access, exec.arguments),
    ...(def?.alwaysAsk === true ? { alwaysAsk: true } : {}),
    ...(escalated.ok && escalated.escalation ? { escalation: escalated.escalation } : {}),
  }
  if (!escalated.ok)
    return { ...base, paths: [], root: { lexical, real: lexical }, problem: escalated.problem }
  const declared = def ? declaredPaths(def, exec.arguments) : { ok: true as const, paths: [] }
  if (!declared.ok) return { ...base, paths: [], root: { lexical, real: lexical }, problem: declared.problem }
  const paths = await Promise.all(declared.paths.map((path) => pathFact(lexical, exec.cwd, path)))
  const real = paths.find((p) => p.root !== undefined)?.root ?? lexical
  return { ...base, paths: paths.map((p) => p.fact), root: { lexical, real } }
}

/** An `execute` tool's command (bash's `command` argument), for command rules and reasons. */
function commandOf(access: ToolAccess, args: unknown): { command?: string } {
  if (access !== 'execute') return {}
  const command = (args as { command?: unknown } | undefined)?.command
  return typeof command === 'string' ? { command } : {}
}

async function pathFact(root: string, cwd: string, path: string): Promise<{ fact: PathFact; root?: string }> {
  try {
    const resolved = await resolveInWorkspace(root, cwd, path)
    return {
      fact: { absolute: resolved.absolute, real: resolved.real, inside: resolved.inside },
      root: resolved.root,
    }
  } catch {
    // Unresolvable (a symlink loop, no permission): judged as outside, so it is never silently allowed.
    const absolute = resolve(cwd, path)
    return { fact: { absolute, real: absolute, inside: false } }
  }
}
