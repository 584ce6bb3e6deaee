// The fs tools' side of the workspace scope (TL-11, R6). Resolution and enforcement live in
// `@tack/tools` (`scope.ts`), which also holds every declared path to the scope before a body runs;
// the fs tools still resolve through `resolveScoped` themselves, because they need the resolved
// path, and so they stay scoped even if the pipeline's check were skipped.
import { relative, sep } from 'node:path'
import { isInside, type ToolCallContext } from '@tack/tools'

export {
  isInside,
  type ResolvedPath,
  resolveInWorkspace,
  resolveScoped,
  workspaceRootOf,
} from '@tack/tools'

/** How a call was approved (set by the tools pipeline; see the README's scope decision). */
export type CallApproval = 'user' | 'rule'

/**
 * How the call was approved, if it was: the pipeline sets `approval` when an `ask` was allowed (by
 * the user or a rule). Anything else counts as not approved.
 */
export function approvalOf(call: ToolCallContext): CallApproval | undefined {
  const approval: unknown = call.approval
  return approval === 'user' || approval === 'rule' ? approval : undefined
}

/**
 * How a path is shown to the model and in render intents: relative to the workspace root with `/`
 * separators when inside, else absolute.
 */
export function displayPath(root: string, real: string): string {
  if (!isInside(root, real)) return real
  const rel = relative(root, real)
  return rel === '' ? '.' : rel.split(sep).join('/')
}
