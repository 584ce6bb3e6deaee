// PreModelSwitch and PostModelSwitch (claude-code-hook-events.md) on `agent/model-switch` and
// `agent/model-switched` (`/model`). Matcher subject: the resolved model id (`provider/model`). Payload:
// `from_model`, `to_model`, `requested_model`, `source` (`slash_command` for `/model`, `client` for an ACP
// client, `cli_flag` for `--model` on a continued session, docs/decisions/0290-model-choice-and-effort.md),
// `context_tokens` (the input tokens of the session's last request, 0 before any). Pre: a deny
// (`permissionDecision: "deny"`, JSON block or exit 2) keeps the model, with the reason. Post:
// `additionalContext` is injected for the next request (the hooks finish before the next prompt is taken).
import type { Agent, ModelChange, ModelSwitchDecision } from '@tack/agent'
import type { SessionEvent } from '@tack/session'
import type { ClaudeBridge } from '../bridge.ts'

function fields(agent: Agent, change: ModelChange): Record<string, unknown> {
  return {
    from_model: change.from,
    to_model: change.to,
    requested_model: change.requested,
    source: change.source === 'command' ? 'slash_command' : change.source === 'flag' ? 'cli_flag' : 'client',
    context_tokens: lastInputTokens(agent),
  }
}

/** Backwards with `eventAt`: `events()` would copy the whole log (docs/decisions/0066-flat-memory.md). */
function lastInputTokens(agent: Agent): number {
  for (let i = agent.session.length - 1; i >= 0; i--) {
    const e = agent.session.eventAt(i)
    if (e?.type !== 'assistant/message') continue
    const usage = (e as SessionEvent<'assistant/message'>).data.usage
    if (usage) return usage.inputTokens
  }
  return 0
}

export async function onPreModelSwitch(
  bridge: ClaudeBridge,
  agent: Agent,
  change: ModelChange,
  next: () => Promise<ModelSwitchDecision>,
): Promise<ModelSwitchDecision> {
  if (!bridge.mayRun('PreModelSwitch', agent, [change.to])) return next()
  const outcome = await bridge.runPoint({
    point: 'PreModelSwitch',
    agent,
    fields: fields(agent, change),
    subjects: [change.to],
    signal: bridge.state(agent).turnSignal(agent),
  })
  if (outcome.decision === 'deny' || outcome.stop) {
    return {
      action: 'deny',
      reason: outcome.reason || outcome.stop?.reason || 'a PreModelSwitch hook denied the switch',
    }
  }
  return next()
}

export function onPostModelSwitch(bridge: ClaudeBridge, agent: Agent, change: ModelChange): void {
  if (!bridge.mayRun('PostModelSwitch', agent, [change.to])) return
  const st = bridge.state(agent)
  const chain = (async () => {
    const outcome = await bridge.runPoint({
      point: 'PostModelSwitch',
      agent,
      fields: fields(agent, change),
      subjects: [change.to],
      signal: st.detachedSignal,
    })
    if (st.detachedSignal.aborted) return
    bridge.injectContexts(agent, 'PostModelSwitch', outcome.contexts, [])
  })()
  // The next prompt waits for it, as for SessionStart (B10), so its context reaches that request.
  const earlier = st.pendingStart
  const settled = bridge.detach(agent, chain, 'PostModelSwitch hooks')
  st.pendingStart = earlier ? Promise.all([earlier, settled]).then(() => {}) : settled
}
