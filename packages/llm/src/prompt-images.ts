// Images in a prompt, checked before the prompt is admitted (docs/decisions/0285-user-images.md,
// 85-skills-and-commands.md I2). A prompt's images come from a person (`tack run --image`, a path pasted
// in the TUI, an ACP client's image blocks), and once admitted they go out with every later request of
// the session. So a prompt is refused — the turn ends `rejected` with the reason, no request is made —
// when its model takes no images (rather than a provider error, or a note the person never sees), or
// when its images are past the bounds in `llm.images`; a PNG or JPEG past the pixel bound is scaled
// down to fit instead (image-scale.ts, loaded only then).
import type { Agent, Prompt, PromptDecision } from '@tack/agent'
import {
  type ContentBlock,
  formatBytes,
  formatSize,
  type ImageBlock,
  imageBlockSize,
  longEdge,
  toContentBlocks,
} from '@tack/session'
import type { PromptImagesConfig } from './config.ts'

/** What the check needs to know of the prompt's model. */
export interface PromptModel {
  readonly model: string
  /** Undefined for a model this plugin does not serve (an embedder's adapter): not refused here. */
  readonly takesImages: boolean | undefined
}

/** Turns an image past the pixel bound into one within it; undefined when it cannot (its type, its size). */
export type ScaleImage = (image: ImageBlock, maxLongEdge: number) => Promise<ImageBlock | undefined>

/** The refusal for a model without image input: names the model and how to choose one with it. */
export function noImagesReason(model: string, count: number): string {
  const provider = model.split('/', 1)[0]
  return (
    `model ${model} takes no images, and this prompt has ${count === 1 ? 'an image' : `${count} images`}. ` +
    'Pick a model that takes images (--model, /model), or, if this one does, say so in its endpoint: ' +
    `plugins.llm.endpoints.${provider}.images: true (or a list of model ids).`
  )
}

/**
 * The prompt's content with its images within the bounds, or the reason to refuse it. Content without
 * images comes back as it is (the same object).
 */
export async function checkPromptImages(
  content: Prompt['content'],
  model: PromptModel,
  bounds: PromptImagesConfig,
  scale: ScaleImage,
): Promise<{ content: Prompt['content'] } | { refused: string }> {
  const blocks = toContentBlocks(content)
  const count = blocks.filter((b) => b.type === 'image').length
  if (count === 0) return { content }
  if (model.takesImages === false) return { refused: noImagesReason(model.model, count) }
  const fitted: ContentBlock[] = []
  let changed = false
  let total = 0
  for (const block of blocks) {
    if (block.type !== 'image') {
      fitted.push(block)
      continue
    }
    let image = block
    const size = imageBlockSize(image)
    if (!size)
      return { refused: `an image of the prompt (${image.mimeType}) has no readable size in its header` }
    if (longEdge(size) > bounds.maxLongEdge) {
      const smaller = await scale(image, bounds.maxLongEdge)
      if (!smaller)
        return {
          refused: `an image of the prompt is ${formatSize(size)}, past plugins.llm.images.maxLongEdge (${bounds.maxLongEdge} px on its longer side), and ${image.mimeType === 'image/png' || image.mimeType === 'image/jpeg' ? 'too large to scale down' : `tack scales only PNG and JPEG, not ${image.mimeType}`}`,
        }
      image = smaller
      changed = true
    }
    total += image.bytes
    if (total > bounds.maxBytes)
      return {
        refused: `the images of the prompt come to ${formatBytes(total)} or more, past plugins.llm.images.maxBytes (${formatBytes(bounds.maxBytes)}); a lower plugins.llm.images.maxLongEdge (1568 px is what Anthropic scales to) makes tack scale PNG and JPEG images smaller`,
      }
    fitted.push(image)
  }
  return { content: changed ? fitted : content }
}

/**
 * The `agent/prompt-submit` listener: refuses or fits the prompt's images, then lets the rest of the
 * chain decide on the content as fitted.
 */
export function promptImagesListener(
  modelOf: (agent: Agent) => PromptModel,
  bounds: PromptImagesConfig,
  scale: ScaleImage,
) {
  return async (
    agent: Agent,
    prompt: Prompt,
    next: () => Promise<PromptDecision>,
  ): Promise<PromptDecision> => {
    const checked = await checkPromptImages(prompt.content, modelOf(agent), bounds, scale)
    if ('refused' in checked) return { action: 'block', reason: checked.refused }
    const decision = await next()
    if (checked.content === prompt.content || decision.action !== 'allow' || decision.content !== undefined)
      return decision
    return { ...decision, content: checked.content }
  }
}
