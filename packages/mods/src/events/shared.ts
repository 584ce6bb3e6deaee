// What every event mapping shares: the host, the kernel context and the session → agent index.
import type { Agent } from '@tack/agent'
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
  return typeof content === 'string' ? content : content.map((b) => b.text).join('\n')
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The core of an observe-only event: an echo of the fields the result keeps. */
export const echo =
  (...keys: string[]) =>
  async (e: Readonly<Record<string, unknown>>) =>
    Object.fromEntries(keys.filter((k) => k in e).map((k) => [k, e[k]]))
