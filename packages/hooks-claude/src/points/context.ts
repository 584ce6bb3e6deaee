// Folding hook context onto a downstream decision (40-hooks.md B5): context without a block calls
// `next()`, and the downstream decision — block, deny, allow or accept — gains the context items.
import type { HookContext } from '@tack/session'
import { contextTexts } from '../bridge.ts'
import { HOOKS_CLAUDE_SOURCE } from '../protocol.ts'

export function contextItems(
  label: string,
  contexts: readonly string[],
  plain: readonly string[] = [],
): HookContext[] {
  return contextTexts(label, contexts, plain).map((content) => ({ content, source: HOOKS_CLAUDE_SOURCE }))
}

/** `decision` with `items` ahead of its own context; the same object when there is nothing to add. */
export function withContext<D extends { additionalContext?: readonly HookContext[] }>(
  decision: D,
  items: readonly HookContext[],
): D {
  if (items.length === 0) return decision
  return { ...decision, additionalContext: [...items, ...(decision.additionalContext ?? [])] }
}
