// `tack run --image PATH` (repeatable; 85-skills-and-commands.md I2, docs/decisions/0285-user-images.md):
// each file becomes an image block after the prompt's words, in the order given. A path is relative to
// the folder tack was started in, as a shell completed it. A missing, unreadable or non-image file is a
// usage error before anything runs (exit 2); whether the model takes images, and the bounds in bytes
// and pixels, are decided where every prompt's images are: on admission (@tack/llm's prompt-images.ts).
import { resolve } from 'node:path'
import { type ContentBlock, type ImageBlock, readImageFile, toContentBlocks } from '@tack/session'
import { UsageError } from '../args.ts'
import type { RunInput } from './stdin-task.ts'

/** The images `--image` names, read and checked; none when the flag is absent. */
export async function readImageFlags(
  paths: readonly string[] | undefined,
  cwd: string,
): Promise<ImageBlock[]> {
  const images: ImageBlock[] = []
  for (const path of paths ?? []) {
    if (!path) throw new UsageError('tack run: --image needs a path to a PNG, JPEG, GIF or WebP file')
    const read = await readImageFile(resolve(cwd, path))
    if ('problem' in read) throw new UsageError(`tack run: --image ${path}: ${read.problem}`)
    images.push(read.image)
  }
  return images
}

/** The run's input with `images` after its words (the same input when there are none). */
export function withImages(input: RunInput, images: readonly ImageBlock[]): RunInput {
  if (images.length === 0) return input
  const content: ContentBlock[] = [...toContentBlocks(input.content), ...images]
  return { ...input, content }
}
