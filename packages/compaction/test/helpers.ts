// A test agent with the compaction plugin, a `note` tool whose result is a given size, and a second
// scripted model that writes the summaries (so the main script is not interleaved with them).
import {
  createScriptedModel,
  createTestAgent,
  type ScriptEntry,
  type TestAgent,
  text,
  toolCalls,
} from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import type { Message, SessionEvent } from '@tack/session'
import { CompactionPlugin } from '../src/index.ts'

export const SUMMARY_MODEL = 'scripted/summary'

export interface CompactionTestAgent extends TestAgent {
  readonly summaries: ReturnType<typeof createScriptedModel>
}

export async function compactionAgent(opts: {
  script?: readonly ScriptEntry[]
  config?: Record<string, unknown>
  summaries?: readonly ScriptEntry[]
  agent?: Record<string, unknown>
  noteChars?: number
}): Promise<CompactionTestAgent> {
  const summaries = createScriptedModel(opts.summaries ?? [])
  const noteChars = opts.noteChars ?? 400
  const t = await createTestAgent({
    script: opts.script ?? [],
    config: { agent: { maxStepsPerTurn: 1000, ...(opts.agent ?? {}) } },
    plugins: [
      { plugin: CompactionPlugin, config: { summarizationModel: SUMMARY_MODEL, ...(opts.config ?? {}) } },
    ],
    setup: (ctx) => {
      ctx.modelAdapters.register([SUMMARY_MODEL], summaries.adapter)
      registerTool(
        ctx,
        defineTool({
          name: 'note',
          description: 'returns a note of a fixed size',
          parameters: { type: 'object', properties: { n: { type: 'number' } } } as const,
          execute: (args) => `note ${String(args.n)}: ${'x'.repeat(noteChars)}`,
        }),
      )
    },
  })
  return Object.assign(t, { summaries })
}

export const user = (content: string) => ({ content, source: { kind: 'user' as const } })

/** `steps` steps that each call `note` once, then a final answer. */
export function noteSteps(steps: number, final = 'done'): ScriptEntry[] {
  const entries: ScriptEntry[] = []
  for (let i = 1; i <= steps; i++) entries.push(toolCalls([{ name: 'note', args: { n: i } }]))
  entries.push(text(final))
  return entries
}

export function summaryTexts(count: number): ScriptEntry[] {
  return Array.from({ length: count }, (_, i) => text(`summary ${i + 1}: notes were taken`))
}

export function eventsOfType(events: readonly SessionEvent[], type: string): SessionEvent[] {
  return events.filter((e) => e.type === type)
}

/** No tool message without its call before it, and every call answered before the next non-tool message. */
export function pairedProperly(messages: readonly Message[]): boolean {
  const open = new Set<string>()
  for (const m of messages) {
    if (m.role === 'tool') {
      if (!open.delete(m.callId)) return false
      continue
    }
    if (open.size > 0) return false
    if (m.role === 'assistant') for (const b of m.content) if (b.type === 'tool-call') open.add(b.callId)
  }
  return open.size === 0
}

export function textOf(m: Message): string {
  return m.content.map((b) => ('text' in b ? b.text : '')).join('')
}
