import { type ConfigOf, Schema } from '@tack/kernel'

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
})

export const LlmConfig = Schema.object({
  retry: RetryConfig,
})
export type LlmConfig = ConfigOf<typeof LlmConfig>
