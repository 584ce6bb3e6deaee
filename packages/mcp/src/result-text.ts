// An MCP tool result as the text the model reads (spec 55-mcp.md M4). tack's tool results carry text
// blocks only (@tack/session's ContentBlock), so an image or audio block becomes a note saying what
// was there; a resource link is `[Resource link: name] uri` and an embedded resource its text, as
// Claude Code shows them. `structuredContent`, when given, is what the model sees — its JSON, in place
// of the text blocks that usually repeat it — as both Claude Code and Codex do.
import { Buffer } from 'node:buffer'

/** The parts of a `tools/call` result read here (the SDK's CallToolResult, loosely: servers vary). */
export interface McpCallResult {
  readonly content?: readonly unknown[]
  readonly structuredContent?: unknown
  readonly isError?: boolean
  readonly toolResult?: unknown
}

type Block = Record<string, unknown>

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

export function resultText(result: McpCallResult): string {
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent)
  // A server speaking the 2024-10-07 protocol answers `toolResult` instead of content.
  if (result.content === undefined && result.toolResult !== undefined)
    return JSON.stringify(result.toolResult)
  return (result.content ?? []).map((block) => blockText(block as Block)).join('\n')
}

/** The text the model reads for one content block. */
export function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return str(block.text) ?? ''
    case 'image':
      return `[Image: ${str(block.mimeType) ?? 'unknown type'}, ${base64Bytes(block.data)} bytes, not shown: tack's tool results carry text only]`
    case 'audio':
      return `[Audio: ${str(block.mimeType) ?? 'unknown type'}, ${base64Bytes(block.data)} bytes, not shown]`
    case 'resource_link':
      return `[Resource link: ${str(block.name) ?? str(block.uri) ?? ''}] ${str(block.uri) ?? ''}`
    case 'resource':
      return embeddedText(block.resource as Block | undefined)
    default:
      return `[Unsupported MCP content of type ${JSON.stringify(block.type)}]`
  }
}

function embeddedText(resource: Block | undefined): string {
  if (!resource) return ''
  const text = str(resource.text)
  if (text !== undefined) return text
  return `[Resource: ${str(resource.uri) ?? ''} (${str(resource.mimeType) ?? 'binary'}, ${base64Bytes(resource.blob)} bytes, not shown)]`
}

const base64Bytes = (data: unknown): number =>
  typeof data === 'string' ? Buffer.byteLength(data, 'base64') : 0
