// The streaming form of a chain, for `turn.step` (65-mod-host.md requirement 7): a hook is an
// `async function*`; `next(e)` returns a stream (an async generator with `.result`) so that
// `const r = yield* next(e)` forwards every chunk and evaluates to the step result. Yielding without
// `next` answers the request. The budget counts the hook's own time only: the clock pauses while the
// stream beneath is pulled and while the consumer has not asked for the next chunk. A failing hook is
// skipped as in `dispatch.ts`: before any output, what is beneath runs in its place; after calling
// `next`, the rest of that stream is forwarded and its result stands.
import { BudgetClock, BudgetExpired } from './budget.ts'
import { currentDispatch } from './dispatch-context.ts'
import { applyPins, type BoundHook, type DispatchEnv, type Ev, stack } from './dispatch.ts'
import type { ModChunk, StepResult } from './events/step-chunks.ts'
import { HookFault } from './faults.ts'

export type StepStream = AsyncGenerator<ModChunk, StepResult>
export type StreamLayer = (e: Ev) => StepStream
export type HookStream = StepStream & { readonly result: Promise<StepResult> }

export function runStreamChain(
  hooks: readonly BoundHook[],
  env: DispatchEnv,
  core: StreamLayer,
): StreamLayer {
  return stack(hooks, core, (hook, e, below) => invokeStreamHook(hook, env, e, below))
}

const isAsyncGenerator = (v: unknown): v is AsyncGenerator<unknown, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as AsyncGenerator).next === 'function' &&
  typeof (v as AsyncGenerator)[Symbol.asyncIterator] === 'function'

/** `inner` with the hook's clock paused while it is pulled, plus `.result`. */
function pausedStream(
  inner: StepStream,
  clock: BudgetClock,
  onBelowError: (error: unknown) => void,
): HookStream {
  const { promise: result, resolve: settle, reject: fail } = Promise.withResolvers<StepResult>()
  result.catch(() => {})
  async function* run(): StepStream {
    try {
      while (true) {
        clock.pause()
        let r: IteratorResult<ModChunk, StepResult>
        try {
          r = await inner.next()
        } catch (error) {
          onBelowError(error)
          throw error
        } finally {
          clock.resume()
        }
        if (r.done) {
          settle(r.value)
          return r.value
        }
        yield r.value
      }
    } catch (error) {
      fail(error)
      throw error
    }
  }
  return Object.assign(run(), { result })
}

/** The answer a hook's own chunks make (it yielded without calling `next`). */
function answerOf(e: Ev, chunks: readonly ModChunk[]): StepResult {
  let answer = ''
  let stopReason: StepResult['stopReason'] = null
  const toolUses: { name: string; input: unknown }[] = []
  for (const c of chunks) {
    if (c.type === 'text') answer += c.text
    else if (c.type === 'tool') toolUses.push({ name: c.name, input: c.input })
    else if (c.type === 'stop') stopReason = c.reason
  }
  return { turnId: String(e.turnId), index: Number(e.index), answer, toolUses, stopReason, usage: null }
}

const isStepResult = (v: unknown): v is StepResult =>
  typeof v === 'object' && v !== null && 'turnId' in v && 'index' in v

async function* invokeStreamHook(bound: BoundHook, env: DispatchEnv, e: Ev, below: StreamLayer): StepStream {
  const { entry, dollar } = bound
  const clock = new BudgetClock(env.budgetMs, true)
  const onCancel = () => clock.controller.abort(env.signal?.reason)
  env.signal?.addEventListener('abort', onCancel, { once: true })
  let last: HookStream | undefined
  // What beneath threw (the model's own failure): passed on as it is, never mistaken for the hook's.
  let belowError: { error: unknown } | undefined
  const yielded: ModChunk[] = []
  const next = Object.assign(
    (e2: unknown = e) => {
      last = pausedStream(below(applyPins(env.spec, e, e2)), clock, (error) => {
        belowError = { error }
      })
      return last
    },
    {
      signal: clock.controller.signal,
      event: env.event,
      origin: Object.freeze({ plugin: 'engine', tier: 'core' }),
      budget: Object.freeze({ ms: clock.ms }),
      is: (pattern: string) => pattern === env.event || pattern === 'turn.*' || pattern === '*',
      trace: Object.freeze([]),
    },
  )
  let gen: unknown
  try {
    gen = currentDispatch.run({ clock }, () => entry.hook(dollar, e, next))
  } catch (error) {
    gen = error instanceof Error ? error : new Error(String(error))
  }
  let fault: HookFault | undefined
  if (gen instanceof Error) fault = gen instanceof HookFault ? gen : new HookFault('throw', gen.message)
  else if (!isAsyncGenerator(gen))
    fault = new HookFault('shape', 'returned no stream (a turn.step hook must be an async function*)')
  if (fault || !isAsyncGenerator(gen)) {
    clock.stop()
    env.fault({
      mod: entry.mod,
      event: env.event,
      kind: fault?.kind ?? 'shape',
      message: fault?.message ?? '',
    })
    return yield* below(e)
  }
  let finished = false
  try {
    while (true) {
      const r = await Promise.race([currentDispatch.run({ clock }, () => gen.next()), clock.expired])
      if (r.done) {
        finished = true
        if (isStepResult(r.value)) return r.value
        if (last) return await last.result
        return answerOf(e, yielded)
      }
      yielded.push(r.value as ModChunk)
      clock.pause()
      try {
        yield r.value as ModChunk
      } finally {
        clock.resume()
      }
    }
  } catch (error) {
    if (belowError && error === belowError.error) throw error
    const kind =
      error instanceof HookFault ? error.kind : error instanceof BudgetExpired ? 'timeout' : 'throw'
    env.fault({ mod: entry.mod, event: env.event, kind, message: (error as Error)?.message ?? String(error) })
    if (last) return yield* last
    if (yielded.length === 0) return yield* below(e)
    return answerOf(e, yielded)
  } finally {
    clock.stop()
    env.signal?.removeEventListener('abort', onCancel)
    if (!finished) void gen.return(undefined as never)?.catch?.(() => {})
  }
}
