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
import type { AssistantBlock, ContentBlock, Message } from '@tack/session'

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
}

/**
 * Converted messages by style, then by message. The session's derived messages are deep-frozen and
 * shared from one request to the next, so each is converted once per style instead of the whole
 * history once per step (docs/decisions/0066-flat-memory.md). Styles are module constants; `null`
 * remembers a message that converts to nothing.
 */
const converted = new WeakMap<PromptStyle, WeakMap<Message, LanguageModelV4Message | null>>()

function convertedFor(style: PromptStyle): WeakMap<Message, LanguageModelV4Message | null> {
  let byMessage = converted.get(style)
  if (!byMessage) converted.set(style, (byMessage = new WeakMap()))
  return byMessage
}

/** The call options for `request`, without the abort signal. */
export function toCallOptions(request: LlmRequest, style: PromptStyle): LanguageModelV4CallOptions {
  const { config } = request
  const prompt: LanguageModelV4Message[] = []
  if (request.system) prompt.push({ role: 'system', content: request.system })
  const cache = convertedFor(style)
  for (const message of request.messages) {
    let one = cache.get(message)
    if (one === undefined) {
      // Frozen, because the same object goes out with every later request: a provider package
      // that edited it in place would change history (they copy; the freeze makes sure).
      one = deepFreeze(toMessage(message, style)) ?? null
      // Only frozen messages are shared across requests; a caller's mutable one may change.
      if (Object.isFrozen(message)) cache.set(message, one)
    }
    if (one) prompt.push(one)
  }
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

const joinText = (content: readonly ContentBlock[]) => content.map((block) => block.text).join('\n')

function toMessage(message: Message, style: PromptStyle): LanguageModelV4Message | undefined {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content.map((block) => ({ type: 'text', text: block.text })) }
    case 'assistant': {
      const content = message.content.flatMap((block) => assistantPart(block, style))
      // An empty answer contributes nothing, and some providers reject an empty assistant turn.
      return content.length ? { role: 'assistant', content } : undefined
    }
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.callId,
            toolName: message.name,
            output:
              message.isError && style.errorResults === 'error-text'
                ? { type: 'error-text', value: joinText(message.content) }
                : { type: 'text', value: joinText(message.content) },
          },
        ],
      }
    default: {
      const never: never = message
      throw new Error(`unknown message role ${JSON.stringify(never)}`)
    }
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
