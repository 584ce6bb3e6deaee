// `maxCostUsd` (api.ts SessionOptions): the host watches the prompt's events, prices each step at the
// model of the request header in force (as `tack run --json`'s result line does, commands/run-json.ts),
// and once the spend passes the limit logs `session/limit` and cancels the turn like Ctrl-C. Nothing in
// the loop changes: the turn ends `aborted` as for any cancel, and the log says why.
import type { SessionEvent, Usage } from '@tack/session'

type CostOf = (model: string, usage: Usage) => number | undefined

export class CostMeter {
  #model: string
  #spent = 0
  readonly #costOf: CostOf

  constructor(model: string, costOf: CostOf) {
    this.#model = model
    this.#costOf = costOf
  }

  get spent(): number {
    return this.#spent
  }

  /** Takes one event; answers the spend so far. A step of a model without a price costs nothing known. */
  add(e: SessionEvent): number {
    if (e.type === 'request/header')
      this.#model = (e as SessionEvent<'request/header'>).data.header.config.model
    else if (e.type === 'request/header-delta')
      this.#model = (e as SessionEvent<'request/header-delta'>).data.config?.model ?? this.#model
    else if (e.type === 'assistant/message') {
      const usage = (e as SessionEvent<'assistant/message'>).data.usage
      if (usage) this.#spent += this.#costOf(this.#model, usage) ?? 0
    }
    return this.#spent
  }
}
