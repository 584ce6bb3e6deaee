// Argument validation against a compiled schema (TL-4): parse the model's raw text, fill `default`s,
// validate, and report each problem as `path: expectation` (e.g. `/limit: expected integer >= 1`),
// where `path` is a JSON Pointer into the arguments. Works on a copy: the input is never mutated.
import { jsonEqual } from '@tack/session'
import { isJsonObject } from '../arguments.ts'
import { type CompiledSchema, isObjectNode } from './compile.ts'
import type { JsonTypeName } from './subset.ts'

export type Validation =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problems: readonly string[] }

/**
 * Parses raw argument text as JSON. Empty (or all-whitespace) text means `{}`: models send it for
 * tools without parameters.
 */
export function parseArgumentText(raw: string): Validation {
  if (raw.trim() === '') return { ok: true, value: {} }
  try {
    return { ok: true, value: JSON.parse(raw) }
  } catch (error) {
    return { ok: false, problems: [`/: invalid JSON (${(error as Error).message})`] }
  }
}

/** Fills defaults into a copy of `value` and validates it against `schema`. */
export function validateValue(schema: CompiledSchema, value: unknown): Validation {
  let copy: unknown
  try {
    copy = structuredClone(value)
  } catch {
    return { ok: false, problems: ['/: expected JSON data'] }
  }
  const problems: string[] = []
  const filled = check(schema, copy, '/', problems)
  return problems.length ? { ok: false, problems } : { ok: true, value: filled }
}

/** `parseArgumentText` then `validateValue`. */
export function parseAndValidate(schema: CompiledSchema, raw: string): Validation {
  const parsed = parseArgumentText(raw)
  return parsed.ok ? validateValue(schema, parsed.value) : parsed
}

const child = (path: string, segment: string | number): string =>
  `${path === '/' ? '' : path}/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`

function typeOf(value: unknown): JsonTypeName | 'other' {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'boolean':
      return 'boolean'
    case 'number':
      return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'number' : 'other'
    case 'object':
      return 'object'
    default:
      return 'other'
  }
}

function matchesType(types: readonly JsonTypeName[], value: unknown): boolean {
  const actual = typeOf(value)
  return types.includes(actual as JsonTypeName) || (actual === 'integer' && types.includes('number'))
}

/** The word used in a bound's expectation: `integer` or `number`. */
const numberWord = (node: CompiledSchema): string =>
  node.types?.includes('integer') && !node.types.includes('number') ? 'integer' : 'number'

const show = (value: unknown): string => JSON.stringify(value)

/** Validates `value` in place (defaults are written into it) and returns the value to keep. */
function check(node: CompiledSchema, value: unknown, path: string, problems: string[]): unknown {
  if (node.types && !matchesType(node.types, value)) {
    problems.push(`${path}: expected ${node.types.join(' or ')}`)
    return value
  }
  if (node.const && !jsonEqual(node.const.value, value)) {
    problems.push(`${path}: expected ${show(node.const.value)}`)
    return value
  }
  if (node.enum && !node.enum.some((option) => jsonEqual(option, value))) {
    problems.push(`${path}: expected one of ${node.enum.map(show).join(', ')}`)
    return value
  }
  if (typeof value === 'number') checkNumber(node, value, path, problems)
  else if (typeof value === 'string') checkString(node, value, path, problems)
  else if (Array.isArray(value)) value = checkArray(node, value, path, problems)
  else if (isJsonObject(value) && isObjectNode(node)) checkObject(node, value, path, problems)
  if (node.anyOf) value = checkAnyOf(node.anyOf, value, path, problems)
  return value
}

function checkNumber(node: CompiledSchema, value: number, path: string, problems: string[]): void {
  if (node.minimum !== undefined && value < node.minimum) {
    problems.push(`${path}: expected ${numberWord(node)} >= ${node.minimum}`)
  }
  if (node.maximum !== undefined && value > node.maximum) {
    problems.push(`${path}: expected ${numberWord(node)} <= ${node.maximum}`)
  }
}

function checkString(node: CompiledSchema, value: string, path: string, problems: string[]): void {
  // JSON Schema counts code points, not UTF-16 units.
  const length = node.minLength !== undefined || node.maxLength !== undefined ? [...value].length : 0
  if (node.minLength !== undefined && length < node.minLength) {
    problems.push(`${path}: expected string of at least ${node.minLength} characters`)
  }
  if (node.maxLength !== undefined && length > node.maxLength) {
    problems.push(`${path}: expected string of at most ${node.maxLength} characters`)
  }
  if (node.pattern && !node.pattern.regex.test(value)) {
    problems.push(`${path}: expected string matching /${node.pattern.source}/`)
  }
}

function checkArray(node: CompiledSchema, value: unknown[], path: string, problems: string[]): unknown[] {
  if (node.minItems !== undefined && value.length < node.minItems) {
    problems.push(`${path}: expected array of at least ${node.minItems} items`)
  }
  if (node.maxItems !== undefined && value.length > node.maxItems) {
    problems.push(`${path}: expected array of at most ${node.maxItems} items`)
  }
  if (node.items) {
    const items = node.items
    for (let i = 0; i < value.length; i++) value[i] = check(items, value[i], child(path, i), problems)
  }
  return value
}

function checkObject(
  node: CompiledSchema,
  value: Record<string, unknown>,
  path: string,
  problems: string[],
): void {
  const properties = node.properties ?? new Map<string, CompiledSchema>()
  for (const [name, sub] of properties) {
    if (!Object.hasOwn(value, name) && sub.default) value[name] = structuredClone(sub.default.value)
  }
  for (const name of node.required) {
    if (!Object.hasOwn(value, name)) problems.push(`${child(path, name)}: required`)
  }
  for (const [name, item] of Object.entries(value)) {
    const sub = properties.get(name)
    if (sub) value[name] = check(sub, item, child(path, name), problems)
    else if (node.additional === false) problems.push(`${path}: unexpected property ${show(name)}`)
    else if (node.additional !== true) value[name] = check(node.additional, item, child(path, name), problems)
  }
}

function checkAnyOf(
  branches: readonly CompiledSchema[],
  value: unknown,
  path: string,
  problems: string[],
): unknown {
  const failures: string[] = []
  for (const [i, branch] of branches.entries()) {
    const own: string[] = []
    const filled = check(branch, structuredClone(value), path, own)
    if (own.length === 0) return filled
    failures.push(`${i + 1}: ${own.join('; ')}`)
  }
  problems.push(
    `${path}: expected a value matching one of ${branches.length} alternatives (${failures.join(' | ')})`,
  )
  return value
}
