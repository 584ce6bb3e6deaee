// Images in a request (docs/decisions/0255-image-content.md). A model that takes images gets each
// image block as the AI SDK's file part, its base64 text from the log handed over as it is; a model
// that does not gets a note in its place, so the request never fails at the provider for an image.
// Where the image goes differs by wire: Anthropic takes images inside a tool result; the OpenAI
// Chat Completions wires (OpenAI, DeepSeek, compatible servers) take only text in a `tool` message
// (their packages JSON-stringify anything else), so there the tool message says where the image went
// and the image follows in one user message after the run of tool messages.
import type { LanguageModelV4FilePart, LanguageModelV4TextPart } from '@ai-sdk/provider'
import { type ContentBlock, type ImageBlock, imageNote } from '@tack/session'

/** What the model of one request takes besides text. */
export interface MediaSupport {
  /** The model as the request names it, for the note. */
  readonly model: string
  readonly images: boolean
}

/** Text only, the safe default for a caller that does not say. */
export const TEXT_ONLY: MediaSupport = Object.freeze({ model: 'in use', images: false })

/** Where a wire takes a tool result's images (see the top of this file). */
export type ToolImages = 'in-result' | 'user-message'

export const filePart = (image: ImageBlock): LanguageModelV4FilePart => ({
  type: 'file',
  mediaType: image.mimeType,
  data: { type: 'data', data: image.data },
})

/** The note for an image a model cannot see. */
export const refusedNote = (image: ImageBlock, media: MediaSupport): string =>
  imageNote(image, `not shown: model ${media.model} takes no images`)

/** The note a tool message carries for an image sent in the user message after it. */
export const movedNote = (image: ImageBlock): string =>
  imageNote(image, 'attached in the user message after the tool results')

/** User content: text parts and, for a model that takes them, file parts. */
export function userParts(
  content: readonly ContentBlock[],
  media: MediaSupport,
): Array<LanguageModelV4TextPart | LanguageModelV4FilePart> {
  return content.map((block) =>
    block.type === 'text'
      ? { type: 'text', text: block.text }
      : media.images
        ? filePart(block)
        : { type: 'text', text: refusedNote(block, media) },
  )
}

/** The user message that carries the images of a run of tool results on a `user-message` wire. */
export function toolImagesMessage(
  images: ReadonlyArray<{ readonly name: string; readonly callId: string; readonly image: ImageBlock }>,
): { role: 'user'; content: Array<LanguageModelV4TextPart | LanguageModelV4FilePart> } {
  return {
    role: 'user',
    content: images.flatMap(({ name, callId, image }) => [
      { type: 'text' as const, text: `[Image from the result of ${name} (call ${callId})]` },
      filePart(image),
    ]),
  }
}
