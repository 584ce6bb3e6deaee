// The merge (40-hooks.md A6): folds the outputs of one point's hooks, in config order, into one
// outcome. deny (incl. block) > ask > allow (incl. approve) > none; the reason is the winning level's
// reasons joined by a blank line; the first `continue: false` sets a sticky stop with its
// `stopReason`; contexts, system messages and plain stdout accumulate in order.
import type { HookDecision, HookOutput } from './types.ts'

/** A decision level after folding the dialect spellings (`block` is deny, `approve` is allow). */
export type HookLevel = 'deny' | 'ask' | 'allow'

export interface MergedHookOutcome {
  /** The winning level; absent when no hook decided. */
  readonly decision?: HookLevel
  /** The winning level's non-empty reasons, joined by a blank line; absent when there were none. */
  readonly reason?: string
  /** Set by the first output with `continue: false`; later ones do not change it. */
  readonly stop?: { readonly reason?: string }
  /** `additionalContext` values, in config order. */
  readonly contexts: readonly string[]
  readonly systemMessages: readonly string[]
  /** Non-JSON stdout of hooks that exited 0 without deciding, in config order. */
  readonly plainStdout: readonly string[]
  /** The last `updatedInput` in config order (the rewrite a bridge honours, if its point allows). */
  readonly updatedInput?: Readonly<Record<string, unknown>>
  /** How many outputs failed (timed out, aborted, could not start, or failed to decode). */
  readonly failed: number
}

const RANK: Record<HookLevel, number> = { allow: 1, ask: 2, deny: 3 }

/** The level a decision counts as. */
export function levelOf(decision: HookDecision | undefined): HookLevel | undefined {
  switch (decision) {
    case 'deny':
    case 'block':
      return 'deny'
    case 'ask':
      return 'ask'
    case 'allow':
    case 'approve':
      return 'allow'
    case undefined:
      return undefined
    default:
      return decision satisfies never
  }
}

/** An outcome in which nothing was decided (no hooks ran, or none said anything). */
export const EMPTY_OUTCOME: MergedHookOutcome = Object.freeze({
  contexts: Object.freeze([]),
  systemMessages: Object.freeze([]),
  plainStdout: Object.freeze([]),
  failed: 0,
})

export function mergeHookOutputs(outputs: readonly HookOutput[]): MergedHookOutcome {
  let level: HookLevel | undefined
  let reasons: string[] = []
  let stop: { reason?: string } | undefined
  let updatedInput: Readonly<Record<string, unknown>> | undefined
  const contexts: string[] = []
  const systemMessages: string[] = []
  const plainStdout: string[] = []
  let failed = 0

  for (const output of outputs) {
    if (output.failed) {
      failed++
      continue
    }
    const l = levelOf(output.decision)
    if (l !== undefined) {
      if (level === undefined || RANK[l] > RANK[level]) {
        level = l
        reasons = []
      }
      if (l === level && output.reason) reasons.push(output.reason)
    }
    if (output.continue === false && !stop) {
      stop = output.stopReason !== undefined ? { reason: output.stopReason } : {}
    }
    if (output.additionalContext) contexts.push(output.additionalContext)
    if (output.systemMessage) systemMessages.push(output.systemMessage)
    if (!output.json && output.decision === undefined && output.exitCode === 0 && output.stdout) {
      plainStdout.push(output.stdout)
    }
    if (output.updatedInput) updatedInput = output.updatedInput
  }

  return {
    ...(level !== undefined ? { decision: level } : {}),
    ...(reasons.length > 0 ? { reason: reasons.join('\n\n') } : {}),
    ...(stop ? { stop } : {}),
    contexts,
    systemMessages,
    plainStdout,
    ...(updatedInput ? { updatedInput } : {}),
    failed,
  }
}
