// One event through a session's chain of mod hooks above tack's core (65-mod-host.md requirements
// 6 and 8): `($, e, next)` middleware over a frozen `e`; answering without `next`; `next` re-running
// everything beneath; pinned keys restored or refused; fail-open skipping with `.catch` as the only
// fail-closed path, whose `next` is replay-safe.
import { deepFreeze } from '@tack/kernel'
import { isDeepStrictEqual } from 'node:util'
import { BudgetClock, BudgetExpired } from './budget.ts'
import { currentDispatch } from './dispatch-context.ts'
import type { EventSpec } from './event-specs.ts'
import { pinnedKeys } from './event-specs.ts'
import { HookFault, type ModFault } from './faults.ts'
import { matches } from './matcher.ts'
import { selectEvents } from './patterns.ts'
import type { HookEntry } from './registration.ts'

/** A hook bound to the `$` of its mod's instance in one session. */
export interface BoundHook {
  readonly entry: HookEntry
  readonly dollar: object
}

export type Ev = Readonly<Record<string, unknown>>
export type Below = (e: Ev) => Promise<unknown>

export interface DispatchEnv {
  readonly event: string
  readonly spec: EventSpec
  readonly budgetMs: number
  readonly catchBudgetMs: number
  /** False for a wall-clock bound (`session.end`). */
  readonly pausable: boolean
  /** Aborts every hook's `next.signal` (a cancelled turn). */
  readonly signal?: AbortSignal
  fault(fault: ModFault): void
}

export const ENGINE_ORIGIN = Object.freeze({ plugin: 'engine', tier: 'core' })

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** `e2` checked against `e`'s pinned keys: a missing one restored, a changed one a `pinned` fault. */
export function applyPins(spec: EventSpec, e: Ev, e2: unknown): Ev {
  if (typeof e2 !== 'object' || e2 === null || Array.isArray(e2))
    throw new HookFault('shape', 'next() was given a non-object event')
  const out: Record<string, unknown> = { ...(e2 as Ev) }
  for (const key of pinnedKeys(spec, e)) {
    if (!(key in out)) {
      if (key in e) out[key] = e[key]
      continue
    }
    if (!isDeepStrictEqual(out[key], e[key]))
      throw new HookFault(
        'pinned',
        `a changed ${key} (the envelope is the engine's; a rewrite keeps ${pinnedKeys(spec, e).join(', ')})`,
      )
  }
  return deepFreeze(out)
}

function nextExtras(env: DispatchEnv, clock: BudgetClock) {
  return {
    signal: clock.controller.signal,
    event: env.event,
    origin: ENGINE_ORIGIN,
    budget: Object.freeze({
      ms: clock.ms,
      get remainingMs() {
        return clock.remainingMs
      },
    }),
    is: (pattern: string, _e: unknown) => selectEvents(pattern).includes(env.event),
    trace: Object.freeze([]),
  }
}

interface CallState {
  called: boolean
  /** The last next() run that settled with a result (the one that "stands"). */
  ok?: { value: unknown }
  /** The next() run still pending, if any: a cancelled hook hands it on rather than running beneath twice. */
  pending?: Promise<unknown>
}

/** The dispatch's cancel (a cancelled turn): ends the wait for a hook that ignores `next.signal`. */
class Cancelled extends Error {
  override readonly name = 'Cancelled'
}

/** Rejects with `Cancelled` once `signal` aborts; never settles without one. */
function whenCancelled(signal: AbortSignal | undefined): { promise: Promise<never>; stop(): void } {
  if (!signal) return { promise: new Promise<never>(() => {}), stop() {} }
  let onAbort = () => {}
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Cancelled('the dispatch was cancelled'))
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  promise.catch(() => {})
  return { promise, stop: () => signal.removeEventListener('abort', onAbort) }
}

/**
 * `hooks` stacked above `core`, first outermost: each layer runs its hook through `invoke` (with the layer
 * beneath), or passes `e` straight down when the hook's matcher does not match.
 */
export function stack<L extends (e: Ev) => unknown>(
  hooks: readonly BoundHook[],
  core: L,
  invoke: (hook: BoundHook, e: Ev, below: L) => ReturnType<L>,
): L {
  const layer = (index: number): L => {
    if (index >= hooks.length) return core
    const below = layer(index + 1)
    const hook = hooks[index]
    return ((e: Ev) => (matches(hook.entry.matcher, e) ? invoke(hook, e, below) : below(e))) as L
  }
  return layer(0)
}

/** Runs `hooks` above `core`, skipping hooks whose matcher does not match. */
export function runChain(hooks: readonly BoundHook[], env: DispatchEnv, core: Below): Below {
  return stack(hooks, core, (hook, e, below) => invokeHook(hook, env, e, below))
}

async function invokeHook(bound: BoundHook, env: DispatchEnv, e: Ev, below: Below): Promise<unknown> {
  const { entry, dollar } = bound
  const clock = new BudgetClock(env.budgetMs, env.pausable)
  const onCancel = () => clock.controller.abort(env.signal?.reason)
  env.signal?.addEventListener('abort', onCancel, { once: true })
  const state: CallState = { called: false }
  let pinFault: HookFault | undefined
  // What beneath threw (tack's own failure): passed on as it is, never mistaken for the hook's.
  let belowError: { error: unknown } | undefined
  let abandoned = false
  const next = Object.assign(
    async (e2: unknown = e) => {
      // A hook that ran out of budget (or already settled) runs nothing more: its late next() would
      // run a tool or a request nobody is waiting for.
      if (abandoned) throw new Error(`${env.event}: next() after the hook was settled or abandoned`)
      let rewritten: Ev
      try {
        rewritten = applyPins(env.spec, e, e2)
      } catch (error) {
        pinFault = error as HookFault
        throw error
      }
      state.called = true
      clock.pause()
      const run = below(rewritten)
      state.pending = run
      try {
        const value = await run
        state.ok = { value }
        return value
      } catch (error) {
        // a host refusal (a HookFault) is the calling hook's failure; anything else is tack's own
        if (!(error instanceof HookFault)) belowError = { error }
        throw error
      } finally {
        if (state.pending === run) state.pending = undefined
        clock.resume()
      }
    },
    nextExtras(env, clock),
  )
  const cancelled = whenCancelled(env.signal)
  try {
    const result = await Promise.race([
      currentDispatch.run({ clock }, () => Promise.resolve().then(() => entry.hook(dollar, e, next))),
      clock.expired,
      cancelled.promise,
    ])
    if (pinFault) throw pinFault
    const problem = env.spec.check(result)
    if (problem) throw new HookFault('shape', problem)
    return result
  } catch (error) {
    if (belowError && error === belowError.error) throw error
    // The user's cancel is not the mod's fault: the hook is abandoned without a fault, and what is beneath
    // (itself cancelled by the same signal) answers — the run already under way, else a fresh one.
    if (error instanceof Cancelled) {
      if (state.pending) return await state.pending
      if (state.ok) return state.ok.value
      return await below(e)
    }
    const fault =
      pinFault ??
      (error instanceof HookFault
        ? error
        : error instanceof BudgetExpired
          ? new HookFault('timeout', error.message)
          : new HookFault('throw', errorMessage(error)))
    return await failOpen(bound, env, e, below, state, fault)
  } finally {
    abandoned = true
    clock.stop()
    cancelled.stop()
    env.signal?.removeEventListener('abort', onCancel)
  }
}

async function failOpen(
  bound: BoundHook,
  env: DispatchEnv,
  e: Ev,
  below: Below,
  state: CallState,
  fault: HookFault,
): Promise<unknown> {
  const { entry } = bound
  if (entry.catch && (fault.kind === 'throw' || fault.kind === 'timeout')) {
    const caught = await runCatch(bound, env, e, below, state, fault)
    if (caught.ok) return caught.value
  }
  env.fault({ mod: entry.mod, event: env.event, kind: fault.kind, message: fault.message })
  // Skipped: its last next() result stands, or the chain beneath runs in its place with the original e.
  if (state.ok) return state.ok.value
  return await below(e)
}

async function runCatch(
  { entry, dollar }: BoundHook,
  env: DispatchEnv,
  e: Ev,
  below: Below,
  state: CallState,
  fault: HookFault,
): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const clock = new BudgetClock(env.catchBudgetMs, env.pausable)
  const budget = Object.freeze({ ms: env.budgetMs })
  // Replay-safe: once the hook has run what is beneath, the handler's next() hands back that result.
  const next = Object.assign(
    async (e2: unknown = e) => {
      clock.pause()
      try {
        if (state.ok) return state.ok.value
        return await below(applyPins(env.spec, e, e2))
      } finally {
        clock.resume()
      }
    },
    nextExtras(env, clock),
    {
      error: Object.freeze({ kind: fault.kind, message: fault.message, budget }),
      called: state.called,
    },
  )
  try {
    const value = await Promise.race([
      currentDispatch.run({ clock }, () => Promise.resolve().then(() => entry.catch?.(dollar, e, next))),
      clock.expired,
    ])
    return env.spec.check(value) ? { ok: false } : { ok: true, value }
  } catch {
    return { ok: false }
  } finally {
    clock.stop()
  }
}
