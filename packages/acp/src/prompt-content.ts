// ACP prompt content → tack content (50-acp.md requirement 5): text as is; a resource link as a text
// reference carrying its URI; an embedded resource as text naming the URI, then its contents. Images
// (when not advertised) and audio are refused with -32602, naming the block.
import { parseSlashCommand } from '@tack/commands'
import { type ContentBlock as AcpBlock, RequestError } from '@agentclientprotocol/sdk'
import type { ContentBlock } from '@tack/session'

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
        return { type: 'text', text: `<resource uri="${r.uri}">\n${body}\n</resource>` }
      }
      case 'image':
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

/** The first text block's slash command, if it is one: `/name rest`. */
export function slashCommand(blocks: readonly AcpBlock[]): { name: string; input: string } | undefined {
  const first = blocks[0]
  if (first?.type !== 'text') return undefined
  const parsed = parseSlashCommand(first.text)
  return parsed ? { name: parsed.name, input: parsed.args } : undefined
}
