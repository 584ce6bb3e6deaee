// What the plugin knows about a call before it runs: what kind of action it is, which paths it
// touches (resolved like the fs tools resolve them) and, for bash, its command.
//
// Known tools: the fs tools (`fsPathsOf`: read, glob, grep read; write, edit write), `bash`, and
// `todo_write`, which only changes the session's own todo list. Every other tool — plugins' tools,
// web, subagent — is treated as a write: asked in `ask`, allowed in `workspace-write`, denied in
// `read-only` (an allow rule can let it through).
import { resolve } from 'node:path'
import { fsPathsOf, resolveInWorkspace } from '@tack/tool-fs'
import type { ToolExecution } from '@tack/tools'

export type CallKind = 'read' | 'write' | 'bash' | 'session'

export interface PathFact {
  /** Lexically resolved against the call's cwd. */
  readonly absolute: string
  /** Symlinks followed (nearest existing parent for a new path). */
  readonly real: string
  readonly inside: boolean
}

export interface CallFacts {
  readonly tool: string
  readonly kind: CallKind
  readonly paths: readonly PathFact[]
  readonly command?: string
  /** The workspace root, lexically and real. */
  readonly root: { readonly lexical: string; readonly real: string }
}

/** Tools whose only effect is on the session itself. */
const SESSION_TOOLS: ReadonlySet<string> = new Set(['todo_write'])

export async function factsOf(exec: ToolExecution): Promise<CallFacts> {
  const lexical = resolve(exec.agent?.cwd ?? exec.cwd)
  const fs = fsPathsOf(exec.name, exec.arguments)
  if (fs) {
    const paths = await Promise.all(fs.paths.map((path) => pathFact(lexical, exec.cwd, path)))
    const real = paths[0]?.root ?? lexical
    return { tool: exec.name, kind: fs.access, paths: paths.map((p) => p.fact), root: { lexical, real } }
  }
  const root = { lexical, real: lexical }
  if (exec.name === 'bash') {
    const command = (exec.arguments as { command?: unknown } | undefined)?.command
    return { tool: exec.name, kind: 'bash', paths: [], root, ...(typeof command === 'string' && { command }) }
  }
  return { tool: exec.name, kind: SESSION_TOOLS.has(exec.name) ? 'session' : 'write', paths: [], root }
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
