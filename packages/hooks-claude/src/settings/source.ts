// Reading one hooks source (40-hooks.md B1): a settings file (its `hooks` key) or a plugin `hooks.json`
// (same `hooks` key, plus an optional `description`). Every handler found is kept — including ones
// that can never run, with the reason — so `tack hooks list` can show all of them. Malformed parts are
// skipped with a warning; an unreadable or malformed file yields no handlers and an error.
import { readFileSync } from 'node:fs'
import { describeJsonError, isInvalidMatcher } from '@tack/hook-protocol'
import { isClaudePoint, notFiredReason, TOOL_POINTS } from '../protocol.ts'

/** Where a source came from: the three files Claude Code reads, a configured file, or a plugin. */
export type SourceKind = 'user' | 'project' | 'local' | 'configured' | 'plugin'

export interface HookSource {
  readonly path: string
  readonly kind: SourceKind
  /** Plugin sources: the plugin's folder (`CLAUDE_PLUGIN_ROOT`). */
  readonly pluginRoot?: string
}

/** Settings files take part in `disableAllHooks` and in de-duplication; plugin hooks do not. */
export const isSettingsSource = (source: HookSource): boolean => source.kind !== 'plugin'

/** Project-level files, which run only in a trusted workspace (`tack trust`, docs/decisions/0013-workspace-trust.md). */
export const isProjectSource = (source: HookSource): boolean =>
  source.kind === 'project' || source.kind === 'local'

export interface DiscoveredHandler {
  /** Stable: `<source path>:<event>:<group index>:<handler index>`. */
  readonly id: string
  readonly source: HookSource
  /** The event name as written (only the seven of B3 are raised). */
  readonly event: string
  readonly matcher?: string
  readonly group: number
  readonly index: number
  /** The handler object as written (what `skip` predicates see). */
  readonly handler: Readonly<Record<string, unknown>>
  /** Why this handler can never run, decided when it was read. */
  readonly unusable?: string
}

export interface ReadSource {
  readonly source: HookSource
  readonly handlers: readonly DiscoveredHandler[]
  readonly disableAllHooks: boolean
  /** Set when the file could not be read or parsed; then there are no handlers. */
  readonly error?: string
  readonly warnings: readonly string[]
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Reads `source`; a missing file is an error unless `missingOk` (discovered files usually do not exist). */
export function readHookSource(
  source: HookSource,
  opts: { missingOk?: boolean } = {},
): ReadSource | undefined {
  let text: string
  try {
    text = readFileSync(source.path, 'utf8')
  } catch (error) {
    if (opts.missingOk && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    return failed(source, error instanceof Error ? error.message : String(error))
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return failed(source, describeJsonError(text, error))
  }
  if (!isObject(value)) return failed(source, 'the file is not a JSON object')
  return parseHooks(source, value)
}

function failed(source: HookSource, error: string): ReadSource {
  return { source, handlers: [], disableAllHooks: false, error, warnings: [] }
}

export function parseHooks(source: HookSource, file: Record<string, unknown>): ReadSource {
  const warnings: string[] = []
  const handlers: DiscoveredHandler[] = []
  const disableAllHooks = isSettingsSource(source) && file.disableAllHooks === true
  const hooks = file.hooks
  if (hooks === undefined) return { source, handlers, disableAllHooks, warnings }
  if (!isObject(hooks)) {
    return {
      source,
      handlers,
      disableAllHooks,
      warnings: [`${source.path}: "hooks" is not an object; ignored`],
    }
  }
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      warnings.push(`${source.path}: hooks.${event} is not a list; ignored`)
      continue
    }
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        warnings.push(`${source.path}: hooks.${event}[${g}] has no "hooks" list; ignored`)
        return
      }
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined
      if (group.matcher !== undefined && matcher === undefined) {
        warnings.push(
          `${source.path}: hooks.${event}[${g}].matcher is not a string; the group matches everything`,
        )
      }
      if (isInvalidMatcher('claude', matcher)) {
        warnings.push(
          `${source.path}: hooks.${event}[${g}].matcher ${JSON.stringify(matcher)} is not a valid regex; it matches nothing`,
        )
      }
      group.hooks.forEach((handler, h) => {
        const id = `${source.path}:${event}:${g}:${h}`
        if (!isObject(handler)) {
          warnings.push(`${source.path}: hooks.${event}[${g}].hooks[${h}] is not an object; ignored`)
          return
        }
        const unusable = unusableReason(event, handler)
        if (unusable && (handler.type !== 'command' || handler.shell === 'powershell')) {
          warnings.push(`${id}: skipped, ${unusable}`)
        }
        handlers.push({
          id,
          source,
          event,
          ...(matcher !== undefined ? { matcher } : {}),
          group: g,
          index: h,
          handler: Object.freeze({ ...handler }),
          ...(unusable ? { unusable } : {}),
        })
      })
    })
  }
  return { source, handlers, disableAllHooks, warnings }
}

function unusableReason(event: string, handler: Record<string, unknown>): string | undefined {
  if (handler.type !== 'command')
    return `type ${JSON.stringify(handler.type)} is not supported (only "command" hooks run)`
  if (handler.shell === 'powershell') return 'shell "powershell" is not supported'
  if (typeof handler.command !== 'string' || handler.command.trim() === '') return 'it has no command'
  if (
    handler.args !== undefined &&
    !(Array.isArray(handler.args) && handler.args.every((a) => typeof a === 'string'))
  ) {
    return '"args" is not a list of strings'
  }
  if (!isClaudePoint(event)) return notFiredReason(event)
  if (handler.if !== undefined && !TOOL_POINTS.has(event)) {
    return `"if" is set on ${event}, where Claude Code evaluates no "if" and never runs such a hook`
  }
  return undefined
}
