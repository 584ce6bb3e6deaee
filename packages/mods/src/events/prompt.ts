// `prompt.submit` on `agent/prompt-submit`, in the seam's outermost phase (65-mod-host.md requirement
// 10): `{drop}` blocks, a new `text` rewrites, `context` becomes plugin-sourced context. The first
// firing of `session.start` is awaited before the first prompt goes on.
import { type Agent, CANCELLED_BEFORE_ADMISSION, type Prompt, type PromptDecision } from '@tack/agent'
import { isObject, type Mapping, textOf, untilCancelled } from './shared.ts'

const MOD_SOURCE = { kind: 'plugin', name: 'mods' } as const

export function installPromptSubmit(m: Mapping): void {
  m.ctx.on(
    'agent/prompt-submit',
    async (agent: Agent, prompt: Prompt, outer: () => Promise<PromptDecision>): Promise<PromptDecision> => {
      const mods = m.host.sessionOf(agent)
      if (!mods) return outer()
      // Taken now: once a cancel ends the turn, `agent.turnSignal` is gone. The loop stops waiting on a
      // cancel (AL-23); a mod hook that goes on later must not start the listeners after this one (a
      // UserPromptSubmit hook would run with no turn to cut it).
      const signal = agent.turnSignal
      const next = (): Promise<PromptDecision> =>
        signal?.aborted ? Promise.resolve({ action: 'block', reason: CANCELLED_BEFORE_ADMISSION }) : outer()
      await mods.ready
      // The prompt's turn may be cancelled while a session.start hook still runs: that hook is then
      // abandoned too (Ctrl-C stops what is going on), and the cancelled turn goes on to end.
      await untilCancelled(mods.sessionStart, signal)
      if (signal?.aborted) {
        mods.cancelSessionStart()
        return next()
      }
      if (!mods.has('prompt.submit')) return next()
      const text = textOf(prompt.content)
      const e = {
        text,
        wait: false,
        origin: { kind: prompt.source.kind === 'user' ? 'sdk' : 'plugin' },
      }
      const decided = new WeakMap<object, PromptDecision>()
      const core = async (e2: Readonly<Record<string, unknown>>) => {
        const d = await next()
        if (d.action === 'block') return { drop: d.reason }
        const rewritten = typeof e2.text === 'string' && e2.text !== text ? { content: e2.text } : {}
        const out = { text: typeof e2.text === 'string' ? e2.text : text }
        decided.set(out, { ...d, ...rewritten })
        return out
      }
      const answer = await m.host.fire('prompt.submit', agent, e, core, signal)
      if (!isObject(answer)) return next()
      const own = decided.get(answer)
      if (own) return own
      if ('drop' in answer)
        return { action: 'block', reason: typeof answer.drop === 'string' ? answer.drop : 'dropped by a mod' }
      const context =
        typeof answer.context === 'string' && answer.context !== ''
          ? { additionalContext: [{ content: answer.context, source: MOD_SOURCE }] }
          : {}
      return {
        action: 'allow',
        ...(typeof answer.text === 'string' && answer.text !== text ? { content: answer.text } : {}),
        ...context,
      }
    },
    // outermost: a mod wraps everything tack does there (the seam's phases, packages/agent/src/seams.ts)
    { phase: 'outermost' },
  )
}
