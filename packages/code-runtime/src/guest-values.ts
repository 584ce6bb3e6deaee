// Reading values out of the guest without letting the guest choose how many bytes the host copies
// (TL-30): a string's length is read before the string, and one past the bound is cut inside the
// isolate, so `throw new Error('E'.repeat(2e7))` costs the host — and the session log, where a failed
// run's message ends up — at most the bound plus a note naming the full length.
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core'

/** A thrown value as the failure message shows it. */
export interface Thrown {
  readonly name: string
  readonly message: string
  /** The guest threw `null` or `undefined` — what QuickJS leaves when it cannot even allocate its error. */
  readonly empty: boolean
}

/** The `length` property of a guest value, NaN when it is not a number. */
export function lengthOf(context: QuickJSContext, handle: QuickJSHandle): number {
  const length = context.getProp(handle, 'length')
  try {
    return context.typeof(length) === 'number' ? context.getNumber(length) : Number.NaN
  } finally {
    length.dispose()
  }
}

/** A text cut at `max` characters with a note naming its full length. */
export function cutNote(head: string, length: number, max: number, what: string): string {
  return `${head}... [${what} cut at ${max} characters of ${length}]`
}

/**
 * A guest string, copied out whole when it has at most `max` characters; a longer one is sliced to
 * `max` in the guest first and carries a note with its full length. The slice runs guest code, which a
 * program may have replaced: its answer is checked again, and dropped if it is not a short string.
 */
export function boundedString(
  context: QuickJSContext,
  handle: QuickJSHandle,
  max: number,
  what: string,
): string {
  const length = lengthOf(context, handle)
  if (length <= max) return context.getString(handle)
  return cutNote(guestSlice(context, handle, max), length, max, what)
}

function guestSlice(context: QuickJSContext, handle: QuickJSHandle, max: number): string {
  const slice = context.getProp(handle, 'slice')
  try {
    const start = context.newNumber(0)
    const end = context.newNumber(max)
    const result = context.callFunction(slice, handle, start, end)
    start.dispose()
    end.dispose()
    if (result.error) {
      result.error.dispose()
      return ''
    }
    const head = result.value
    try {
      const fits = context.typeof(head) === 'string' && lengthOf(context, head) <= max
      return fits ? context.getString(head) : ''
    } finally {
      head.dispose()
    }
  } finally {
    slice.dispose()
  }
}

/** Describes a thrown value, every string in it bounded by `max` characters. */
export function describeThrown(context: QuickJSContext, handle: QuickJSHandle, max: number): Thrown {
  const type = context.typeof(handle)
  if (type === 'string')
    return {
      name: '',
      message: `the program threw ${boundedString(context, handle, max, 'thrown string')}`,
      empty: false,
    }
  if (type === 'object' || type === 'function') {
    const message = stringProp(context, handle, 'message', max)
    if (message !== undefined)
      return { name: stringProp(context, handle, 'name', max) ?? '', message, empty: false }
  }
  // null, undefined, a number, a boolean, or an object without a string message: shown as JSON, cut.
  const json = guestJson(context, handle, max)
  return { name: '', message: `the program threw ${json}`, empty: json === 'null' || json === 'undefined' }
}

function stringProp(
  context: QuickJSContext,
  handle: QuickJSHandle,
  key: string,
  max: number,
): string | undefined {
  const value = context.getProp(handle, key)
  try {
    return context.typeof(value) === 'string' ? boundedString(context, value, max, `error ${key}`) : undefined
  } finally {
    value.dispose()
  }
}

/** The guest's own JSON of a value (its String() when that fails), cut at `max` characters. */
function guestJson(context: QuickJSContext, handle: QuickJSHandle, max: number): string {
  const type = context.typeof(handle)
  if (type === 'undefined') return 'undefined'
  const json = context.getProp(context.global, 'JSON')
  const stringify = context.getProp(json, 'stringify')
  try {
    const result = context.callFunction(stringify, json, handle)
    if (result.error) {
      result.error.dispose()
      return 'a value that cannot be shown'
    }
    const text = result.value
    try {
      return context.typeof(text) === 'string'
        ? boundedString(context, text, max, 'thrown value')
        : 'a value that cannot be shown'
    } finally {
      text.dispose()
    }
  } finally {
    stringify.dispose()
    json.dispose()
  }
}
