// JSON Schema (the defineTool subset, TL-4) → a TypeScript type, for the Code Mode SDK (TL-22). Total:
// it never throws, and whatever it cannot express (`$ref`, `allOf`, `not`, tuples, `patternProperties`,
// a keyword it does not know) becomes `unknown`, which is always a sound type for the model to hold.
// The output depends only on the schema — keys in code-unit order, two-space indent, LF, no trailing
// space — so an unchanged tool set gives a byte-identical SDK and the provider prompt cache holds.
import { isJsonObject } from '../arguments.ts'
import { SUBSET_KEYWORDS } from '../schema/subset.ts'

/**
 * Keywords outside the defineTool subset (TL-4) that only annotate or constrain values within a type:
 * a schema from elsewhere may carry them without changing its TypeScript type. Any other unknown
 * keyword (`$ref`, `allOf`, `not`, `patternProperties`, …) makes the type `unknown`.
 */
const EXTRA_ANNOTATIONS = new Set([
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'format',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'title',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$schema',
  '$id',
  '$comment',
])
/** Deeper than this is `unknown`: no tool needs it, and it bounds the recursion on hostile input. */
const MAX_DEPTH = 24
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

type Schema = Record<string, unknown>

/** The TypeScript type of values valid against `schema`, at `indent` (two spaces per level). */
export function jsonSchemaToTs(schema: unknown, indent = 0): string {
  try {
    return typeOf(schema, indent, 0)
  } catch {
    // Only a hostile object (a throwing getter, a proxy) gets here; the contract is "never throws".
    return 'unknown'
  }
}

function typeOf(schema: unknown, indent: number, depth: number): string {
  if (schema === false) return 'never'
  if (!isSchema(schema) || depth > MAX_DEPTH) return 'unknown'
  for (const key of Object.keys(schema))
    if (!SUBSET_KEYWORDS.has(key) && !EXTRA_ANNOTATIONS.has(key)) return 'unknown'
  if ('const' in schema) return literal(schema.const)
  if ('enum' in schema) {
    if (!Array.isArray(schema.enum)) return 'unknown'
    return schema.enum.length === 0 ? 'never' : union(schema.enum.map(literal))
  }
  if ('anyOf' in schema) {
    if ('type' in schema || !Array.isArray(schema.anyOf) || schema.anyOf.length === 0) return 'unknown'
    return union(schema.anyOf.map((branch) => typeOf(branch, indent, depth + 1)))
  }
  if (!('type' in schema)) {
    if ('properties' in schema || 'additionalProperties' in schema) return objectType(schema, indent, depth)
    if ('items' in schema) return arrayType(schema, indent, depth)
    return 'unknown'
  }
  const names = typeof schema.type === 'string' ? [schema.type] : schema.type
  if (!Array.isArray(names) || names.length === 0) return 'unknown'
  return union(names.map((name) => namedType(name, schema, indent, depth)))
}

function namedType(name: unknown, schema: Schema, indent: number, depth: number): string {
  switch (name) {
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return arrayType(schema, indent, depth)
    case 'object':
      return objectType(schema, indent, depth)
    default:
      return 'unknown'
  }
}

function arrayType(schema: Schema, indent: number, depth: number): string {
  if (!('items' in schema)) return 'unknown[]'
  if (Array.isArray(schema.items)) return 'unknown' // a tuple
  const item = typeOf(schema.items, indent, depth + 1)
  return topLevelUnion(item) ? `(${item})[]` : `${item}[]`
}

function objectType(schema: Schema, indent: number, depth: number): string {
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string') : [],
  )
  const keys = Object.keys(properties).sort(codeUnitOrder)
  const inner = ' '.repeat(indent + 2)
  const lines: string[] = []
  for (const key of keys) {
    const property = properties[key]
    const doc = isSchema(property) ? docComment(property.description, inner) : ''
    if (doc) lines.push(doc)
    const optional = required.has(key) ? '' : '?'
    lines.push(`${inner}${propertyName(key)}${optional}: ${typeOf(property, indent + 2, depth + 1)}`)
  }
  const extra = schema.additionalProperties
  if (extra !== undefined && extra !== false) {
    // A named property must fit the index signature's type; with named ones present the only type
    // that always does is `unknown`.
    const value = keys.length > 0 || extra === true ? 'unknown' : typeOf(extra, indent + 2, depth + 1)
    lines.push(`${inner}[key: string]: ${value}`)
  }
  if (lines.length === 0) return '{}'
  return `{\n${lines.join('\n')}\n${' '.repeat(indent)}}`
}

/** A `/** … *\/` block for a description, or '' when there is none. */
export function docComment(description: unknown, indent: string): string {
  if (typeof description !== 'string' || description.trim() === '') return ''
  const lines = description
    .replace(/\r\n?/g, '\n')
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  if (lines.length === 1) return `${indent}/** ${lines[0]} */`
  return [
    `${indent}/**`,
    ...lines.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)),
    `${indent} */`,
  ].join('\n')
}

function literal(value: unknown): string {
  // Every JSON value's text is also a valid TypeScript literal type (an object or array literal type
  // for structured values), written with sorted keys so it does not depend on key order; anything
  // that is not JSON cannot be named.
  try {
    const text = JSON.stringify(value, sortedKeys)
    if (text === undefined) return 'unknown'
    return text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
  } catch {
    return 'unknown'
  }
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (!isSchema(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort(codeUnitOrder)) out[key] = value[key]
  return out
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)]
  if (unique.includes('unknown')) return 'unknown'
  const members = unique.filter((t) => t !== 'never')
  if (members.length === 0) return 'never'
  return members.join(' | ')
}

/** Whether `type` has a `|` outside any brackets, i.e. needs parentheses before `[]`. */
function topLevelUnion(type: string): boolean {
  let depth = 0
  let quote: string | undefined
  for (let i = 0; i < type.length; i++) {
    const c = type[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = undefined
      continue
    }
    if (c === '"') quote = c
    else if (c === '{' || c === '(' || c === '[') depth++
    else if (c === '}' || c === ')' || c === ']') depth--
    else if (c === '|' && depth === 0) return true
    else if (c === '/' && type[i + 1] === '*') {
      // a doc comment inside an object type: skip it
      const end = type.indexOf('*/', i + 2)
      i = end === -1 ? type.length : end + 1
    }
  }
  return false
}

function propertyName(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key)
}

function isSchema(value: unknown): value is Schema {
  return isJsonObject(value)
}

export function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
