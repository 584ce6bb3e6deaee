// R18: which tool results start background work and which events end it. Reads tool results and
// task-notification text only to pull out ids; none of that text is kept.
import type { Ev } from './host-api.ts'
import { isRecord } from './values.ts'

export type Start = { id: string; kind: 'agent' | 'proc' }

const TERMINAL = new Set([
  'completed',
  'failed',
  'killed',
  'stopped',
  'cancelled',
  'canceled',
  'error',
  'timeout',
])

/** A successful call's result: not a deny, not an error. */
export function toolResponse(outcome: unknown): Record<string, unknown> | null {
  if (!isRecord(outcome) || 'deny' in outcome || outcome.isError === true) return null
  return isRecord(outcome.result) ? outcome.result : null
}

export function backgroundStartOf(tool: unknown, response: Record<string, unknown>): Start | null {
  const id = (value: unknown) => (typeof value === 'string' ? value : '')
  if (tool === 'Bash' && id(response.backgroundTaskId))
    return { id: id(response.backgroundTaskId), kind: 'proc' }
  if (tool === 'Monitor' && id(response.taskId)) return { id: id(response.taskId), kind: 'proc' }
  if (tool === 'Agent' && response.status === 'async_launched' && id(response.agentId))
    return { id: id(response.agentId), kind: 'agent' }
  if (
    tool === 'Workflow' &&
    (response.status === 'async_launched' || response.status === 'remote_launched') &&
    id(response.taskId)
  )
    return { id: id(response.taskId), kind: 'agent' }
  return null
}

/** A successful TaskStop ends `input.task_id`, or `shell_id`. */
export function taskStopId(e: Ev): string {
  const input = isRecord(e.input) ? e.input : e
  for (const key of ['task_id', 'shell_id']) {
    const v = input[key] ?? e[key]
    if (typeof v === 'string' && v !== '') return v
  }
  return ''
}

/** The ids of every `<task-notification>` block whose `<status>` is terminal. */
export function endedTaskIds(text: unknown): string[] {
  if (typeof text !== 'string') return []
  const ids: string[] = []
  for (const block of text.matchAll(/<task-notification>([\s\S]*?)<\/task-notification>/g)) {
    const id = /<task-id>\s*([^<]*?)\s*<\/task-id>/.exec(block[1])?.[1]
    const status = /<status>\s*([^<]*?)\s*<\/status>/.exec(block[1])?.[1]
    if (id && status && TERMINAL.has(status.toLowerCase())) ids.push(id)
  }
  return ids
}
