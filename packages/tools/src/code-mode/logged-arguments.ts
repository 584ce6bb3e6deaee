// What a `tool/code-dispatch` event keeps of a sub-call's argument (TL-27). A program builds its
// arguments itself, so one `tools.write({ content })` can carry tens of megabytes that would all land in
// the session log. Up to `dispatchArgumentsMaxChars` of JSON the argument is logged as dispatched; past
// it the longest strings are replaced, longest first, by a marker naming their size and SHA-256 until
// the rest fits (a written file can be checked against the hash of its content), and the event names
// the size and hash of the whole dispatched text. An argument that still does not fit (a huge array of
// small values) is logged as one marker string, and so is one nested deeper than the log stores
// (`MAX_JSON_DEPTH`): a program can build that in a few characters, and its append would throw.
import { createHash } from 'node:crypto'
import { checkJson, type JsonValue } from '@tack/session'

export interface OmittedArguments {
  /** UTF-8 bytes of the dispatched JSON text. */
  readonly bytes: number
  /** SHA-256 (hex) of the dispatched JSON text. */
  readonly sha256: string
}

export interface LoggedArguments {
  readonly arguments: JsonValue
  /** Present when `arguments` is not the whole dispatched argument. */
  readonly omitted?: OmittedArguments
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** The marker a long string is logged as. */
function omittedText(text: string, what = 'string'): string {
  return `[${what} of ${Buffer.byteLength(text, 'utf8')} bytes omitted, sha256 ${sha256(text)}]`
}

export function loggedArguments(argumentsJson: string, maxChars: number): LoggedArguments {
  let parsed: JsonValue
  try {
    parsed = JSON.parse(argumentsJson) as JsonValue
  } catch {
    parsed = argumentsJson
  }
  const omitted = () => ({ bytes: Buffer.byteLength(argumentsJson, 'utf8'), sha256: sha256(argumentsJson) })
  // Checked where it will sit: `arguments` of the event's data, which the log checks from its root.
  if (!checkJson({ arguments: parsed }).ok)
    return { arguments: omittedText(argumentsJson, 'argument'), omitted: omitted() }
  if (argumentsJson.length <= maxChars) return { arguments: parsed }
  const shrunk = withoutLongStrings(parsed, argumentsJson.length, maxChars)
  if (shrunk !== undefined) return { arguments: shrunk, omitted: omitted() }
  return { arguments: omittedText(argumentsJson, 'argument'), omitted: omitted() }
}

/** A string inside the (freshly parsed, so writable) argument, and where it sits. */
interface Leaf {
  readonly holder: Record<string | number, unknown>
  readonly key: string | number
  readonly text: string
}

/**
 * `value` — this module's own parse, so no copy is made — with its longest strings replaced until its JSON
 * fits, or undefined if it cannot.
 */
function withoutLongStrings(value: JsonValue, length: number, maxChars: number): JsonValue | undefined {
  if (typeof value === 'string') return undefined
  const leaves: Leaf[] = []
  collect(value, leaves)
  leaves.sort((a, b) => b.text.length - a.text.length)
  let estimate = length
  for (const leaf of leaves) {
    if (estimate <= maxChars) break
    const marker = omittedText(leaf.text)
    // JSON.stringify's length of each, escapes included.
    estimate -= JSON.stringify(leaf.text).length - JSON.stringify(marker).length
    leaf.holder[leaf.key] = marker
  }
  return JSON.stringify(value).length <= maxChars ? value : undefined
}

function collect(value: unknown, leaves: Leaf[]): void {
  if (value === null || typeof value !== 'object') return
  const holder = value as Record<string | number, unknown>
  for (const [key, item] of Object.entries(holder)) {
    if (typeof item === 'string') leaves.push({ holder, key, text: item })
    else collect(item, leaves)
  }
}
