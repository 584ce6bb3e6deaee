// How an MCP tool looks to Claude Code's and Codex's hooks (55-mcp.md M8, docs/decisions/0250-mcp-approval-prompt.md).
// Both hosts name it `mcp__<server>__<tool>` — the tack name — and show the arguments as the model sent
// them (`tool_input`, no translation). Their PostToolUse `tool_response` differ:
//   Claude Code: the result's content blocks, `[{"type":"text","text":"…"}]`;
//   Codex:       the CallToolResult object, `{"content":[…],"structuredContent":…}` (`isError` when set).
// tack's tool result holds the text the model saw (result-content.ts): one block per MCP result. The
// blocks as the server sent them are kept in the result's `meta.mcp` (hostView) only when they differ
// from that one text — several blocks, or `structuredContent` — so the common result costs nothing.
// Every text there is bounded like the model's (`maxResultBytes` in all) and binary data is never
// kept: an image, audio or blob block is the note the model reads for it.
import { Buffer } from 'node:buffer'
import { blockText, imageNote } from '@tack/session'
import type { ToolHosts, ToolResultView } from '@tack/tools'
import { cutToBytes } from './cut.ts'
import { blockText as mcpBlockText, type McpCallResult } from './result-content.ts'

/** A content block as a hook sees it: text only (a non-text block is its note). */
export interface HostBlock {
  readonly type: 'text'
  readonly text: string
}

/** What `meta.mcp` holds: the server's blocks (and structured content) for the hooks. */
export interface McpHostView {
  readonly content: readonly HostBlock[]
  readonly structuredContent?: unknown
}

/**
 * The hooks' view of a result, for `meta.mcp`; undefined when it is the model's text as one block
 * (one block, no structured content, no older `toolResult`), which the mappings read from the result.
 */
export function hostView(result: McpCallResult, maxBytes: number): McpHostView | undefined {
  const blocks = result.content ?? []
  if (result.structuredContent === undefined && blocks.length <= 1) return undefined
  if (result.content === undefined && result.toolResult !== undefined) return undefined
  let budget = maxBytes
  const content: HostBlock[] = []
  for (const block of blocks) {
    const whole = hookWords(block as Record<string, unknown>)
    const text = cutToBytes(whole, budget)
    content.push({ type: 'text', text })
    budget -= Buffer.byteLength(whole, 'utf8')
    if (budget < 0) break // this block was cut: the ones after it are past the bound too
  }
  const structured = result.structuredContent
  const fits = structured !== undefined && Buffer.byteLength(JSON.stringify(structured), 'utf8') <= maxBytes
  return { content, ...(fits ? { structuredContent: structured } : {}) }
}

/** A server's block as a hook reads it: an image is the note every words-only reader gets (docs/decisions/0255-image-content.md). */
function hookWords(block: Record<string, unknown>): string {
  if (block.type === 'image' && typeof block.mimeType === 'string' && typeof block.data === 'string')
    return imageNote({ mimeType: block.mimeType, bytes: Buffer.byteLength(block.data, 'base64') })
  return mcpBlockText(block)
}

function viewOf(result: ToolResultView): McpHostView {
  const kept = (result.meta as { mcp?: McpHostView } | undefined)?.mcp
  if (kept && Array.isArray(kept.content)) return kept
  return { content: result.content.map((b) => ({ type: 'text', text: blockText(b) })) }
}

/** The `host` declaration of the MCP tool named `name`. */
export function mcpToolHosts(name: string): ToolHosts {
  return {
    claude: { name, toResponse: (_args, result) => viewOf(result).content },
    codex: {
      name,
      toResponse: (_args, result) => {
        const view = viewOf(result)
        return {
          content: view.content,
          ...(view.structuredContent !== undefined ? { structuredContent: view.structuredContent } : {}),
          ...(result.isError ? { isError: true } : {}),
        }
      },
    },
  }
}
