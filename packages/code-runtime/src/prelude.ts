// The JavaScript evaluated in a fresh context before the program (TL-23, TL-24, TL-26): it turns the
// two raw host functions into `tools.<name>` promises, a capturing `console` and `ToolCallError`, then
// deletes the raw functions so the program reaches the host only through `tools`. Everything here is
// guest code: a program that tampers with it harms only itself, and the host still bounds every string
// it reads back (see quickjs-run.ts).
import type { CodeRunRequest } from '@tack/tools'

/** The global the wrapped program is handed to (see strip.ts). */
export const RUNNER = '__tack_run'
export const HOST_CALL = '__tack_call'
export const HOST_LOG = '__tack_log'

/** One binding as the prelude installs it: `tools` holds it at `path`; `parseJson` hands over the parsed text. */
export interface PreludeTool {
  readonly name: string
  readonly path: readonly string[]
  readonly parseJson: boolean
}

/** The request's bindings in name order, each at its declared place (else `tools.<name>`, text). */
export function preludeTools(request: Pick<CodeRunRequest, 'bindings' | 'places'>): PreludeTool[] {
  return Object.keys(request.bindings)
    .sort()
    .map((name) => {
      const place = request.places && Object.hasOwn(request.places, name) ? request.places[name] : undefined
      return { name, path: place?.path ?? [name], parseJson: place?.parseJson === true }
    })
}

export function preludeSource(toolList: readonly PreludeTool[], maxLogChars: number): string {
  return `(() => {
  'use strict'
  const hostCall = globalThis.${HOST_CALL}
  const hostLog = globalThis.${HOST_LOG}
  delete globalThis.${HOST_CALL}
  delete globalThis.${HOST_LOG}
  const stringify = JSON.stringify
  const parse = JSON.parse
  const MAX = ${maxLogChars}
  class ToolCallError extends Error {
    constructor(code, message) {
      super(message)
      this.name = 'ToolCallError'
      this.code = code
    }
  }
  const show = (value) => {
    if (typeof value === 'string') return value
    if (value instanceof Error) return value.stack ? value.name + ': ' + value.message : String(value)
    try {
      const text = stringify(value)
      return text === undefined ? String(value) : text
    } catch {
      return String(value)
    }
  }
  let used = 0
  let cut = false
  const log = (...args) => {
    if (cut) return
    let line = args.map(show).join(' ')
    if (used + line.length + 1 > MAX) {
      const note = '... [console output cut at ' + MAX + ' characters]'
      line = line.slice(0, Math.max(0, MAX - used - note.length - 1)) + note
      cut = true
    }
    used += line.length + 1
    hostLog(line)
  }
  const console = Object.freeze({ log, info: log, warn: log, error: log, debug: log })
  const tools = {}
  const has = (node, key) => Object.prototype.hasOwnProperty.call(node, key)
  // defineProperty, not assignment: a part named __proto__ is a member like any other.
  const put = (node, key, value) =>
    Object.defineProperty(node, key, { value, enumerable: true, writable: false, configurable: false })
  // A place already taken, or inside a tool, is skipped: the host's layout never asks for one.
  for (const { name, path, parseJson } of ${JSON.stringify(toolList)}) {
    let node = tools
    for (const part of path.slice(0, -1)) {
      if (!has(node, part)) put(node, part, {})
      node = node[part]
      if (typeof node !== 'object') break
    }
    const leaf = path[path.length - 1]
    if (typeof node !== 'object' || has(node, leaf)) continue
    const label = 'tools.' + path.join('.')
    put(node, leaf, async (args) => {
      let json
      try {
        json = stringify(args === undefined ? {} : args)
      } catch (error) {
        throw new ToolCallError('INVALID_ARGS', label + ': the argument cannot be sent as JSON (' + show(error) + ')')
      }
      if (json === undefined) throw new ToolCallError('INVALID_ARGS', label + ': the argument cannot be sent as JSON')
      const outcome = parse(await hostCall(name, json))
      if (!outcome.ok) throw new ToolCallError(outcome.code, outcome.message)
      if (!parseJson) return outcome.text
      try {
        return parse(outcome.text)
      } catch {
        throw new ToolCallError('INVALID_RESULT', label + ': the result was declared JSON but is not: ' + outcome.text.slice(0, 200))
      }
    })
  }
  const freeze = (node) => {
    for (const value of Object.values(node)) if (typeof value === 'object') freeze(value)
    return Object.freeze(node)
  }
  const define = (name, value) =>
    Object.defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false })
  define('tools', freeze(tools))
  define('console', console)
  define('ToolCallError', ToolCallError)
  define('${RUNNER}', async (main) => {
    const value = await main()
    if (value === undefined) return undefined
    let text
    try {
      text = stringify(value)
    } catch (error) {
      text = stringify(String(value))
    }
    if (text === undefined) return undefined
    return text.length > MAX ? text.slice(0, MAX) + '... [returned value cut at ' + MAX + ' characters]' : text
  })
})()`
}
