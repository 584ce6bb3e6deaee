// Cuts a result to `maxBytes` UTF-8 bytes (spec 55-mcp.md M4), or what a server says of itself (a tool's
// description, its instructions) to a number of characters, with a note naming the bound, so the model
// knows it saw part of it and why. The byte cut never splits a character.
import { Buffer } from 'node:buffer'

/** `text` cut to `max` characters with a note naming the bound (`plugins.mcp.<key>`); as is when it fits. */
export function cutToChars(text: string, max: number, key: string): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}\n\n[cut: ${text.length} characters, past plugins.mcp.${key} (${max})]`
}

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
