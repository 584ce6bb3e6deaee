// @tack/tools/testing: small real tools for other packages' tests. Nothing here fakes the pipeline:
// each is an ordinary tool registered on the real registry.
import { Context, type ConfigInput } from '@tack/kernel'
import { defineTool } from '../define-tool.ts'
import { ToolsPlugin } from '../registry.ts'
import type { ToolsConfig } from '../registry.ts'

/** `echo {text}` returns its text. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Returns the given text unchanged.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to return.' } },
    required: ['text'],
  },
  execute: (args) => args.text,
})

/**
 * `slow {ms}` waits `ms` milliseconds (default 60000), then answers `waited <ms> ms`. It honours its
 * signal: an abort ends the wait at once and rejects with the signal's reason.
 */
export const slowTool = defineTool({
  name: 'slow',
  description: 'Waits, then answers; stops when cancelled.',
  parameters: {
    type: 'object',
    properties: { ms: { type: 'integer', minimum: 0, default: 60_000 } },
  },
  execute: (args, call) =>
    new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer)
        reject(call.signal.reason)
      }
      const timer = setTimeout(() => {
        call.signal.removeEventListener('abort', onAbort)
        resolve(`waited ${args.ms} ms`)
      }, args.ms)
      if (call.signal.aborted) onAbort()
      else call.signal.addEventListener('abort', onAbort, { once: true })
    }),
})

/** `fail {message?, name?}` throws an Error with that message and name. */
export const throwingTool = defineTool({
  name: 'fail',
  description: 'Always throws.',
  parameters: {
    type: 'object',
    properties: {
      message: { type: 'string', default: 'tool failed on purpose' },
      name: { type: 'string', default: 'Error' },
    },
  },
  execute: (args) => {
    const error = new Error(args.message)
    error.name = args.name
    throw error
  },
})

/** A tool whose body waits until the test releases it, so a test can act while a body runs. */
export interface GatedTool {
  readonly tool: ReturnType<typeof defineTool<{ type: 'object'; properties: {} }>>
  /** Resolves with the body's signal once the (first) body has started. */
  readonly started: Promise<AbortSignal>
  /** Lets the running body return `text`. */
  release(text?: string): void
}

/** Creates a `GatedTool` named `name` (default `gated`); its body rejects with the signal's reason on abort. */
export function createGatedTool(name = 'gated'): GatedTool {
  const { promise: started, resolve: start } = Promise.withResolvers<AbortSignal>()
  const { promise: released, resolve: release } = Promise.withResolvers<string>()
  const tool = defineTool({
    name,
    description: 'Waits until released by the test, or until cancelled.',
    parameters: { type: 'object', properties: {} },
    execute: (_args, call) => {
      start(call.signal)
      return new Promise<string>((resolve, reject) => {
        void released.then(resolve)
        if (call.signal.aborted) reject(call.signal.reason)
        else call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true })
      })
    },
  })
  return { tool, started, release: (text = 'released') => release(text) }
}

/** A fresh cordis `Context` with the tool registry loaded (config validated as in production). */
export async function createToolsContext(config: ConfigInput<typeof ToolsConfig> = {}): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, config)
  return ctx
}
export { stubAgent } from './stub-agent.ts'
export { StampToolPlugin, stampTool } from './stamp-tool.ts'
export { LabelToolPlugin, labelTool } from './label-tool.ts'
export { pluginOfTool, writeCreatingFolders } from './own-package.ts'
export { mountApprover } from './approver.ts'
export { callTool } from './call-tool.ts'
