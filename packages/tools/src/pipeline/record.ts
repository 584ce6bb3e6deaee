// Appends the pipeline's log-only events (log-events.ts) to the call's session, when the call has an
// agent. Without one (a bare registry, a test) there is no log to write to and nothing is recorded.
import type { SessionEventMap } from '@tack/session'
import type { TOOLS_LOG_EVENTS } from '../log-events.ts'
import type { ToolAgent } from '../types.ts'

export type ToolsLogEvent = (typeof TOOLS_LOG_EVENTS)[number]

export type Recorder = <T extends ToolsLogEvent>(type: T, data: SessionEventMap[T]) => void

export function recorderFor(agent: ToolAgent | undefined): Recorder {
  return (type, data) => {
    agent?.session.append(type, data)
  }
}
