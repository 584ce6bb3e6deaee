// Which hook dispatch a `$` call belongs to, so the call can pause that hook's budget clock
// (65-mod-host.md requirement 9) without threading a clock through every `$` method.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { BudgetClock } from './budget.ts'

export const currentDispatch = new AsyncLocalStorage<{ readonly clock: BudgetClock }>()

/** Runs `work` with the calling hook's budget clock paused (`$` time is not the hook's own). */
export async function withClockPaused<T>(work: () => Promise<T>): Promise<T> {
  const clock = currentDispatch.getStore()?.clock
  clock?.pause()
  try {
    return await work()
  } finally {
    clock?.resume()
  }
}
