// What can be read of a message tack will not parse whole (a line over `maxMessageBytes`): the plain
// top-level fields at its start. JSON-RPC 2.0 wants the request's id in the error when it can be read
// and `null` when not; a peer writing `{"jsonrpc":"2.0","id":7,"method":…,"params":{…` (as the ACP SDKs
// do) gets its request answered instead of waiting forever. Only fields before the first object or
// array value are read, so a nested `"id"` inside `params` is never mistaken for the message's.

/** The top-level keys at the start of an object text, in order, with the values that are scalars. */
export interface MessageHead {
  readonly keys: readonly string[]
  readonly id?: string | number
}

const STRING = /"(?:[^"\\]|\\.)*"/y
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const WORD = /true|false|null/y
const SPACE = /[ \t\r\n]*/y

export function messageHead(text: string): MessageHead {
  const keys: string[] = []
  let id: string | number | undefined
  let at = 0
  const skip = () => {
    SPACE.lastIndex = at
    SPACE.exec(text)
    at = SPACE.lastIndex
  }
  const match = (re: RegExp): string | undefined => {
    re.lastIndex = at
    const m = re.exec(text)
    if (!m) return undefined
    at = re.lastIndex
    return m[0]
  }
  skip()
  if (text[at] !== '{') return { keys }
  at++
  for (;;) {
    skip()
    const key = match(STRING)
    if (key === undefined) break
    skip()
    if (text[at] !== ':') break
    at++
    skip()
    const name = JSON.parse(key) as string
    keys.push(name)
    const string = match(STRING)
    const scalar = string ?? match(NUMBER) ?? match(WORD)
    // An object or array value (or the text ends first): nothing after it is read.
    if (scalar === undefined) break
    // A number cut off by the end of the text is not the whole id.
    if (string === undefined && at >= text.length) break
    if (name === 'id' && string !== undefined) id = JSON.parse(string) as string
    if (name === 'id' && string === undefined && scalar !== 'null' && scalar !== 'true' && scalar !== 'false')
      id = Number(scalar)
    skip()
    if (text[at] !== ',') break
    at++
  }
  return id === undefined ? { keys } : { keys, id }
}

/** What an unread message was, as far as its head tells. */
export type HeadKind =
  | { readonly kind: 'request'; readonly id: string | number }
  | { readonly kind: 'response'; readonly id: string | number }
  | { readonly kind: 'unknown' }

/**
 * A request has an id and a method; a response (to one of tack's own requests) an id and a result or
 * error. Anything else is unknown: ids are per direction, so answering a client's response by its id could
 * fail an unrelated request of the client's.
 */
export function headKind(head: MessageHead): HeadKind {
  if (head.id === undefined) return { kind: 'unknown' }
  if (head.keys.includes('method')) return { kind: 'request', id: head.id }
  if (head.keys.includes('result') || head.keys.includes('error')) return { kind: 'response', id: head.id }
  return { kind: 'unknown' }
}
