// An editor's resource link (ACP `resource_link`, 55-mcp.md M10 and M12): its URI is read through the MCP
// server of the agent's that offers it — a session's own servers first, then the configured ones — found
// in the cached lists (resource-directory.ts), never by asking every server.
import type { ToolAgent } from '@tack/tools'
import type { Context } from 'cordis'
import { errorText } from './error-text.ts'
import { ownerOf, serversFor } from './resource-directory.ts'
import { readResourceText } from './resource-read.ts'

export type LinkedResource =
  /** No server of the agent's offers the URI. */
  | { readonly kind: 'none' }
  | { readonly kind: 'text'; readonly server: string; readonly text: string }
  | { readonly kind: 'failed'; readonly server: string; readonly error: string }

export async function readLinkedResource(
  ctx: Context,
  /** Whose servers: undefined, only those every agent reaches. */
  agent: ToolAgent | undefined,
  uri: string,
  signal: AbortSignal,
): Promise<LinkedResource> {
  const owner = ownerOf(serversFor(ctx, agent).values(), uri)
  if (!owner) return { kind: 'none' }
  const server = owner.connection.name
  try {
    return { kind: 'text', server, text: await readResourceText(owner, uri, signal) }
  } catch (error) {
    if (signal.aborted) throw error
    return { kind: 'failed', server, error: errorText(error) }
  }
}
