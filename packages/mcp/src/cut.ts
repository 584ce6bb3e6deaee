// Cuts a result to `maxBytes` UTF-8 bytes (spec 55-mcp.md M4) with a note naming the bound, so the
// model knows it saw part of the output and why. The cut never splits a character.
import { Buffer } from 'node:buffer'

export function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return text
  // Decoding a prefix may end in half a character: drop the replacement character it becomes.
  const head = bytes
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '')
  return `${head}\n\n[MCP result cut: ${bytes.length} bytes, past plugins.mcp.maxResultBytes (${maxBytes}); the rest was not shown]`
}
