import type { SessionEvent } from '@tack/session'

export const user = (content: string) => ({ content, source: { kind: 'user' as const } })
export const plugin = (name: string, content: string) => ({
  content,
  source: { kind: 'plugin' as const, name },
})

/** Event types with the noise of chunks collapsed to one `assistant/chunk…` marker per run. */
export function shape(events: readonly SessionEvent[]): string[] {
  const out: string[] = []
  for (const e of events) {
    if (e.type === 'assistant/chunk') {
      if (out[out.length - 1] !== 'assistant/chunk…') out.push('assistant/chunk…')
      continue
    }
    out.push(e.type)
  }
  return out
}

export function textOf(e: SessionEvent): string {
  const data = e.data as { content?: ReadonlyArray<{ type: string; text?: string }> }
  return (data.content ?? []).map((b) => b.text ?? '').join('')
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** Resolves once an event matching `match` is in the agent's log (checked on every append). */
export function waitForEvent(
  session: { events(): readonly SessionEvent[]; subscribe(fn: (e: SessionEvent) => void): () => void },
  match: (e: SessionEvent) => boolean,
): Promise<SessionEvent> {
  const existing = session.events().find(match)
  if (existing) return Promise.resolve(existing)
  return new Promise((resolve) => {
    const off = session.subscribe((e) => {
      if (match(e)) {
        off()
        resolve(e)
      }
    })
  })
}
