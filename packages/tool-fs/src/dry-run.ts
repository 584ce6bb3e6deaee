// `write`'s and `edit`'s dry runs (docs/decisions/0300-approval-shows-the-change.md): the tool's own
// planning code — the same function its body runs before it writes — turned into the pipeline's plan
// union. A `ToolFailure` (not read yet, changed since, old_string not found) is the `fail` arm, so the
// call ends with that error before anyone is asked; anything else a plan throws is left to the pipeline.
import { type ResultIntent, ToolFailure, type ToolPlan } from '@tack/tools'
import { type ChangeSummary, type DiffBudget, describeSummary } from './diff.ts'
import type { DiffHunk } from '@tack/tools'

export async function dryRun(plan: () => Promise<readonly ResultIntent[]>): Promise<ToolPlan> {
  try {
    return { action: 'proceed', preview: await plan() }
  } catch (error) {
    if (error instanceof ToolFailure) return { action: 'fail', code: error.code, message: error.message }
    throw error
  }
}

/** What a change shows, before and after it is made: its hunks, or past a cap the result's counts. */
export function changeIntents(
  path: string,
  change: ChangeSummary | readonly DiffHunk[],
  budget: Omit<DiffBudget, 'signal'>,
): ResultIntent[] {
  if (Array.isArray(change)) return [{ kind: 'diff', path, hunks: change as readonly DiffHunk[] }]
  return [{ kind: 'text', text: describeSummary(change as ChangeSummary, budget) }]
}
