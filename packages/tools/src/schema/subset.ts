// The JSON Schema subset tool parameters are written in (TL-4), as a type. Literal schemas declared
// against it infer their argument type (infer.ts); the same subset is enforced at run time when a
// schema is compiled (compile.ts), so a keyword outside it fails at definition, not at call time.
import type { JsonValue } from '@tack/session'

export type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object'

export const JSON_TYPE_NAMES: readonly JsonTypeName[] = Object.freeze([
  'string',
  'number',
  'integer',
  'boolean',
  'null',
  'array',
  'object',
])

/** One schema node of the subset. */
export type ToolJsonSchema = {
  readonly type?: JsonTypeName | readonly JsonTypeName[]
  readonly properties?: { readonly [key: string]: ToolJsonSchema }
  readonly required?: readonly string[]
  readonly items?: ToolJsonSchema
  readonly enum?: readonly JsonValue[]
  readonly const?: JsonValue
  readonly anyOf?: readonly ToolJsonSchema[]
  /** `false` when omitted: an unexpected property is an argument error. */
  readonly additionalProperties?: boolean | ToolJsonSchema
  readonly description?: string
  readonly default?: JsonValue
  readonly minimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly minItems?: number
  readonly maxItems?: number
}

/** A tool's `parameters`: an object schema of the subset. */
export type ToolParametersSchema = ToolJsonSchema & { readonly type: 'object' }

/** Every keyword of the subset; anything else is refused at definition. */
export const SUBSET_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'anyOf',
  'additionalProperties',
  'description',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
])
