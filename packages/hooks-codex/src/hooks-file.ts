// Parses one Codex `hooks.json` (protocols.md §B.2) into handler entries, each with its position
// (event, group, handler index — the parts of its trust key) and, when it can never run, why.
//
// A file whose shape is wrong (not JSON, a handler without a string `command`, a timeout that is not a
// whole number of seconds…) is rejected as a whole, as Codex's own deserialiser rejects it; the bridge
// then skips the file with a warning naming path and problem. Entries that are well-formed but not
// runnable here stay in the list with a `skip` reason, so `tack hooks list` can show them:
// events tack does not fire, `prompt`/`agent` handlers, `async: true`, and groups whose matcher is
// an invalid regex (Codex skips the whole group).
import { describeJsonError } from '@tack/hook-protocol'
import { type CodexPoint, isCodexPoint, NOT_FIRED_CODEX_EVENTS, usesMatcher } from './events.ts'
import { codexMatcherProblem } from './matcher.ts'

/** Codex's default handler timeout, in seconds (discovery.rs: `timeout_sec.unwrap_or(600).max(1)`). */
export const CODEX_DEFAULT_TIMEOUT_SEC = 600

/** A handler as the bridge keeps it: normalised, with the default timeout applied. */
export interface CodexHandler {
  /** `command`, or the skipped type (`prompt`, `agent`, …). */
  readonly type: string
  /** The shell command (empty for non-command types). */
  readonly command: string
  /** Seconds, at least 1. */
  readonly timeoutSec: number
  readonly async: boolean
  readonly statusMessage?: string
}

export interface CodexHookEntry {
  /** Absolute path of the hooks.json it came from. */
  readonly source: string
  /** The event key as written (PascalCase). */
  readonly event: string
  /** Index of the matcher group within the event's list. */
  readonly group: number
  /** Index of the handler within its group. */
  readonly index: number
  readonly matcher?: string
  readonly handler: CodexHandler
  /** Set when this entry can never run here, with the reason. */
  readonly skip?: string
}

export interface ParsedHooksFile {
  readonly entries: readonly CodexHookEntry[]
  /** One line per skipped event, group or handler (the bridge logs them). */
  readonly warnings: readonly string[]
}

/** The file is not a Codex hooks file; `message` names the offending key path. */
export class HooksFileError extends Error {
  override readonly name = 'HooksFileError'
}

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)
const isWholeSeconds = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0

function fail(path: string, expected: string, got: unknown): never {
  throw new HooksFileError(`${path}: expected ${expected} (got ${JSON.stringify(got) ?? String(got)})`)
}

/** Reads a handler object; throws on a shape Codex would reject. */
function readHandler(raw: unknown, path: string): CodexHandler {
  if (!isObject(raw)) fail(path, 'a handler object', raw)
  const type = raw.type
  if (typeof type !== 'string') fail(`${path}.type`, 'a string', type)
  const timeoutRaw = raw.timeout ?? raw.timeoutSec
  if (timeoutRaw !== undefined && timeoutRaw !== null && !isWholeSeconds(timeoutRaw)) {
    fail(
      `${path}.${raw.timeout !== undefined ? 'timeout' : 'timeoutSec'}`,
      'a whole number of seconds',
      timeoutRaw,
    )
  }
  const timeoutSec = Math.max(1, typeof timeoutRaw === 'number' ? timeoutRaw : CODEX_DEFAULT_TIMEOUT_SEC)
  if (raw.async !== undefined && raw.async !== null && typeof raw.async !== 'boolean') {
    fail(`${path}.async`, 'true or false', raw.async)
  }
  if (
    raw.statusMessage !== undefined &&
    raw.statusMessage !== null &&
    typeof raw.statusMessage !== 'string'
  ) {
    fail(`${path}.statusMessage`, 'a string', raw.statusMessage)
  }
  let command = ''
  if (type === 'command') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      fail(`${path}.command`, 'a non-empty string', raw.command)
    command = raw.command
  }
  return {
    type,
    command,
    timeoutSec,
    async: raw.async === true,
    ...(typeof raw.statusMessage === 'string' ? { statusMessage: raw.statusMessage } : {}),
  }
}

/** Why a well-formed handler cannot run here, if it cannot. */
function handlerSkip(h: CodexHandler): string | undefined {
  if (h.type !== 'command') return `"${h.type}" handlers are not run (only "command" hooks are)`
  if (h.async) return 'async hooks are not run (only synchronous command hooks are)'
  return undefined
}

/** Parses the text of the hooks file at `source` (an absolute path); throws `HooksFileError`. */
export function parseHooksFile(source: string, text: string): ParsedHooksFile {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    throw new HooksFileError(describeJsonError(text, error))
  }
  if (!isObject(root)) fail('(root)', 'an object', root)
  if (root.hooks === undefined || root.hooks === null) return { entries: [], warnings: [] }
  if (!isObject(root.hooks)) fail('hooks', 'an object of event names', root.hooks)

  const entries: CodexHookEntry[] = []
  const warnings: string[] = []
  for (const [event, groups] of Object.entries(root.hooks)) {
    const eventPath = `hooks.${event}`
    if (!Array.isArray(groups)) fail(eventPath, 'a list of matcher groups', groups)
    const point: CodexPoint | undefined = isCodexPoint(event) ? event : undefined
    const eventSkip = point
      ? undefined
      : Object.hasOwn(NOT_FIRED_CODEX_EVENTS, event)
        ? `not fired by tack: ${NOT_FIRED_CODEX_EVENTS[event]}`
        : `${event} is not a Codex hook event`
    if (eventSkip && groups.length > 0) warnings.push(`${source}: ${eventPath} dropped: ${eventSkip}`)
    groups.forEach((group, g) => {
      const groupPath = `${eventPath}[${g}]`
      if (!isObject(group)) fail(groupPath, 'a matcher group object', group)
      const matcher = group.matcher
      if (matcher !== undefined && matcher !== null && typeof matcher !== 'string')
        fail(`${groupPath}.matcher`, 'a string', matcher)
      if (!Array.isArray(group.hooks)) fail(`${groupPath}.hooks`, 'a list of handlers', group.hooks)
      // Codex validates a matcher only where the event uses one (§B.4).
      const matcherSkip =
        point && usesMatcher(point) && typeof matcher === 'string' ? codexMatcherProblem(matcher) : undefined
      if (matcherSkip && !eventSkip) warnings.push(`${source}: ${groupPath} skipped: ${matcherSkip}`)
      group.hooks.forEach((raw, h) => {
        const handler = readHandler(raw, `${groupPath}.hooks[${h}]`)
        const ownSkip = handlerSkip(handler)
        if (ownSkip && !eventSkip && !matcherSkip)
          warnings.push(`${source}: ${groupPath}.hooks[${h}] skipped: ${ownSkip}`)
        const skip = eventSkip ?? matcherSkip ?? ownSkip
        entries.push({
          source,
          event,
          group: g,
          index: h,
          ...(typeof matcher === 'string' ? { matcher } : {}),
          handler,
          ...(skip ? { skip } : {}),
        })
      })
    })
  }
  return { entries, warnings }
}
