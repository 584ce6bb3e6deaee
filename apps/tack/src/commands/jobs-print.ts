// How `tack jobs list` and `tack jobs show` print a job for a person (`--json` prints the JobView of
// @tack/fleet as it is). Task text, final answers and diffs come from jobs anyone with the URL submits
// and from models: the caller prints them through printableIO.
import type { AttemptView, JobView } from '@tack/fleet'

const cut = (text: string, n: number) => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > n ? `${line.slice(0, n - 1)}…` : line
}

export function ago(iso: string | undefined, now = Date.now()): string {
  if (!iso) return '-'
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (s < 90) return `${s}s ago`
  if (s < 5400) return `${Math.round(s / 60)}m ago`
  if (s < 129_600) return `${Math.round(s / 3600)}h ago`
  return `${Math.round(s / 86_400)}d ago`
}

export function listLines(jobs: readonly JobView[]): string {
  if (jobs.length === 0) return 'no jobs\n'
  const rows = jobs.map((j) => {
    const last = j.current ?? j.attempts.at(-1)
    return [
      j.id.slice(0, 8),
      j.state,
      last ? `#${last.attempt}` : '-',
      last?.worker ?? '-',
      ago(j.current?.lastEventAt ?? last?.endedAt ?? j.submittedAt),
      JSON.stringify(cut(j.spec.task, 60)),
    ]
  })
  const widths = [8, 9, 3, 18, 8].map((w, i) => Math.max(w, ...rows.map((r) => r[i].length)))
  const head = ['ID', 'STATE', '#', 'WORKER', 'UPDATED', 'TASK']
  const line = (r: string[]) =>
    `${r
      .map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c))
      .join('  ')
      .trimEnd()}\n`
  return line(head) + rows.map(line).join('')
}

function attemptLine(a: AttemptView): string {
  const session = a.sessionId ? `session ${a.sessionId}` : 'no session'
  return `  #${a.attempt}  ${a.outcome.padEnd(11)}  ${a.worker}  ${session}  started ${a.startedAt}${a.reason ? `\n      ${a.reason}` : ''}\n`
}

export function showText(job: JobView): string {
  const s = job.spec
  const out: string[] = [`job ${job.id}`]
  if (job.current)
    out.push(
      `state:     active — attempt ${job.current.attempt} of ${job.retryLimit + 1} on ${job.current.worker}, ` +
        `session ${job.current.sessionId ?? '(starting)'}, last event ${ago(job.current.lastEventAt)}`,
    )
  else out.push(`state:     ${job.state}${job.reason ? ` — ${job.reason}` : ''}`)
  out.push(`task:      ${JSON.stringify(s.task)}`)
  out.push(`repo:      ${s.repo}${s.ref ? ` at ${s.ref}` : ''}`)
  if (s.model) out.push(`model:     ${s.model}`)
  if (s.maxCostUsd !== undefined) out.push(`max cost:  $${s.maxCostUsd}`)
  const labels = Object.entries(s.labels)
  if (labels.length) out.push(`labels:    ${labels.map(([k, v]) => `${k}=${v}`).join(' ')}`)
  out.push(`submitted: ${job.submittedAt} by ${job.submittedBy}`)
  let text = `${out.join('\n')}\n`
  if (job.attempts.length) text += `attempts:\n${job.attempts.map(attemptLine).join('')}`
  const r = job.result
  if (r) {
    const usage = Object.entries(r.usage)
      .filter(([, n]) => n)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')
    text += `result:    ${r.exitReason} (attempt ${r.attempt}, session ${r.sessionId})${r.costUsd !== undefined ? `, $${r.costUsd.toFixed(4)}` : ''}${usage ? `, ${usage}` : ''}\n`
    text += `answer:\n${indent(r.finalText || '(none)')}\n`
    text += r.diff ? `diff:\n${r.diff}${r.diff.endsWith('\n') ? '' : '\n'}` : 'diff:      (no change)\n'
  }
  return text
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')
