// P4's compaction scenario (35-compaction.md CP-6): the real `tack run` against the loopback server, a
// long session in a small window with compaction on. Summary requests (recognised by compaction's
// system prompt) are answered with a summary; every other request gets the next step. Between consecutive
// loop requests the earlier message list should be a prefix of the next except right after a compaction:
// exactly one break per compaction, measured here, not asserted.
import { SUMMARY_SYSTEM_PROMPT } from '@tack/compaction'
import type { LoggedRequest, LoopbackEntry } from '@tack/llm/testing'
import { measureTackRun } from '../lib/tack-run.ts'
import { isPrefix } from './run.ts'

const STEPS = 100
const WINDOW = 16384

export interface CompactionFigures {
  readonly steps: number
  readonly window: number
  readonly exitCode: number | null
  /** Loop requests (summary requests excluded). */
  readonly requests: number
  readonly compactions: number
  readonly breaks: number
}

function isSummaryRequest(request: LoggedRequest): boolean {
  const messages = (request.body as { messages?: Array<{ role?: string; content?: unknown }> }).messages ?? []
  return messages[0]?.role === 'system' && messages[0].content === SUMMARY_SYSTEM_PROMPT
}

function script(): LoopbackEntry[] {
  let step = 0
  let summaries = 0
  const next = (request: LoggedRequest): LoopbackEntry => {
    if (isSummaryRequest(request))
      return { kind: 'text', text: `summary ${++summaries}: the agent printed numbers ${step} times` }
    step++
    if (step >= STEPS) return { kind: 'text', text: 'done' }
    return { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: `seq ${step} ${step + 300}` } }] }
  }
  // One entry per request; the summary requests need a few more than the steps.
  return Array.from({ length: STEPS + 20 }, () => ({ kind: 'respond', respond: next }) as LoopbackEntry)
}

export async function compactionScenario(): Promise<CompactionFigures> {
  const r = await measureTackRun({
    script: script(),
    task: 'print numbers a hundred times',
    pluginsYaml: `  compaction:\n    contextWindow: ${WINDOW}\n    retainTokens: 3000\n`,
  })
  const loop = r.requests.filter((q) => !isSummaryRequest(q))
  const compactions = r.requests.length - loop.length
  let breaks = 0
  for (let i = 1; i < loop.length; i++) if (!isPrefix(loop[i - 1], loop[i])) breaks++
  return { steps: STEPS, window: WINDOW, exitCode: r.exitCode, requests: loop.length, compactions, breaks }
}
