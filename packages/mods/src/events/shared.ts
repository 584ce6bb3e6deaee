// What every event mapping shares: the host, the kernel context and the session → agent index.
import type { Agent } from '@tack/agent'
import { blockText } from '@tack/session'
import type { ContentBlock, Content, Session } from '@tack/session'
import type { Context } from 'cordis'
import type { ModHost } from '../host.ts'

export interface Mapping {
  readonly ctx: Context
  readonly host: ModHost
  /** The agent a session belongs to (top-level and subagents alike). */
  agentOf(session: Session): Agent | undefined
}

export function textOf(content: Content | readonly ContentBlock[]): string {
  return typeof content === 'string' ? content : content.map(blockText).join('\n')
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The core of an observe-only event: an echo of the fields the result keeps. */
export const echo =
  (...keys: string[]) =>
  async (e: Readonly<Record<string, unknown>>) =>
    Object.fromEntries(keys.filter((k) => k in e).map((k) => [k, e[k]]))

/**
 * Settles when `work` does or `signal` aborts, whichever is first: a turn cancelled (Ctrl-C, Esc, an ACP
 * cancel) while it waits for a hook must not wait out the hook's budget (docs/decisions/0190-mod-loading-and-release-bounds.md).
 */
export function untilCancelled(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<unknown> {
  if (!signal) return work
  if (signal.aborted) return Promise.resolve()
  let onAbort = () => {}
  const cancelled = new Promise<void>((resolve) => {
    onAbort = resolve
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return Promise.race([work, cancelled]).finally(() => signal.removeEventListener('abort', onAbort))
}
