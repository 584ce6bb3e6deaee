// UserPromptSubmit (40-hooks.md B3, B5, B10) on `agent/prompt-submit` (waterfall). First, the prompt
// waits for a pending SessionStart/SubagentStart chain (bounded by the hooks' timeouts, cut by a
// cancel of the turn or the agent's disposal). Top-level prompts then run the hooks: `continue: false` or a deny/block/exit 2
// blocks the prompt with the reason (shown to the user, not the model); otherwise context (plain stdout
// and additionalContext) folds onto whatever the rest of the chain decides.
import type { Agent, Prompt, PromptDecision } from '@tack/agent'
import type { ClaudeBridge } from '../bridge.ts'
import { contentText } from '../payload.ts'
import { contextItems, withContext } from './context.ts'

export async function onPromptSubmit(
  bridge: ClaudeBridge,
  agent: Agent,
  prompt: Prompt,
  next: () => Promise<PromptDecision>,
): Promise<PromptDecision> {
  const st = bridge.state(agent)
  const signal = st.turnSignal(agent)
  if (st.pendingStart) {
    const pending = st.pendingStart
    st.pendingStart = undefined
    if (bridge.settings.awaitSessionStart) await untilSettledOrAborted(pending, signal)
  }
  // Claude Code raises UserPromptSubmit for the user's prompts, not for a subagent's task.
  if (agent.parent) return next()
  bridge.promptIds.begin(agent)
  const outcome = await bridge.runPoint({
    point: 'UserPromptSubmit',
    agent,
    fields: { prompt: contentText(prompt.content) },
    signal,
  })
  if (outcome.stop) {
    return { action: 'block', reason: outcome.stop.reason || 'A UserPromptSubmit hook stopped processing.' }
  }
  if (outcome.decision === 'deny') {
    return { action: 'block', reason: outcome.reason || 'A UserPromptSubmit hook blocked the prompt.' }
  }
  return withContext(await next(), contextItems('UserPromptSubmit', outcome.contexts, outcome.plainStdout))
}

function untilSettledOrAborted(p: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
    void p.then(done, done)
  })
}
