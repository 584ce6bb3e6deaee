// Compiles a tool's parameter schema into a node tree the validator walks, refusing anything outside
// the defineTool subset (TL-4) with an error that names the schema path and the keyword. Compiling
// also produces the wire copy of the schema, where every object node states the
// `additionalProperties: false` the validator applies when it is omitted, so the model is told the
// rule it is held to.
import { deepFreeze } from '@tack/kernel'
import { checkJson, type JsonValue } from '@tack/session'
import { InvalidToolSchemaError } from '../errors.ts'
import { JSON_TYPE_NAMES, type JsonTypeName, SUBSET_KEYWORDS } from './subset.ts'

export interface CompiledSchema {
  /** JSON Pointer of this node inside the schema. */
  readonly path: string
  readonly types?: readonly JsonTypeName[]
  /** Declared properties, in declaration order. */
  readonly properties?: ReadonlyMap<string, CompiledSchema>
  readonly required: readonly string[]
  readonly items?: CompiledSchema
  readonly enum?: readonly JsonValue[]
  readonly const?: { readonly value: JsonValue }
  readonly anyOf?: readonly CompiledSchema[]
  /** For object nodes: `false` (the default), `true`, or the schema extra values must meet. */
  readonly additional: boolean | CompiledSchema
  readonly default?: { readonly value: JsonValue }
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: { readonly source: string; readonly regex: RegExp }
  readonly minItems?: number
  readonly maxItems?: number
}

export interface CompileOutput {
  readonly root: CompiledSchema
  /** The schema as it goes on the wire (deep-frozen). */
  readonly wire: { readonly [key: string]: JsonValue }
  /** Every node that declares a `default`, so the caller can check each default against its node. */
  readonly defaults: readonly CompiledSchema[]
}

type Raw = { readonly [key: string]: unknown }

const isPlainObject = (value: unknown): value is Raw => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

const pointer = (base: string, ...segments: Array<string | number>): string =>
  segments.reduce<string>(
    (acc, seg) => `${acc === '/' ? '' : acc}/${String(seg).replaceAll('~', '~0').replaceAll('/', '~1')}`,
    base,
  )

/** Compiles `schema` (a node of the subset); throws `InvalidToolSchemaError` on anything outside it. */
export function compileSchema(schema: unknown): CompileOutput {
  const defaults: CompiledSchema[] = []
  const compiled = compileNode(schema, '/', defaults)
  // Every value in the wire copy was checked above: JSON-checked literals and nested wire copies.
  return { root: compiled.node, wire: deepFreeze(compiled.wire) as CompileOutput['wire'], defaults }
}

function compileNode(
  raw: unknown,
  path: string,
  defaults: CompiledSchema[],
): { node: CompiledSchema; wire: Raw } {
  if (!isPlainObject(raw))
    throw new InvalidToolSchemaError(path, '(schema)', 'a schema must be a plain object')
  for (const key of Object.keys(raw)) {
    if (!SUBSET_KEYWORDS.has(key)) {
      throw new InvalidToolSchemaError(path, key, 'keyword is outside the supported JSON Schema subset')
    }
  }
  const wire: Record<string, unknown> = {}
  const node: {
    -readonly [K in keyof CompiledSchema]: CompiledSchema[K]
  } = { path, required: [], additional: false }

  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue
    switch (key) {
      case 'type': {
        const list = typeof value === 'string' ? [value] : value
        if (!Array.isArray(list) || list.length === 0) {
          throw new InvalidToolSchemaError(
            path,
            key,
            'expected a type name or a non-empty array of type names',
          )
        }
        for (const t of list) {
          if (!(JSON_TYPE_NAMES as readonly unknown[]).includes(t)) {
            throw new InvalidToolSchemaError(path, key, `unknown type ${JSON.stringify(t)}`)
          }
        }
        if (new Set(list).size !== list.length)
          throw new InvalidToolSchemaError(path, key, 'repeated type name')
        node.types = list as JsonTypeName[]
        wire[key] = value
        break
      }
      case 'properties': {
        if (!isPlainObject(value))
          throw new InvalidToolSchemaError(path, key, 'expected an object of schemas')
        const properties = new Map<string, CompiledSchema>()
        const wireProps: Record<string, unknown> = {}
        for (const [name, sub] of Object.entries(value)) {
          const child = compileNode(sub, pointer(path, 'properties', name), defaults)
          properties.set(name, child.node)
          wireProps[name] = child.wire
        }
        node.properties = properties
        wire[key] = wireProps
        break
      }
      case 'required': {
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
          throw new InvalidToolSchemaError(path, key, 'expected an array of property names')
        }
        if (new Set(value).size !== value.length) throw new InvalidToolSchemaError(path, key, 'repeated name')
        node.required = value as string[]
        wire[key] = value
        break
      }
      case 'items': {
        if (Array.isArray(value)) {
          throw new InvalidToolSchemaError(path, key, 'tuple form (an array of schemas) is not supported')
        }
        const child = compileNode(value, pointer(path, 'items'), defaults)
        node.items = child.node
        wire[key] = child.wire
        break
      }
      case 'anyOf': {
        if (!Array.isArray(value) || value.length === 0) {
          throw new InvalidToolSchemaError(path, key, 'expected a non-empty array of schemas')
        }
        const branches = value.map((sub, i) => compileNode(sub, pointer(path, 'anyOf', i), defaults))
        node.anyOf = branches.map((b) => b.node)
        wire[key] = branches.map((b) => b.wire)
        break
      }
      case 'additionalProperties': {
        if (typeof value === 'boolean') {
          node.additional = value
          wire[key] = value
        } else {
          const child = compileNode(value, pointer(path, 'additionalProperties'), defaults)
          node.additional = child.node
          wire[key] = child.wire
        }
        break
      }
      case 'enum': {
        if (!Array.isArray(value) || value.length === 0) {
          throw new InvalidToolSchemaError(path, key, 'expected a non-empty array of JSON values')
        }
        node.enum = jsonOf(value, path, key) as JsonValue[]
        wire[key] = node.enum
        break
      }
      case 'const':
        node.const = { value: jsonOf(value, path, key) }
        wire[key] = node.const.value
        break
      case 'default':
        node.default = { value: jsonOf(value, path, key) }
        wire[key] = node.default.value
        break
      case 'description':
        if (typeof value !== 'string') throw new InvalidToolSchemaError(path, key, 'expected a string')
        wire[key] = value
        break
      case 'minimum':
      case 'maximum':
        if (typeof value !== 'number' || !Number.isFinite(value)) {
          throw new InvalidToolSchemaError(path, key, 'expected a finite number')
        }
        node[key] = value
        wire[key] = value
        break
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
          throw new InvalidToolSchemaError(path, key, 'expected a non-negative integer')
        }
        node[key] = value
        wire[key] = value
        break
      case 'pattern': {
        if (typeof value !== 'string') throw new InvalidToolSchemaError(path, key, 'expected a string')
        try {
          node.pattern = { source: value, regex: new RegExp(value, 'u') }
        } catch (error) {
          throw new InvalidToolSchemaError(
            path,
            key,
            `not a valid regular expression: ${(error as Error).message}`,
          )
        }
        wire[key] = value
        break
      }
    }
  }

  if (isObjectNode(node)) {
    if (!('additionalProperties' in wire)) wire.additionalProperties = false
    if (node.additional === false) {
      for (const name of node.required) {
        if (!node.properties?.has(name)) {
          throw new InvalidToolSchemaError(
            path,
            'required',
            `"${name}" is required but not declared in properties, and additional properties are not allowed`,
          )
        }
      }
    }
  }
  const frozen = Object.freeze(node)
  if (frozen.default) defaults.push(frozen)
  return { node: frozen, wire }
}

/** Object nodes get the `additionalProperties: false` default; a node with neither type nor properties accepts anything. */
export function isObjectNode(node: Pick<CompiledSchema, 'types' | 'properties'>): boolean {
  return node.types ? node.types.includes('object') : node.properties !== undefined
}

function jsonOf(value: unknown, path: string, keyword: string): JsonValue {
  const checked = checkJson(value)
  if (!checked.ok) {
    throw new InvalidToolSchemaError(path, keyword, `not lossless JSON at ${checked.path}: ${checked.reason}`)
  }
  return checked.value as JsonValue
}
