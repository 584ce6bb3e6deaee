// The `tools:sdk` system prompt section (TL-21): a short preamble on run_code, then the tools as a
// TypeScript API generated from their own declarations — name, description, parameter schema and
// access — so a plugin's tool appears with no edit here. run_code itself is left out.
import { toolAccess } from '../declarations.ts'
import type { ToolDefinition } from '../types.ts'
import { docComment, jsonSchemaToTs } from './json-schema-to-ts.ts'
import { type SdkMember, sdkLayout } from './sdk-layout.ts'

export const RUN_CODE = 'run_code'
export const SDK_SECTION_NAME = 'tools:sdk'
export const SDK_SECTION_ORDER = 150

const PREAMBLE = `# Code Mode

To use tools, call \`run_code\` with a TypeScript program. It runs as the body of an async function: \`await\` tool calls, \`return\` a value, and \`console.log\` what you want to see; the result is the console output followed by the JSON of the returned value. Do as much as you can in one program (read, filter, decide and act) so the task takes few round-trips.

Each \`tools.<name>(args)\` (or namespaced, as \`tools.mcp.<server>.<tool>(args)\`) resolves to the tool's text output, or to the value its declared result type names. Calls run one at a time in the order they are made, even under \`Promise.all\`. A failed or denied call rejects with a \`ToolCallError\` carrying \`code\` (e.g. \`DENIED\`, \`NOT_FOUND\`, \`INVALID_ARGS\`) and \`message\`; catch it to go on. The program has only ECMAScript built-ins, \`tools\` and \`console\`: no file system, network, environment, process, timers or imports: use the tools for all of that. Enums and namespaces are not supported.`

/** The section text for these tools (sorted by the caller, run_code excluded here). */
export function sdkSectionText(tools: readonly ToolDefinition[]): string {
  const root: Namespace = new Map()
  for (const member of sdkLayout(tools.filter((def) => def.name !== RUN_CODE))) {
    let node = root
    const { path } = member.place
    for (const part of path.slice(0, -1)) {
      let next = node.get(part)
      if (!(next instanceof Map)) node.set(part, (next = new Map()))
      node = next
    }
    node.set(path[path.length - 1] as string, member)
  }
  const body = root.size
    ? `declare const tools: {\n${namespaceLines(root, 1).join('\n')}\n}`
    : 'declare const tools: {}'
  return `${PREAMBLE}\n\n\`\`\`ts\n${body}\n\`\`\``
}

/** A level of `tools`: a member (a tool) or a nested namespace (e.g. `mcp`, then a server), in insertion order. */
type Namespace = Map<string, SdkMember | Namespace>

function namespaceLines(node: Namespace, depth: number): string[] {
  const indent = '  '.repeat(depth)
  const lines: string[] = []
  for (const [part, child] of node) {
    if (child instanceof Map) {
      lines.push(`${indent}${memberName(part)}: {`, ...namespaceLines(child, depth + 1), `${indent}}`)
      continue
    }
    const { def } = child
    const doc = [def.description.trim(), `Access: ${toolAccess(def)}.`].filter(Boolean).join('\n\n')
    lines.push(docComment(doc, indent))
    // A tool with no required argument may be called with none (TL-24: a missing argument is `{}`).
    const optional = requiredCount(def.parameters) === 0 ? '?' : ''
    const result = def.sdk?.result ? jsonSchemaToTs(def.sdk.result, indent.length) : 'string'
    lines.push(
      `${indent}${memberName(part)}(args${optional}: ${jsonSchemaToTs(def.parameters, indent.length)}): Promise<${result}>`,
    )
  }
  return lines
}

/** A name that is not an identifier (an MCP tool's `get-env`) is quoted: `tools.mcp.s["get-env"]`. */
function memberName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)
}

function requiredCount(parameters: unknown): number {
  const required = (parameters as { required?: unknown } | null)?.required
  return Array.isArray(required) ? required.length : 0
}
