// Resolving a tool's presentation (presentation.ts) for a logged call or result. A tool's own
// declaration is used when its arguments validate (defaults filled, as the body saw them); every part
// it leaves out, and every part of a call whose tool is gone or whose arguments do not validate (an old
// log), takes the default. A declaration that throws or answers something malformed costs the call its
// declared presentation — the defaults stand in — and a warning; never the session.
import type { Logger } from 'cordis'
import { isJsonObject, parseToolArguments } from './arguments.ts'
import { declaredPaths } from './declarations.ts'
import type { PipelineTool } from './pipeline/execute.ts'
import type {
  CallIntent,
  CallPresentation,
  ResultIntent,
  ResultPresentation,
  ToolKind,
  ToolLocation,
  ToolPresentation,
} from './presentation.ts'
import type { ToolAccess, ToolDefinition, ToolRegistry, ToolResultView } from './types.ts'
import { blockText } from '@tack/session'

/**
 * The kind a tool that declares none shows, from its access. `write` is also what an undeclared access
 * counts as, so it says nothing about the kind: `other`. A `session` tool changes only the session's own
 * state (a plan, a note): `think`.
 */
const KIND_OF_ACCESS: Readonly<Record<ToolAccess, ToolKind>> = Object.freeze({
  read: 'read',
  write: 'other',
  execute: 'execute',
  network: 'fetch',
  session: 'think',
})

/** What a front end asks for how a logged call or result looks (`ctx.tools` answers both). */
export type Presenter = Pick<ToolRegistry, 'presentCall' | 'presentResult'>

/**
 * How calls look where no tool is registered (a log read without a registry): every call and result
 * gets the defaults of a tool that declares nothing.
 */
export const plainPresenter: Presenter = Object.freeze({
  presentCall: (name: string, args: unknown) => defaultCall(undefined, name, looseArgs(args), undefined),
  presentResult: (_name: string, _args: unknown, result: ToolResultView) => defaultResult(result),
})

/** `args` may be the parsed value or the raw argument text (as `tool/call` logs it). */
export function presentCall(
  tool: PipelineTool | undefined,
  name: string,
  args: unknown,
  logger: Logger,
): CallPresentation {
  const loose = looseArgs(args)
  const valid = tool ? validArgs(tool, args) : undefined
  const fallback = defaultCall(tool?.def, name, loose, valid)
  const present = tool?.def.present
  if (!tool || !present || !valid) return fallback
  try {
    return declaredCall(present, valid.value, loose, fallback)
  } catch (error) {
    warn(logger, name, 'call', error)
    return fallback
  }
}

export function presentResult(
  tool: PipelineTool | undefined,
  name: string,
  args: unknown,
  result: ToolResultView,
  logger: Logger,
): ResultPresentation {
  const text = textOf(result)
  const fallback = defaultResult(result)
  const valid = tool ? validArgs(tool, args) : undefined
  const declared = tool?.def.present?.result
  if (!tool || !declared || !valid) return fallback
  try {
    const intents = declared.call(tool.def.present, valid.value, result)
    return { intents: checkedList(intents, isResultIntent, 'result intents'), text, isError: result.isError }
  } catch (error) {
    warn(logger, name, 'result', error)
    return fallback
  }
}

/** The declared parts, each missing one taken from `fallback` (the defaults for these same arguments). */
function declaredCall(
  present: ToolPresentation,
  args: unknown,
  loose: Record<string, unknown>,
  fallback: CallPresentation,
): CallPresentation {
  const title = present.title ? present.title(args) : fallback.title
  if (typeof title !== 'string') throw new Error('title must return a string')
  return {
    kind: present.kind ?? fallback.kind,
    title,
    keyArgument: present.key ? declaredKey(present.key, args, loose) : fallback.keyArgument,
    locations: present.locations
      ? checkedList(present.locations(args), isLocation, 'locations')
      : fallback.locations,
    intents: present.call ? checkedList(present.call(args), isCallIntent, 'call intents') : [],
  }
}

/** What a call shows from nothing but the tool's name, its access and paths (when known) and its arguments. */
function defaultCall(
  def: ToolDefinition | undefined,
  name: string,
  loose: Record<string, unknown>,
  validated: { readonly value: unknown } | undefined,
): CallPresentation {
  return {
    kind: defaultKind(def),
    title: name,
    keyArgument: firstString(loose),
    locations: def && validated ? pathLocations(def, validated.value) : [],
    intents: [],
  }
}

/** The kind a tool shows: its declared one, else the one its access means. */
function defaultKind(def: Pick<ToolDefinition, 'access' | 'present'> | undefined): ToolKind {
  if (def?.present?.kind) return def.present.kind
  return def?.access ? KIND_OF_ACCESS[def.access] : 'other'
}

function declaredKey(
  key: NonNullable<ToolPresentation['key']>,
  args: unknown,
  loose: Record<string, unknown>,
): string {
  if (typeof key === 'function') {
    const text = key(args)
    if (typeof text !== 'string') throw new Error('key must return a string')
    return text
  }
  const values = isJsonObject(args) ? args : loose
  for (const name of key) {
    const value = values[name]
    if (typeof value === 'string' && value !== '') return value
  }
  return ''
}

function pathLocations(def: ToolDefinition, args: unknown): ToolLocation[] {
  const declared = declaredPaths(def, args)
  return declared.ok ? declared.paths.map((path) => ({ path })) : []
}

function defaultResult(result: ToolResultView): ResultPresentation {
  const text = textOf(result)
  if (!result.content.some((block) => block.type === 'image'))
    return { intents: text === '' ? [] : [{ kind: 'text', text }], text, isError: result.isError }
  // Words and images in order; the words without the notes that stand for the images in `text`.
  const intents: ResultIntent[] = []
  for (const block of result.content) {
    if (block.type === 'image')
      intents.push({ kind: 'image', mimeType: block.mimeType, data: block.data, bytes: block.bytes })
    else if (block.text !== '') intents.push({ kind: 'text', text: block.text })
  }
  return { intents, text, isError: result.isError }
}

function firstString(args: Record<string, unknown>): string {
  const first = Object.values(args).find((value) => typeof value === 'string' && value !== '')
  return typeof first === 'string' ? first : ''
}

function looseArgs(args: unknown): Record<string, unknown> {
  if (typeof args === 'string') return parseToolArguments(args)
  return isJsonObject(args) ? args : {}
}

function validArgs(tool: PipelineTool, args: unknown) {
  const checked = typeof args === 'string' ? tool.validator.parse(args) : tool.validator.validate(args)
  return checked.ok ? checked : undefined
}

const textOf = (result: ToolResultView): string => result.content.map(blockText).join('\n')

function warn(logger: Logger, name: string, part: 'call' | 'result', error: unknown): void {
  const message = error instanceof Error ? error.message : String(error)
  logger.warn(
    'the presentation of tool %s failed for its %s (shown plainly instead): %s',
    name,
    part,
    message,
  )
}

function checkedList<T>(value: unknown, is: (item: unknown) => item is T, what: string): readonly T[] {
  if (!Array.isArray(value) || !value.every(is)) throw new Error(`${what} must be a list of intents`)
  return value
}

const isString = (value: unknown): value is string => typeof value === 'string'

function isLocation(value: unknown): value is ToolLocation {
  if (!isJsonObject(value) || !isString(value.path) || value.path === '') return false
  return value.line === undefined || (Number.isInteger(value.line) && (value.line as number) >= 1)
}

function isCallIntent(value: unknown): value is CallIntent {
  if (!isJsonObject(value)) return false
  switch (value.kind) {
    case 'diff':
      return (
        isString(value.path) && (value.oldText === null || isString(value.oldText)) && isString(value.newText)
      )
    case 'command':
      return isString(value.command)
    case 'text':
      return isString(value.text)
    case 'image':
      return isString(value.mimeType) && isString(value.data) && Number.isSafeInteger(value.bytes)
    default:
      return false
  }
}

function isResultIntent(value: unknown): value is ResultIntent {
  if (!isJsonObject(value)) return false
  switch (value.kind) {
    case 'diff':
      return isString(value.path) && Array.isArray(value.hunks)
    case 'created':
      return isString(value.path) && isString(value.content)
    case 'terminal':
      return isString(value.output)
    case 'todos':
      return Array.isArray(value.todos)
    case 'text':
      return isString(value.text)
    default:
      return false
  }
}
