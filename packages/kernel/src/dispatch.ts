// The full waterfall: listeners in order, `(…args, next)`, `next(…replacement)` where the seam
// documents it, a failing listener turned into a `SeamError` naming the seam and its plugin. Beyond the
// value, it reports what a pipeline may need to log (the tool seams do):
//  - `origin`: the plugin whose listener produced the final value (undefined: the built-in inner), so
//    an answer (TL-31) or an argument rewrite (TL-32) is logged with the plugin's name;
//  - `replacedBy`: the last plugin that passed replaced arguments to `next`;
//  - `check`: each listener's return value is checked, so a malformed decision is attributed to the
//    plugin that returned it rather than failing later, anonymously.
// Both helpers are keyed on a waterfall seam's name: the arguments, the inner handler's parameters and
// the result come from the seam's declaration.
import type { Context } from 'cordis'
import { SeamError, type SeamResult, type WaterfallArgs, type WaterfallSeam } from './seam.ts'
import { listenersOf } from './seam-registry.ts'

export interface Dispatched<R> {
  readonly value: R
  /** Plugin whose listener returned `value` (not merely passed it through); undefined when `inner` did. */
  readonly origin?: string
  /** Whether `inner` ran at least once. */
  readonly innerRan: boolean
}

export interface DispatchOptions {
  /** Returns a description of what is wrong with a listener's return value, or undefined when it is fine. */
  readonly check?: (value: unknown) => string | undefined
  /** Lets a listener call `next` more than once (retries around a tool body). */
  readonly repeatableNext?: boolean
}

/**
 * The built-in behaviour under every listener. It gets the arguments as the last `next(…replacement)`
 * left them — a listener may pass anything, so where a seam allows replacement the inner checks them —
 * and the plugin that replaced them.
 */
export type WaterfallInner<K extends WaterfallSeam> = (
  args: Readonly<WaterfallArgs<K>>,
  replacedBy: string | undefined,
) => SeamResult<K> | Promise<SeamResult<K>>

type Frame<R> = { value: R; origin?: string }

export async function dispatch<K extends WaterfallSeam>(
  ctx: Context,
  name: K,
  args: Readonly<WaterfallArgs<K>>,
  inner: WaterfallInner<K>,
  options: DispatchOptions = {},
): Promise<Dispatched<SeamResult<K>>> {
  type R = SeamResult<K>
  const listeners = listenersOf(ctx, name)
  // Errors from `inner` (or already attributed) cross listener frames unchanged.
  const passthrough = new WeakSet<object>()
  let innerRan = false

  const run = async (
    index: number,
    current: readonly unknown[],
    replacedBy: string | undefined,
  ): Promise<Frame<R>> => {
    const listener = listeners[index]
    if (!listener) {
      innerRan = true
      try {
        // `current` is `args` or a listener's replacement: the declared tuple as far as types go.
        return { value: await inner(current as Readonly<WaterfallArgs<K>>, replacedBy) }
      } catch (error) {
        if (error !== null && typeof error === 'object') passthrough.add(error)
        throw error
      }
    }
    let calls = 0
    let below: Frame<R> | undefined
    const next = async (...replacement: unknown[]): Promise<R> => {
      calls++
      if (calls > 1 && !options.repeatableNext) throw new Error(`${name}: next() called more than once`)
      const replaced = replacement.length > 0
      below = await run(index + 1, replaced ? replacement : current, replaced ? listener.plugin : replacedBy)
      return below.value
    }
    let value: R
    try {
      value = await listener.callback(...current, next)
    } catch (error) {
      if (
        error instanceof SeamError ||
        (error !== null && typeof error === 'object' && passthrough.has(error))
      ) {
        throw error
      }
      throw attributed(name, listener.plugin, error, passthrough)
    }
    if (below && value === below.value) return below
    const problem = options.check?.(value)
    if (problem !== undefined) {
      throw attributed(
        name,
        listener.plugin,
        new TypeError(`returned an invalid value: ${problem}`),
        passthrough,
      )
    }
    return { value, origin: listener.plugin }
  }

  const frame = await run(0, args, undefined)
  return { value: frame.value, origin: frame.origin, innerRan }
}

function attributed(seam: string, plugin: string, cause: unknown, passthrough: WeakSet<object>): SeamError {
  const error = new SeamError(seam, plugin, cause)
  passthrough.add(error)
  return error
}

/**
 * Runs a waterfall and returns its value: each listener gets `(...args, next)`. Calling `next()`
 * delegates with the same arguments; `next(...replacement)` delegates with replaced arguments (only
 * where a seam documents it). Returning without calling `next` answers for everything downstream,
 * including `inner`, which gets the (possibly replaced) arguments spread. A listener that throws or
 * rejects surfaces as a `SeamError` naming the seam and its plugin; an error of `inner` passes through
 * unchanged.
 */
export async function waterfall<K extends WaterfallSeam>(
  ctx: Context,
  name: K,
  args: Readonly<WaterfallArgs<K>>,
  inner: (...args: WaterfallArgs<K>) => SeamResult<K> | Promise<SeamResult<K>>,
): Promise<SeamResult<K>> {
  const done = await dispatch(ctx, name, args, (current) => inner(...(current as WaterfallArgs<K>)))
  return done.value
}
