// A content block's words, for the shapes Claude Code reads (a tool_response's text, a transcript
// line). This package is a leaf (docs/decisions/0210-host-protocol-packages.md) and may import only
// @tack/session's types, so the note for an image is written here in the words of @tack/session's
// `imageNote` (`[Image: image/png, N bytes]`); the binary tests of both read that literal.

/** A block as tack's tool results and messages hold it: text, or an image (never its bytes here). */
export interface WordsBlock {
  readonly type: string
  readonly text?: string
  readonly mimeType?: string
  readonly bytes?: number
}

export function blockWords(block: WordsBlock): string {
  if (block.type === 'image') return `[Image: ${block.mimeType ?? 'unknown type'}, ${block.bytes ?? 0} bytes]`
  return typeof block.text === 'string' ? block.text : ''
}
