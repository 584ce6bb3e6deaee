// Interrupt (docs/decisions/0181-codex-permission-and-compaction-points.md): a top-level agent's turn
// ended `aborted` — the person stopped it (Esc, Ctrl-C, an ACP cancel). Observed on `session/event`
// (the turn's `turn/end`), run detached like SessionStart (A8): observe only, `systemMessage` is all a
// hook may print. Unlike SessionStart it is not cut by the agent's disposal, which waits for it: a
// headless run that Ctrl-C ends disposes its agent right after the aborted turn, the very moment this
// hook is for (docs/decisions/0186-codex-interrupt-outlives-disposal.md). The plugin's dispose cuts it.
import type { Agent } from '@tack/agent'
import type { Session, SessionEvent } from '@tack/session'
import type { Bridge } from '../bridge.ts'
import { interruptPayload } from '../payload.ts'
import { runPoint, selectHooks } from '../runner.ts'

export function installInterrupt(b: Bridge): void {
  b.ctx.on('session/event', (session: Session, event: SessionEvent) => {
    if (event.type !== 'turn/end') return
    const { turn, reason } = (event as SessionEvent<'turn/end'>).data
    if (reason.kind !== 'aborted') return
    const hooks = b.registry.runnable()
    if (selectHooks(hooks, 'Interrupt', []).length === 0) return
    let agent: Agent | undefined
    try {
      agent = b.ctx.agents.live().find((a) => a.session === session && !a.parent)
    } catch {
      return
    }
    if (!agent) return
    const target = agent
    const signal = b.detached.signal
    const chain = (async () => {
      // Not inside the append that announced the turn's end: the hook's own events follow it.
      await Promise.resolve()
      await runPoint(b.runner, hooks, {
        point: 'Interrupt',
        agent: target,
        subjects: [],
        payload: interruptPayload(b.payloadContext(target, turn)),
        turn,
        signal,
      })
    })().catch((error: unknown) => {
      b.warn(`Interrupt hooks failed: ${error instanceof Error ? error.message : String(error)}`)
    })
    b.detached.track(chain)
    b.ctx.agents.trackDetached(target, chain)
  })
}
