// An MCP tool's input schema as a tack tool's parameters (docs/decisions/0220-mcp-tools.md). tack
// validates arguments against a JSON Schema subset (packages/tools/src/schema/subset.ts); an MCP server
// may use any JSON Schema, and it validates its own arguments anyway. So no MCP tool is refused for its
// schema: the schema is projected onto the subset by keeping the subset's keywords and dropping the
// rest — which only widens what tack accepts — and an object that does not say `additionalProperties`
// gets `true`, as JSON Schema means (the subset's default is `false`). `oneOf` is kept as `anyOf` (wider).
// A node the subset cannot say at all (`$ref`, tuple items) accepts anything. Should the projection still
// not compile (a pattern JavaScript cannot read, a default outside its own schema), the tool takes any
// object and its description carries the server's schema as JSON, so the model still sees it.
import { compileToolParameters, SUBSET_KEYWORDS, type ToolDefinition } from '@tack/tools'

type JsonSchema = ToolDefinition['parameters']

type Raw = Record<string, unknown>

const isRaw = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v)

export interface ProjectedSchema {
  readonly parameters: JsonSchema
  /** Set when the projection did not compile: the description's addition showing the server's schema. */
  readonly note?: string
}

export function projectInputSchema(schema: unknown): ProjectedSchema {
  const projected = { ...projectNode(isRaw(schema) ? schema : {}), type: 'object' }
  try {
    compileToolParameters(projected)
    return { parameters: projected as JsonSchema }
  } catch {
    return {
      parameters: { type: 'object', additionalProperties: true } as JsonSchema,
      note: `Input schema (JSON Schema, checked by the server): ${JSON.stringify(schema)}`,
    }
  }
}

function projectNode(node: Raw): Raw {
  if ('$ref' in node) return describedOnly(node)
  const out: Raw = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'oneOf') out.anyOf = projectList(value)
    else if (!SUBSET_KEYWORDS.has(key)) continue
    else if (key === 'properties' && isRaw(value))
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, isRaw(sub) ? projectNode(sub) : {}]),
      )
    else if (key === 'items') {
      if (isRaw(value)) out.items = projectNode(value)
    } else if (key === 'anyOf') out.anyOf = projectList(value)
    else if (key === 'additionalProperties')
      out.additionalProperties = isRaw(value) ? projectNode(value) : value
    else out[key] = value
  }
  if (isObjectNode(out) && out.additionalProperties === undefined) out.additionalProperties = true
  // anyOf given twice (anyOf and oneOf) cannot be both kept: the node accepts any of them.
  if ('anyOf' in node && 'oneOf' in node) delete out.anyOf
  return out
}

const projectList = (value: unknown): Raw[] | undefined =>
  Array.isArray(value) && value.length > 0
    ? value.map((sub) => (isRaw(sub) ? projectNode(sub) : {}))
    : undefined

const isObjectNode = (node: Raw): boolean =>
  node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || 'properties' in node

const describedOnly = (node: Raw): Raw =>
  typeof node.description === 'string' ? { description: node.description } : {}
