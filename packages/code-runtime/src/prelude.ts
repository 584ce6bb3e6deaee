// The JavaScript evaluated in a fresh context before the program (TL-23, TL-24, TL-26): it turns the
// two raw host functions into `tools.<name>` promises, a capturing `console` and `ToolCallError`, then
// deletes the raw functions so the program reaches the host only through `tools`. Everything here is
// guest code: a program that tampers with it harms only itself, and the host still bounds every string
// it reads back (see quickjs-run.ts).

/** The global the wrapped program is handed to (see strip.ts). */
export const RUNNER = '__tack_run'
export const HOST_CALL = '__tack_call'
export const HOST_LOG = '__tack_log'

export function preludeSource(toolNames: readonly string[], maxLogChars: number): string {
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
  for (const name of ${JSON.stringify(toolNames)}) {
    tools[name] = async (args) => {
      let json
      try {
        json = stringify(args === undefined ? {} : args)
      } catch (error) {
        throw new ToolCallError('INVALID_ARGS', 'tools.' + name + ': the argument cannot be sent as JSON (' + show(error) + ')')
      }
      if (json === undefined) throw new ToolCallError('INVALID_ARGS', 'tools.' + name + ': the argument cannot be sent as JSON')
      const outcome = parse(await hostCall(name, json))
      if (outcome.ok) return outcome.text
      throw new ToolCallError(outcome.code, outcome.message)
    }
  }
  const define = (name, value) =>
    Object.defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false })
  define('tools', Object.freeze(tools))
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
