// ACP prompt content → tack content (50-acp.md requirement 5): text as is; a resource link as a text
// reference carrying its URI; an embedded resource as text naming the URI, then its contents; an image
// as an image block (85-skills-and-commands.md I2, docs/decisions/0285-user-images.md) when its base64
// holds a PNG, JPEG, GIF or WebP — anything else, and audio, is refused with -32602, naming the block.
// Whether the model takes images, and the bounds in bytes and pixels, are decided on admission
// (@tack/llm's prompt-images.ts), as for every prompt. A resource link an MCP
// server of the session offers is read through it and given like an embedded resource (55-mcp.md M10,
// `withLinkedResources`); so is a link to a file, read as an `@path` mention is, and an embedded file of
// the session's folder is shown as `read` shows it (docs/decisions/0280-file-mentions.md).
import { parseSlashCommand } from '@tack/commands'
import { type ContentBlock as AcpBlock, RequestError } from '@agentclientprotocol/sdk'
import { type ContentBlock, imageBlock } from '@tack/session'

export function promptContent(blocks: readonly AcpBlock[]): ContentBlock[] {
  return blocks.map((block, i): ContentBlock => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text }
      case 'resource_link':
        return { type: 'text', text: `[${block.name}](${block.uri})` }
      case 'resource': {
        const r = block.resource
        const body = 'text' in r && typeof r.text === 'string' ? r.text : '(binary content not included)'
        return embedded(r.uri, body)
      }
      case 'image': {
        const image = imageBlock(block.mimeType, block.data)
        if (image) return image
        throw RequestError.invalidParams(
          { field: `prompt[${i}]` },
          `prompt[${i}]: image content must be base64 of a PNG, JPEG, GIF or WebP image`,
        )
      }
      case 'audio':
        throw RequestError.invalidParams(
          { field: `prompt[${i}]` },
          `prompt[${i}]: ${block.type} content is not supported by this agent (promptCapabilities)`,
        )
      default:
        throw RequestError.invalidParams(
          { field: `prompt[${i}]` },
          `prompt[${i}]: unknown content type ${JSON.stringify((block as { type?: unknown }).type)}`,
        )
    }
  })
}

const embedded = (uri: string, body: string): ContentBlock => ({
  type: 'text',
  text: `<resource uri="${uri}">\n${body}\n</resource>`,
})

/** The text of the resource at `uri`, or undefined to keep the link as a reference. */
export type LinkReader = (uri: string) => Promise<string | undefined>
/** An embedded resource's text reshaped (a workspace file as `read` shows it), or undefined: as given. */
export type FileShaper = (uri: string, text: string) => Promise<string | undefined>

/**
 * `content` (promptContent of `blocks`) with each resource link that `read` resolves replaced by the
 * resource's text, in the embedded resource's form; the others stay references. An embedded text
 * resource `shape` answers for (a file of the session's folder) gets its shaped text.
 */
export async function withLinkedResources(
  blocks: readonly AcpBlock[],
  content: readonly ContentBlock[],
  read: LinkReader,
  shape?: FileShaper,
): Promise<ContentBlock[]> {
  return Promise.all(
    content.map(async (converted, i) => {
      const block = blocks[i]
      if (block?.type === 'resource' && shape && 'text' in block.resource) {
        const shaped = await shape(block.resource.uri, block.resource.text)
        return shaped === undefined ? converted : embedded(block.resource.uri, shaped)
      }
      if (block?.type !== 'resource_link') return converted
      const text = await read(block.uri)
      return text === undefined ? converted : embedded(block.uri, text)
    }),
  )
}

/** The first text block's slash command, if it is one: `/name rest`. */
export function slashCommand(blocks: readonly AcpBlock[]): { name: string; input: string } | undefined {
  const first = blocks[0]
  if (first?.type !== 'text') return undefined
  const parsed = parseSlashCommand(first.text)
  return parsed ? { name: parsed.name, input: parsed.args } : undefined
}
