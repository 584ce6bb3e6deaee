// Image paths in a prompt become attachments (85-skills-and-commands.md I2,
// docs/decisions/0285-user-images.md). A terminal pastes a file dropped on it as its path — bare,
// quoted ('…' or "…"), with spaces escaped (`My\ Shot.png`), or as a `file://` URL — so on send every
// such word that names an existing PNG, JPEG, GIF or WebP file by an absolute or `~/` path is read and
// sent as an image block after the words. The words stay as typed: "rename /tmp/a.png to b.png" keeps
// its meaning, and the model knows which file each image is. A word that names no such file (a typo, a
// file that is no image) only stays. Whether the model takes images, and the bounds, are decided on
// admission (@tack/llm), as for every prompt.
import { homedir } from 'node:os'
import { basename, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type ContentBlock, IMAGE_EXTENSIONS, type ImageBlock, readImageFile } from '@tack/session'

/** The prompt's words as a shell would split them: quotes and backslash escapes undone. */
function words(text: string): string[] {
  const out: string[] = []
  let i = 0
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i] as string)) i++
    if (i >= text.length) break
    let value = ''
    while (i < text.length && !/\s/.test(text[i] as string)) {
      const c = text[i] as string
      if (c === "'" || c === '"') {
        const close = text.indexOf(c, i + 1)
        if (close < 0) {
          value += text.slice(i)
          i = text.length
          break
        }
        value += text.slice(i + 1, close)
        i = close + 1
      } else if (c === '\\' && i + 1 < text.length) {
        value += text[i + 1]
        i += 2
      } else {
        value += c
        i++
      }
    }
    out.push(value)
  }
  return out
}

/** The file a word names, when it could be a dropped image: absolute, `~/` or `file://`, an image's extension. */
function candidatePath(word: string, home: string): string | undefined {
  let path = word
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path)
    } catch {
      return undefined
    }
  } else if (path.startsWith('~/')) path = join(home, path.slice(2))
  return isAbsolute(path) && IMAGE_EXTENSIONS.test(path) ? path : undefined
}

/** Whether `text` has a word that could be a dropped image (no file is touched). */
export function mayHoldImagePaths(text: string, home = homedir()): boolean {
  return words(text).some((word) => candidatePath(word, home) !== undefined)
}

/** An image taken from the prompt's words. */
export interface AttachedImage {
  readonly name: string
  readonly image: ImageBlock
}

/**
 * The prompt with the files its image paths name attached: the content to send (the words as typed,
 * then the images) and what was attached, for the person to see.
 */
export async function attachImagePaths(
  text: string,
  home = homedir(),
): Promise<{ content: string | ContentBlock[]; attached: AttachedImage[] }> {
  const attached: AttachedImage[] = []
  for (const word of words(text)) {
    const path = candidatePath(word, home)
    if (!path) continue
    const read = await readImageFile(path)
    if ('problem' in read) continue
    attached.push({ name: basename(path), image: read.image })
  }
  if (attached.length === 0) return { content: text, attached }
  const content: ContentBlock[] = [{ type: 'text', text }, ...attached.map((a) => a.image)]
  return { content, attached }
}
