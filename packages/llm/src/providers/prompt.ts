// Our `LlmRequest` → the AI SDK provider interface's call options (LanguageModelV4). Each wire
// protocol file chooses how the parts the protocols disagree on are sent: a logged tool call's raw
// argument text, error results, and reasoning blocks. Type-only imports: no provider package loads.
import type {
  JSONObject,
  JSONSchema7,
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider'
import type { LlmRequest } from '@tack/agent'
import { deepFreeze } from '@tack/kernel'
import { type AssistantBlock, type ImageBlock, imagesOf, type Message } from '@tack/session'
import {
  type MediaSupport,
  movedNote,
  refusedNote,
  TEXT_ONLY,
  type ToolImages,
  filePart,
  toolImagesMessage,
  userParts,
} from './media.ts'

export interface PromptStyle {
  /**
   * How a logged tool call's argument text goes back: `raw` passes the text as the provider
   * package's `input` (it sends valid JSON verbatim); `parsed` passes the parsed value (for packages
   * that `JSON.stringify` the input), falling back to the raw string when it is not JSON.
   */
  readonly toolInput: 'raw' | 'parsed'
  /** Tool results that failed: sent marked as errors, or as plain text (the text says it failed). */
  readonly errorResults: 'error-text' | 'text'
  /**
   * Reasoning blocks: `signed` sends only blocks carrying a provider signature (Anthropic thinking,
   * which it verifies), `text` sends the text (DeepSeek's reasoning_content), `drop` sends none.
   */
  readonly reasoning: 'signed' | 'text' | 'drop'
  /** Provider options for a signed reasoning block (`signed` only). */
  readonly signedReasoning?: (signature: string) => SharedV4ProviderOptions
  /** Where a tool result's images go for a model that takes images (media.ts). */
  readonly toolImages: ToolImages
}

/** One message converted: the provider message, and the images a `user-message` wire sends after it. */
interface Converted {
  readonly message: LanguageModelV4Message | undefined
  readonly images?: ReadonlyArray<{
    readonly name: string
    readonly callId: string
    readonly image: ImageBlock
  }>
}

/**
 * Converted messages by style, then by what the model takes, then by message. The session's derived
 * messages are deep-frozen and shared from one request to the next, so each is converted once per
 * style instead of the whole history once per step (docs/decisions/0066-flat-memory.md). Styles are
 * module constants; the media key is the model and whether it takes images (a note names the model).
 */
const converted = new WeakMap<PromptStyle, Map<string, WeakMap<Message, Converted>>>()

function convertedFor(style: PromptStyle, media: MediaSupport): WeakMap<Message, Converted> {
  let byMedia = converted.get(style)
  if (!byMedia) converted.set(style, (byMedia = new Map()))
  const key = `${media.images ? 1 : 0}${media.model}`
  let byMessage = byMedia.get(key)
  if (!byMessage) byMedia.set(key, (byMessage = new WeakMap()))
  return byMessage
}

/** The call options for `request`, without the abort signal; `media` says what its model takes. */
export function toCallOptions(
  request: LlmRequest,
  style: PromptStyle,
  media: MediaSupport = TEXT_ONLY,
): LanguageModelV4CallOptions {
  const { config } = request
  const prompt: LanguageModelV4Message[] = []
  if (request.system) prompt.push({ role: 'system', content: request.system })
  const cache = convertedFor(style, media)
  // Images of the current run of tool messages, sent in one user message after the run (media.ts).
  let pending: NonNullable<Converted['images']>[number][] = []
  const flush = () => {
    if (pending.length) prompt.push(deepFreeze(toolImagesMessage(pending)))
    pending = []
  }
  for (const message of request.messages) {
    let one = cache.get(message)
    if (one === undefined) {
      // Frozen, because the same object goes out with every later request: a provider package
      // that edited it in place would change history (they copy; the freeze makes sure).
      one = deepFreeze(toMessage(message, style, media))
      // Only frozen messages are shared across requests; a caller's mutable one may change.
      if (Object.isFrozen(message)) cache.set(message, one)
    }
    if (message.role !== 'tool') flush()
    if (one.message) prompt.push(one.message)
    if (one.images) pending.push(...one.images)
  }
  flush()
  const tools: LanguageModelV4FunctionTool[] | undefined = request.tools?.length
    ? request.tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        // A thawed copy: the request is deep-frozen and schema sanitisers may rewrite in place.
        inputSchema: thawedSchema(tool.parameters),
      }))
    : undefined
  return {
    prompt,
    ...(tools ? { tools, toolChoice: { type: 'auto' } } : {}),
    ...(config.maxTokens !== undefined ? { maxOutputTokens: config.maxTokens } : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { topP: config.topP } : {}),
    ...(config.stop?.length ? { stopSequences: [...config.stop] } : {}),
    ...(config.providerOptions
      ? { providerOptions: structuredClone(config.providerOptions) as Record<string, JSONObject> }
      : {}),
  }
}

/** Each frozen tool schema's JSON text, so a request's fresh copy is one JSON.parse. */
const schemaJson = new WeakMap<object, string>()

/**
 * A fresh, mutable copy of a tool's parameter schema, every request. Parsing the schema's cached JSON
 * text costs a fraction of `structuredClone`, which was most of the time this module spent per request
 * (docs/decisions/0067-long-session-cost.md). Schemas are JSON (TL-2), so the copy is exact.
 */
function thawedSchema(parameters: object): JSONSchema7 {
  let text = schemaJson.get(parameters)
  if (text === undefined) {
    text = JSON.stringify(parameters)
    if (Object.isFrozen(parameters)) schemaJson.set(parameters, text)
  }
  return JSON.parse(text) as JSONSchema7
}

function toMessage(message: Message, style: PromptStyle, media: MediaSupport): Converted {
  switch (message.role) {
    case 'user':
      return { message: { role: 'user', content: userParts(message.content, media) } }
    case 'assistant': {
      const content = message.content.flatMap((block) => assistantPart(block, style))
      // An empty answer contributes nothing, and some providers reject an empty assistant turn.
      return { message: content.length ? { role: 'assistant', content } : undefined }
    }
    case 'tool':
      return toolMessage(message, style, media)
    default: {
      const never: never = message
      throw new Error(`unknown message role ${JSON.stringify(never)}`)
    }
  }
}

type ToolOutput = Extract<
  Extract<LanguageModelV4Message, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>['output']

/**
 * A tool result. Its images: for a model that takes none, a note each; on an `in-result` wire, file
 * parts beside the text; on a `user-message` wire, a note each here and the images after the run.
 */
function toolMessage(
  message: Extract<Message, { role: 'tool' }>,
  style: PromptStyle,
  media: MediaSupport,
): Converted {
  const images = imagesOf(message.content)
  const asText = (note: (image: ImageBlock) => string) =>
    message.content.map((block) => (block.type === 'text' ? block.text : note(block))).join('\n')
  const errorText = message.isError && style.errorResults === 'error-text'
  let output: ToolOutput
  let moved: Converted['images']
  if (!images.length || !media.images) {
    const value = asText((image) => refusedNote(image, media))
    output = errorText ? { type: 'error-text', value } : { type: 'text', value }
  } else if (style.toolImages === 'in-result' && !errorText) {
    output = {
      type: 'content',
      value: message.content.map((block) =>
        block.type === 'text' ? { type: 'text', text: block.text } : filePart(block),
      ),
    }
  } else {
    const value = asText(movedNote)
    output = errorText ? { type: 'error-text', value } : { type: 'text', value }
    moved = images.map((image) => ({ name: message.name, callId: message.callId, image }))
  }
  return {
    message: {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: message.callId, toolName: message.name, output }],
    },
    ...(moved ? { images: moved } : {}),
  }
}

type AssistantPart = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'][number]

function assistantPart(block: AssistantBlock, style: PromptStyle): AssistantPart[] {
  switch (block.type) {
    case 'text':
      return block.text ? [{ type: 'text', text: block.text }] : []
    case 'reasoning':
      switch (style.reasoning) {
        case 'drop':
          return []
        case 'text':
          return block.text ? [{ type: 'reasoning', text: block.text }] : []
        case 'signed':
          return block.signature && style.signedReasoning
            ? [
                {
                  type: 'reasoning',
                  text: block.text,
                  providerOptions: style.signedReasoning(block.signature),
                },
              ]
            : []
        default: {
          const never: never = style.reasoning
          throw new Error(`unknown reasoning style ${String(never)}`)
        }
      }
    case 'tool-call':
      return [
        {
          type: 'tool-call',
          toolCallId: block.callId,
          toolName: block.name,
          input: style.toolInput === 'raw' ? block.arguments : parseOrRaw(block.arguments),
        },
      ]
    default: {
      const never: never = block
      throw new Error(`unknown assistant block ${JSON.stringify(never)}`)
    }
  }
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
