// The `llm` plugin: retry policy for every adapter it registers (providers arrive with their own
// files), and `llm/retry` notifications.
import { definePlugin, emitSafely } from '@tack/kernel'
import type { LlmAdapter } from '@tack/agent'
import type { Context } from 'cordis'
import { LlmConfig } from './config.ts'
import { type RetryPolicy, withRetry } from './retry.ts'

export class LlmProviders {
  readonly #ctx: Context
  readonly policy: RetryPolicy
  constructor(ctx: Context, policy: RetryPolicy) {
    this.#ctx = ctx
    this.policy = policy
  }
  /** Registers `adapter` for `models` behind the configured retry policy; returns the disposer. */
  register(models: readonly string[], adapter: LlmAdapter): () => void {
    const ctx = this.#ctx
    return ctx.llm.registerAdapter(
      models,
      withRetry(adapter, this.policy, { onRetry: (info) => emitSafely(ctx, 'llm/retry', info) }),
    )
  }
}

export const LlmPlugin = definePlugin({
  name: 'llm',
  Config: LlmConfig,
  inject: ['llm'],
  apply(ctx, config) {
    ctx.provide('llmProviders', new LlmProviders(ctx, config.retry))
  },
})

declare module 'cordis' {
  interface Context {
    llmProviders: LlmProviders
  }
}
