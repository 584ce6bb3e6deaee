// `turn.step` on `llm/stream`, once per model request (65-mod-host.md requirement 7). The request's
// session (its origin) names the agent; a rewritten `model` is served by that model's adapter
// directly (the seam's `next` takes no request), and an unknown one fails the hook.
import type { Agent, LlmFinal, LlmRequest, LlmResponse } from '@tack/agent'
import { requestOriginOf } from '@tack/session'
import { HostMappingReader } from '@tack/tools'
import type { Ev } from '../dispatch.ts'
import type { StepStream } from '../stream-dispatch.ts'
import type { TurnFacts } from './lifecycle.ts'
import { turnIdOf } from './lifecycle.ts'
import type { Mapping } from './shared.ts'
import { type ModChunk, modStreamOf, tackResponseOf } from './step-chunks.ts'

export function installTurnStep(m: Mapping, turns: WeakMap<Agent, TurnFacts>): void {
  const { ctx, host } = m
  ctx.on('llm/stream', async (request: LlmRequest, signal: AbortSignal, next: () => Promise<LlmResponse>) => {
    const session = requestOriginOf(request)
    const agent = session && m.agentOf(session)
    const mods = agent && host.sessionOf(agent)
    if (!agent || !mods) return next()
    await mods.ready
    if (!mods.has('turn.step')) return next()
    const facts = turns.get(agent)
    const turn = facts?.turn ?? 0
    const index = Math.max(0, (facts?.step ?? 1) - 1)
    const claude = new HostMappingReader('claude', ctx.tools)
    const toClaude = (name: string) => claude.name(name)
    const toTack = new Map((request.tools ?? []).map((t) => [toClaude(t.name), t.name]))
    const model = request.config.model
    const e = {
      turnId: turnIdOf(agent, turn),
      index,
      model,
      messageCount: request.messages.length,
      ...host.agentIdOf(agent),
    }
    const fromCore = new WeakSet<object>()
    let coreFinal: Promise<LlmFinal> | undefined
    const core = (e2: Ev): StepStream =>
      (async function* () {
        const wanted = String(e2.model)
        let response: LlmResponse
        if (wanted === model) response = await next()
        else {
          const adapter = ctx.modelAdapters.adapterFor(wanted)
          if (!adapter) throw new Error(`turn.step: no model adapter serves "${wanted}"`)
          response = await adapter.stream(
            { ...request, config: { ...request.config, model: wanted } },
            signal,
          )
        }
        coreFinal = response.final
        const stream = modStreamOf(response, { turnId: String(e2.turnId), index, model: wanted }, toClaude)
        while (true) {
          const r = await stream.next()
          if (r.done) return r.value
          fromCore.add(r.value)
          yield r.value
        }
      })()
    const chain: AsyncIterable<ModChunk> = mods.stream('turn.step', agent, e, core, signal)
    return tackResponseOf(
      chain,
      async () => coreFinal && (await coreFinal),
      fromCore,
      (n) => toTack.get(n) ?? n,
    )
  })
}
