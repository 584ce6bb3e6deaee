// A running call's progress reports (ToolCallContext.progress) as `tool/progress` log events, for the
// people watching (the TUI card, ACP's tool_call_update); the model never reads them. A chatty tool
// cannot flood the log: reports closer than `progressIntervalMs` to the last logged one are dropped,
// and nothing is logged once the body has settled, so the call's `tool/result` stays its last word.
import type { ToolProgress } from '../types.ts'
import type { Recorder } from './record.ts'

/** The longest message kept; a progress line is one line on a card, not a log of its own. */
const MESSAGE_MAX_CHARS = 500

export interface ProgressRecorder {
  readonly report: (update: ToolProgress) => void
  /** The body settled: later reports are dropped. */
  end(): void
}

export function progressRecorder(callId: string, intervalMs: number, record: Recorder): ProgressRecorder {
  let ended = false
  let last = Number.NEGATIVE_INFINITY
  return {
    report: (update) => {
      const now = performance.now()
      if (ended || now - last < intervalMs) return
      const event = progressEvent(callId, update)
      if (!event) return
      last = now
      record('tool/progress', event)
    },
    end: () => {
      ended = true
    },
  }
}

/** A logged report as one line for people: `2/5 indexing`, `40 indexing` (no total), or the message alone. */
export function progressText(data: { readonly [key: string]: unknown }): string {
  const count =
    typeof data.progress !== 'number'
      ? ''
      : typeof data.total === 'number'
        ? `${data.progress}/${data.total}`
        : String(data.progress)
  const message = typeof data.message === 'string' ? data.message : ''
  return [count, message].filter((part) => part !== '').join(' ')
}

/** The event for a report, with only well-formed fields; undefined when nothing is left to show. */
function progressEvent(callId: string, update: ToolProgress) {
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
  const message =
    typeof update?.message === 'string' && update.message.trim() !== ''
      ? update.message.slice(0, MESSAGE_MAX_CHARS)
      : undefined
  const progress = finite(update?.progress) ? update.progress : undefined
  const total = finite(update?.total) && update.total > 0 ? update.total : undefined
  if (message === undefined && progress === undefined) return undefined
  return {
    callId,
    ...(message !== undefined && { message }),
    ...(progress !== undefined && { progress }),
    ...(total !== undefined && { total }),
  }
}
