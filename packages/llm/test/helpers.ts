import { type LlmFinal, type LlmRequest, type LlmResponse, ModelAdapters } from '@tack/agent'
import { Context } from '@tack/kernel'
import type { StreamChunk } from '@tack/session'
import {
  createLlmPlugin,
  createProviderAdapter,
  LlmConfig,
  type LlmRuntimeOptions,
  type ProviderKind,
} from '../src/index.ts'
import type { LoopbackServer } from '../src/testing/index.ts'

/** A canary key: long, unique, and searched for in every error and log. */
export const CANARY = 'sk-canary-7f3a9c1e5b2d4f6a8c0e'

export const ENV = {
  DEEPSEEK_API_KEY: CANARY,
  OPENAI_API_KEY: CANARY,
  ANTHROPIC_API_KEY: CANARY,
}

/** One model per wire protocol, served by the built-in provider of that kind. */
export const MODEL_OF: Record<ProviderKind, string> = {
  'openai-compatible': 'local/qwen3',
  openai: 'openai/gpt-4o',
  deepseek: 'deepseek/deepseek-chat',
  anthropic: 'anthropic/claude-sonnet-4-5',
}
export const KINDS = Object.keys(MODEL_OF) as ProviderKind[]

/** A provider adapter (no retries) pointed at the loopback server. */
export function adapterFor(server: LoopbackServer, extra: Record<string, unknown> = {}) {
  const config = LlmConfig.parse({ baseUrl: server.baseUrl, ...extra })
  return createProviderAdapter({ config, env: ENV })
}

export function request(model: string, more: Partial<LlmRequest> = {}): LlmRequest {
  return {
    config: { model },
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    ...more,
  }
}

export async function drain(response: LlmResponse): Promise<{ chunks: StreamChunk[]; final: LlmFinal }> {
  const chunks: StreamChunk[] = []
  for await (const chunk of response.chunks) chunks.push(chunk)
  return { chunks, final: await response.final }
}

/** Collects the chunks until the stream fails; returns them with the error. */
export async function drainToError(
  response: LlmResponse,
): Promise<{ chunks: StreamChunk[]; error: unknown }> {
  const chunks: StreamChunk[] = []
  try {
    for await (const chunk of response.chunks) chunks.push(chunk)
  } catch (error) {
    return { chunks, error }
  }
  throw new Error(`the stream did not fail (chunks: ${JSON.stringify(chunks)})`)
}

export function signal(): AbortSignal {
  return new AbortController().signal
}

/**
 * A kernel with only the model seam (`ctx.modelAdapters`) and the llm plugin: for tests of `llm/stream`
 * without an agent (the agent harness's request checker requires every request to come from a
 * session).
 */
export async function bootLlm(
  config: Record<string, unknown> = {},
  runtime: LlmRuntimeOptions = {},
): Promise<{ ctx: Context }> {
  const ctx = new Context()
  ctx.provide('modelAdapters', new ModelAdapters())
  await ctx.plugin(createLlmPlugin(runtime), config)
  return { ctx }
}
