// PreCompact and PostCompact (docs/decisions/0181-codex-permission-and-compaction-points.md) on
// `compaction/pre` and `compaction/post` (waterfalls), for any agent's compaction. Matcher subject: the
// trigger, `manual` for `/compact`, `auto` for tack's automatic and context-too-long compactions.
// PreCompact `continue:false` blocks the compaction (nothing is logged; the person sees the stop reason
// or `PreCompact hook stopped execution`). PostCompact `continue:false` cannot undo a compaction the
// seam reports as done: its stop reason becomes a notice shown with the compaction's result, and it is
// warned. Everything else a hook prints is ignored, apart from `systemMessage` on `hook/result`.
import type { Agent } from '@tack/agent'
import type {
  CompactionTrigger,
  PostCompactInfo,
  PostCompactResult,
  PreCompactDecision,
  PreCompactInfo,
} from '@tack/compaction'
import type { Bridge } from '../bridge.ts'
import { type CodexCompactTrigger, compactPayload, currentTurn } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'

export function codexTrigger(trigger: CompactionTrigger): CodexCompactTrigger {
  switch (trigger) {
    case 'manual':
      return 'manual'
    case 'auto':
    case 'context-too-long':
      return 'auto'
    default:
      return trigger satisfies never
  }
}

export function installCompaction(b: Bridge): void {
  async function run(
    point: 'PreCompact' | 'PostCompact',
    agent: Agent,
    trigger: CodexCompactTrigger,
    signal?: AbortSignal,
  ) {
    const turn = currentTurn(agent)
    return runPoint(b.runner, b.registry.runnable(), {
      point,
      agent,
      subjects: [trigger],
      // Codex always sends a turn id; before any turn tack's is the session's turn 0.
      payload: compactPayload(point, b.payloadContext(agent, turn ?? 0), trigger),
      ...(turn !== undefined ? { turn } : {}),
      signal: signal ? AbortSignal.any([signal, b.lifetime(agent)]) : b.lifetime(agent),
    })
  }

  b.ctx.on(
    'compaction/pre',
    async (
      agent: Agent,
      info: PreCompactInfo,
      next: () => Promise<PreCompactDecision>,
    ): Promise<PreCompactDecision> => {
      const trigger = codexTrigger(info.trigger)
      if (selectHooks(b.registry.runnable(), 'PreCompact', [trigger]).length === 0) return next()
      const { merged } = await run('PreCompact', agent, trigger, info.signal)
      if (merged.stop)
        return { action: 'block', reason: merged.stop.reason || 'PreCompact hook stopped execution' }
      return next()
    },
  )

  b.ctx.on(
    'compaction/post',
    async (
      agent: Agent,
      info: PostCompactInfo,
      next: () => Promise<PostCompactResult>,
    ): Promise<PostCompactResult> => {
      const trigger = codexTrigger(info.trigger)
      if (selectHooks(b.registry.runnable(), 'PostCompact', [trigger]).length === 0) return next()
      const { merged } = await run('PostCompact', agent, trigger)
      const downstream = await next()
      if (!merged.stop) return downstream
      const notice = merged.stop.reason || 'PostCompact hook stopped execution'
      b.warn(`a PostCompact hook returned continue:false; the compaction stands (${notice})`)
      return { ...downstream, notices: [notice, ...downstream.notices] }
    },
  )
}
