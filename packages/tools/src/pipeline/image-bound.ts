// The size bound on images in tool results (`maxImageBytes`, docs/decisions/0255-image-content.md): a
// result keeps its images in order while their decoded bytes together stay within the bound; an image
// past it is replaced by a note saying what it was and which bound it passed. So one result can never
// put more image bytes into the log — where every later request carries them — than the bound.
// An image whose header declares a longer side than `maxLongEdge` pixels is a note too
// (docs/decisions/0285-user-images.md): a provider refuses it (Anthropic past 8000 px), and every later
// request would carry it. One whose header gives no size is kept: tack does not decode images.
import { type ContentBlock, formatSize, imageBlockSize, imageNote, longEdge } from '@tack/session'

/** `content` with the images past `maxBytes` in all, or past `maxLongEdge` pixels, as notes; the same array when none is. */
export function boundImages(
  content: readonly ContentBlock[],
  maxBytes: number,
  maxLongEdge = Number.POSITIVE_INFINITY,
): readonly ContentBlock[] {
  let total = 0
  let changed = false
  const bounded = content.map((block): ContentBlock => {
    if (block.type !== 'image') return block
    const size = imageBlockSize(block)
    if (size && longEdge(size) > maxLongEdge) {
      changed = true
      return {
        type: 'text',
        text: imageNote(
          block,
          `${formatSize(size)}, not kept: past plugins.tools.maxImageLongEdge (${maxLongEdge} px)`,
        ),
      }
    }
    if (total + block.bytes <= maxBytes) {
      total += block.bytes
      return block
    }
    changed = true
    return {
      type: 'text',
      text: imageNote(block, `not kept: past plugins.tools.maxImageBytes (${maxBytes}) for one result`),
    }
  })
  return changed ? bounded : content
}
