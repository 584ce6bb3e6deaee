// P4 prompt-cache stability: a 50-step scripted session with no header change and no compaction,
// through the real `tack run` against the loopback server. For each consecutive pair of requests the
// earlier message list must be a byte-identical prefix of the later one (and system and tools equal);
// the ratio of pairs that hold is printed (budget 1.00). The same session with 50 skills (skills.ts): the
// ratio again, and the first request's growth against the catalog and the skill tool. Then the compaction scenario (35-compaction.md
// CP-6): a long session in a small window, where each compaction should break the prefix exactly once.
import type { LoggedRequest, LoopbackEntry } from '@tack/llm/testing'
import { measureTackRun } from '../lib/tack-run.ts'
import { compactionScenario } from './compaction.ts'
import { SKILLS, skillsScenario } from './skills.ts'

const STEPS = 50

function script(): LoopbackEntry[] {
  const entries: LoopbackEntry[] = []
  for (let i = 1; i < STEPS; i++) {
    entries.push({ kind: 'tool-calls', calls: [{ name: 'bash', args: { command: `echo step ${i}` } }] })
  }
  entries.push({ kind: 'text', text: 'done' })
  return entries
}

interface ChatBody {
  messages: unknown[]
  tools?: unknown
  [key: string]: unknown
}

/** Whether `prev`'s messages are a byte-identical prefix of `next`'s and everything else is equal. */
export function isPrefix(prev: LoggedRequest, next: LoggedRequest): boolean {
  const a = prev.body as ChatBody
  const b = next.body as ChatBody
  if (b.messages.length < a.messages.length) return false
  for (let i = 0; i < a.messages.length; i++) {
    if (JSON.stringify(a.messages[i]) !== JSON.stringify(b.messages[i])) return false
  }
  const { messages: _a, ...restA } = a
  const { messages: _b, ...restB } = b
  return JSON.stringify(restA) === JSON.stringify(restB)
}

if (import.meta.main) {
  const r = await measureTackRun({ script: script(), task: 'run fifty steps' })
  const reqs = r.requests
  let held = 0
  for (let i = 1; i < reqs.length; i++) if (isPrefix(reqs[i - 1], reqs[i])) held++
  const ratio = reqs.length > 1 ? held / (reqs.length - 1) : 0
  console.log(
    `P4 prompt-prefix stability: ${reqs.length} requests of a ${STEPS}-step session (exit ${r.exitCode})`,
  )
  console.log(
    `  pairs where the earlier request is a byte-identical prefix of the next: ${held}/${reqs.length - 1}`,
  )
  console.log(`  ratio ${ratio.toFixed(2)}   budget 1.00 ${ratio === 1 ? 'ok' : 'OVER'}`)
  const s = await skillsScenario(script(), reqs[0] as LoggedRequest)
  const sRatio = s.requests > 1 ? s.held / (s.requests - 1) : 0
  const growth = s.firstBytes - s.baselineFirstBytes
  const allowed = s.catalogBytes + s.toolBytes
  console.log(
    `  with ${SKILLS} skills: ${s.requests} requests (exit ${s.exitCode}), prefix pairs held ${s.held}/${s.requests - 1}`,
  )
  console.log(`  ratio ${sRatio.toFixed(2)}   budget 1.00 ${sRatio === 1 ? 'ok' : 'OVER'}`)
  console.log(
    `  first request ${s.firstBytes} bytes vs ${s.baselineFirstBytes} without skills: +${growth} = catalog ${s.catalogBytes} + skill tool ${s.toolBytes}${growth === allowed ? '' : ` (${growth - allowed} unexplained)`}   ${growth <= allowed ? 'ok' : 'OVER'}`,
  )
  const c = await compactionScenario()
  console.log(
    `  compaction scenario: ${c.requests} loop requests of a ${c.steps}-step session in a ${c.window}-token window (exit ${c.exitCode})`,
  )
  console.log(
    `  compactions ${c.compactions}, prefix breaks ${c.breaks}: ${c.compactions ? (c.breaks / c.compactions).toFixed(2) : '—'} per compaction   budget 1.00 ${c.compactions > 0 && c.breaks === c.compactions ? 'ok' : 'OVER'}`,
  )
  console.log(
    JSON.stringify({
      id: 'P4',
      requests: reqs.length,
      held,
      ratio,
      compaction: { compactions: c.compactions, breaks: c.breaks, requests: c.requests },
      skills: {
        skills: SKILLS,
        requests: s.requests,
        held: s.held,
        ratio: sRatio,
        growth,
        catalogBytes: s.catalogBytes,
        toolBytes: s.toolBytes,
      },
    }),
  )
  if (ratio !== 1 || r.exitCode !== 0 || sRatio !== 1 || s.exitCode !== 0 || growth > allowed)
    process.exitCode = 1
}
