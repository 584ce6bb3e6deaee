// The size bound on images in tool results (`maxImageBytes`, docs/decisions/0255-image-content.md): an
// image past it is replaced by a note saying what it was and which bound it passed, so one result can
// never put an oversized image into the log, where every later request would carry it.
import { type ContentBlock, imageNote } from '@tack/session'

/** `content` with every image over `maxBytes` decoded bytes as a note; the same array when none is. */
export function boundImages(content: readonly ContentBlock[], maxBytes: number): readonly ContentBlock[] {
  if (!content.some((block) => block.type === 'image' && block.bytes > maxBytes)) return content
  return content.map((block) =>
    block.type === 'image' && block.bytes > maxBytes
      ? {
          type: 'text',
          text: imageNote(block, `not kept: larger than plugins.tools.maxImageBytes (${maxBytes})`),
        }
      : block,
  )
}
