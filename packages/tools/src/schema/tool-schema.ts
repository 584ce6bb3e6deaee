// A tool's parameter schema, compiled once: the checked node tree, the wire copy, and the validator
// entry points bound to it. Used by defineTool (to fail at definition) and by the registry.
import type { JsonValue } from '@tack/session'
import { InvalidToolSchemaError } from '../errors.ts'
import { type CompiledSchema, compileSchema } from './compile.ts'
import { parseAndValidate, type Validation, validateValue } from './validate.ts'

export interface ToolSchemaValidator {
  readonly root: CompiledSchema
  /** The schema as sent to the model (`additionalProperties: false` made explicit), deep-frozen. */
  readonly wire: { readonly [key: string]: JsonValue }
  /** Parses raw model text, fills defaults and validates. */
  parse(raw: string): Validation
  /** Fills defaults into a copy of an already-parsed value and validates it. */
  validate(value: unknown): Validation
}

/**
 * Compiles a tool's `parameters`: it must be an object schema (`type: 'object'`) of the subset, and
 * every `default` must itself validate. Throws `InvalidToolSchemaError` naming the path and keyword.
 * The validator keeps its own frozen copy, so later mutation of `parameters` changes nothing.
 */
export function compileToolParameters(parameters: unknown): ToolSchemaValidator {
  const { root, wire, defaults } = compileSchema(parameters)
  if (root.types?.length !== 1 || root.types[0] !== 'object') {
    throw new InvalidToolSchemaError('/', 'type', 'tool parameters must be an object schema (type: "object")')
  }
  for (const node of defaults) {
    const checked = validateValue(node, node.default?.value)
    if (!checked.ok) {
      throw new InvalidToolSchemaError(
        node.path,
        'default',
        `the default does not validate: ${checked.problems.join('; ')}`,
      )
    }
  }
  return Object.freeze({
    root,
    wire,
    parse: (raw: string) => parseAndValidate(root, raw),
    validate: (value: unknown) => validateValue(root, value),
  })
}
