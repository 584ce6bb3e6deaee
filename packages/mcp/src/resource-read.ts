// Reading one resource for a person's mention or an editor's resource link (55-mcp.md M10): through the
// SDK's `resources/read`, bounded by the server's toolTimeoutMs, its text cut to the plugin's
// maxResultBytes with a note. A binary part (a blob) becomes a note naming its URI and type: images reach
// models through another path, not this one.
import { Buffer } from 'node:buffer'
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js'
import { cutToBytes } from './cut.ts'
import type { ResourceServer } from './resource-directory.ts'

/** The resource's text as the model is given it: each part's text, a note for each binary part. */
export async function readResourceText(
  server: ResourceServer,
  uri: string,
  signal: AbortSignal,
): Promise<string> {
  const result = await server.connection.read(uri, signal, server.limits.toolTimeoutMs)
  return cutToBytes(resourceText(result), server.limits.maxResultBytes)
}

export function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((part) => {
      if ('text' in part && typeof part.text === 'string') return part.text
      const blob = 'blob' in part && typeof part.blob === 'string' ? part.blob : ''
      const bytes = Buffer.byteLength(blob, 'base64')
      return `[Binary resource ${part.uri} (${part.mimeType ?? 'no MIME type'}, ${bytes} bytes) left out]`
    })
    .join('\n\n')
}
