// Issue 12 item 5: what ends a turn that makes no progress, now that the step limit is far away. A
// model that makes the same tool call (same tool, same arguments) `limit` times in a row is stuck:
// the same input gives it the same result, so nothing it does next will differ. Calls are compared
// across steps and within one message; any other call in between resets the count.
// See `docs/decisions/0064-no-arbitrary-end.md`.
import type { ToolCallBlock } from './parallel-calls.ts'

export interface RepeatedCall {
  readonly name: string
  readonly times: number
}

export class LoopDetector {
  readonly #limit: number
  #last: string | undefined
  #times = 0

  /** `limit` 0 turns the detector off. */
  constructor(limit: number) {
    this.#limit = limit
  }

  /** Feeds one message's calls in order; returns the repeated call once it reaches the limit. */
  observe(calls: readonly Pick<ToolCallBlock, 'name' | 'arguments'>[]): RepeatedCall | undefined {
    if (this.#limit === 0) return undefined
    let tripped: RepeatedCall | undefined
    for (const call of calls) {
      const key = `${call.name}\u0000${canonicalArguments(call.arguments)}`
      this.#times = key === this.#last ? this.#times + 1 : 1
      this.#last = key
      if (this.#times >= this.#limit) tripped ??= { name: call.name, times: this.#times }
    }
    return tripped
  }
}

/** The message for the turn's end reason, the `--json` result and stderr: what happened, and the knob. */
export function loopMessage(repeat: RepeatedCall): string {
  return `the model called "${repeat.name}" ${repeat.times} times in a row with the same arguments (plugins.agent.maxIdenticalCalls: ${repeat.times})`
}

/**
 * The arguments as a comparable text: JSON with sorted keys, so `{"a":1,"b":2}` and `{"b":2, "a":1}`
 * count as the same call. Text that is not JSON is compared as given.
 */
export function canonicalArguments(text: string): string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text
  }
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== 'object') return value
  const sorted: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key])
  return sorted
}
