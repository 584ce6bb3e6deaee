// Issue 12 item 5: an optional ceiling on what one turn may spend, in tokens the provider reports
// (input + output of every request in the turn: each request re-sends the history, and each is
// billed). It replaces the step limit as the guard against a long autonomous run costing more than
// the user meant. See `docs/decisions/0064-no-arbitrary-end.md`.
import type { Usage } from '@tack/session'

export class TokenBudget {
  readonly #limit: number
  #used = 0

  /** `limit` 0 means no budget. */
  constructor(limit: number) {
    this.#limit = limit
  }

  get used(): number {
    return this.#used
  }

  /** Adds one request's usage (a provider that reports none adds nothing). */
  spend(usage: Usage | undefined): void {
    if (usage) this.#used += usage.inputTokens + usage.outputTokens
  }

  /** True once the turn has spent more than the budget: no further request is made. */
  exceeded(): boolean {
    return this.#limit > 0 && this.#used > this.#limit
  }

  message(): string {
    return `the turn used ${this.#used} tokens, more than its budget (plugins.agent.maxTurnTokens: ${this.#limit})`
  }
}
