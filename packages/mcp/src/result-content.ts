// An MCP tool result as the content the model reads (spec 55-mcp.md M4). Its words are one text block:
// text blocks as they are; an audio block a note saying what was there; a resource link
// `[Resource link: name] uri` and an embedded resource its text, as Claude Code shows them.
// `structuredContent`, when given, is what the model sees in place of the text blocks that usually
// repeat it — its JSON — as both Claude Code and Codex do. Its images are image blocks after the words
// (docs/decisions/0255-image-content.md): the projection shows them to a model that takes images and
// a note to one that does not; an image whose type or base64 is not an image's is a note here.
import { Buffer } from 'node:buffer'
import { type ContentBlock, type ImageBlock, imageBlock } from '@tack/session'

/** The parts of a `tools/call` result read here (the SDK's CallToolResult, loosely: servers vary). */
export interface McpCallResult {
  readonly content?: readonly unknown[]
  readonly structuredContent?: unknown
  readonly isError?: boolean
  readonly toolResult?: unknown
}

type Block = Record<string, unknown>

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/** The result's words alone, every image a note (for an error result, which carries text only). */
export function resultText(result: McpCallResult): string {
  return wordsOf(result, (result.content ?? []) as Block[])
}

/**
 * The content of a result: its words and images in the server's order (words between images joined
 * into one text block). Past the cut (`cut` changes the words), the cut words come first and the
 * images after them. With `structuredContent` its JSON is the words, then the images.
 */
export function resultContent(result: McpCallResult, cut: (text: string) => string): ContentBlock[] {
  const images: ImageBlock[] = []
  const rest: Block[] = []
  const ordered: Array<Block[] | ImageBlock> = []
  for (const block of (result.content ?? []) as Block[]) {
    const image = block.type === 'image' ? imageOf(block) : undefined
    if (image) {
      images.push(image)
      ordered.push(image)
    } else {
      rest.push(block)
      const last = ordered.at(-1)
      if (Array.isArray(last)) last.push(block)
      else ordered.push([block])
    }
  }
  const text = wordsOf(result, rest)
  const words = cut(text)
  if (!images.length) return [{ type: 'text', text: words }]
  if (words !== text || result.structuredContent !== undefined)
    return [...(words ? [{ type: 'text' as const, text: words }] : []), ...images]
  return ordered.map((part) =>
    Array.isArray(part) ? { type: 'text', text: part.map(blockText).join('\n') } : part,
  )
}

function wordsOf(result: McpCallResult, blocks: readonly Block[]): string {
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent)
  // A server speaking the 2024-10-07 protocol answers `toolResult` instead of content.
  if (result.content === undefined && result.toolResult !== undefined)
    return JSON.stringify(result.toolResult)
  return blocks.map(blockText).join('\n')
}

function imageOf(block: Block): ImageBlock | undefined {
  const mimeType = str(block.mimeType)
  const data = str(block.data)
  return mimeType && data !== undefined ? imageBlock(mimeType, data) : undefined
}

/** One MCP content block as the words the model reads for it (an image or audio block: a note). */
export function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return str(block.text) ?? ''
    case 'image':
      return `[Image: ${str(block.mimeType) ?? 'unknown type'}, ${base64Bytes(block.data)} bytes, not shown]`
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
