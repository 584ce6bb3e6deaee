import { type ConfigOf, Schema } from '@tack/kernel'
import { endpointsField, isHttpUrl } from './endpoints.ts'

export const RetryConfig = Schema.object({
  baseDelayMs: Schema.integer({
    min: 0,
    max: 600000,
    default: 1000,
    description: 'First retry delay in ms; doubles per attempt (with jitter).',
  }),
  maxDelayMs: Schema.integer({
    min: 0,
    max: 600000,
    default: 30000,
    description: 'Cap on any retry delay, including a Retry-After hint.',
  }),
  maxAttempts: Schema.integer({
    min: 1,
    max: 20,
    default: 4,
    description: 'Total attempts per model request for transient failures; 1 disables retries.',
  }),
  maxStallAttempts: Schema.integer({
    min: 1,
    max: 20,
    default: 2,
    description:
      'Attempts per model request when the server stays silent (TIMEOUT before the first chunk): each costs a whole firstByteTimeoutMs or idleTimeoutMs, so fewer than maxAttempts; also capped by maxAttempts.',
  }),
})

/** Bounds on the images of a prompt (docs/decisions/0285-user-images.md). */
export const PromptImagesConfig = Schema.object({
  maxBytes: Schema.integer({
    min: 0,
    max: 20 * 1024 * 1024,
    default: 3_932_160,
    description:
      "Decoded bytes of the images one prompt may carry together (`tack run --image`, a path pasted in the TUI, an ACP client's image blocks); past it the prompt is refused before the request. The default, 3.75 MiB, is 5 MiB as base64: Anthropic's limit per image; 0 refuses every image.",
  }),
  maxLongEdge: Schema.integer({
    min: 1,
    max: 100_000,
    default: 8000,
    description:
      "Pixels of a prompt image's longer side, read from its header without decoding; a PNG or JPEG past it is scaled down to fit (other types are refused before the request). The default is Anthropic's limit (it refuses an image past 8000 px and itself scales one past 1568 px).",
  }),
  maxScaleMegapixels: Schema.integer({
    min: 1,
    max: 400,
    default: 100,
    description:
      'Megapixels of the largest image tack decodes to scale it down (about 13 bytes a pixel in memory while it does, measured: 1.3 GB for 100 megapixels); a larger one past maxLongEdge is refused before the request.',
  }),
})

export const LlmConfig = Schema.object({
  retry: RetryConfig,
  images: PromptImagesConfig,
  endpoints: endpointsField(
    'Named model endpoints; a model `<name>/<model>` is served by endpoint `<name>` (overrides a built-in provider of that name).',
  ),
  baseUrl: Schema.json<string | undefined>({
    allowed: 'an http(s) URL',
    default: undefined,
    description:
      "Overrides the base URL of every provider whose endpoint sets none (the CLI's --base-url), e.g. a local llama.cpp server.",
    test: (v): v is string => typeof v === 'string' && isHttpUrl(v),
  }).optional(),
  firstByteTimeoutMs: Schema.integer({
    min: 0,
    max: 3600000,
    default: 300000,
    description:
      "Milliseconds from sending a model request to the response's headers; past it the request fails TIMEOUT (transient: retried up to retry.maxStallAttempts). Raise it for a local server that reads a long prompt before it answers; 0 disables.",
  }),
  idleTimeoutMs: Schema.integer({
    min: 0,
    max: 3600000,
    default: 300000,
    description:
      'Milliseconds a model response may send no bytes while tack waits for them (SSE keep-alives and pings count; a slow reader does not); past it the request fails TIMEOUT: retried up to retry.maxStallAttempts before the first chunk, an error after it. 0 disables.',
  }),
  scripted: Schema.boolean({
    default: true,
    description: 'Serve `scripted/<file.json>` models that play script entries from a file (AL-21).',
  }),
})
export type LlmConfig = ConfigOf<typeof LlmConfig>
export type RetryConfig = ConfigOf<typeof RetryConfig>
export type PromptImagesConfig = ConfigOf<typeof PromptImagesConfig>
