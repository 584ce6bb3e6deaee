// R23: how sessions are shown — the ordering, the text table and the JSON line.
import { homedir } from 'node:os'
import type { Entry, Snapshot } from './snapshots.ts'

/**
 * `text` with every control character (U+0000–U+001F, DEL, U+0080–U+009F) written out as `\xNN`. A
 * snapshot's fields — its folder, tool name, signals, even its file's name — are whatever the session
 * (or whoever can write the folder) put there; printed raw, an escape sequence would be obeyed by the
 * terminal (a retitle, an erased line) and a newline would forge a row. agent-state stands alone, so
 * this is its own.
 */
export function printable(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

/** `1h02m`, `2m05s`, `12s`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

export function stateLabel(e: Entry): string {
  if (e.liveness === 'unreadable') return 'unreadable'
  if (e.liveness === 'ended') return 'ended'
  const s = e.snapshot
  const base = s.state === 'permission' || s.state === 'tool' ? `${s.state}:${s.tool ?? '?'}` : s.state
  return e.liveness === 'stale' ? `stale(${s.state})` : base
}

function group(e: Entry): number {
  if (e.liveness === 'unreadable') return 5
  if (e.liveness === 'ended') return 4
  if (e.liveness === 'stale') return 3
  const state = e.snapshot.state
  return state === 'permission' ? 0 : state === 'tool' || state === 'working' ? 1 : 2
}

/** Permission, then tool/working, idle, stale, ended (unreadable last); newest state first within a group. */
export function sortEntries(entries: Entry[]): Entry[] {
  const since = (e: Entry) => (e.liveness === 'unreadable' ? 0 : e.snapshot.state_since_ms)
  return [...entries].sort((a, b) => group(a) - group(b) || since(b) - since(a))
}

export function signalsText(s: Snapshot): string {
  const v = (name: string) => {
    const value = s.signals?.[name]?.value
    return typeof value === 'string' ? value : ''
  }
  const parts: string[] = []
  if (v('draft')) parts.push('draft')
  if (v('suggest')) parts.push('suggest')
  if (v('command')) parts.push(`cmd=${v('command')}`)
  if (v('background')) parts.push(`bg=${v('background')}`)
  if (v('background_proc')) parts.push(`proc=${v('background_proc')}`)
  if (v('context')) parts.push(`ctx=${v('context')}%`)
  if (v('quota_5h')) parts.push(`5h=${v('quota_5h')}%`)
  if (v('quota_7d')) parts.push(`7d=${v('quota_7d')}%`)
  return parts.join(' ')
}

export function tildePath(path: string, home = process.env.HOME || homedir()): string {
  if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`
  return path
}

const HEADER = ['SESSION', 'HOST', 'STATE', 'FOR', 'BEAT', 'CWD', 'SIGNALS']

export function renderTable(entries: Entry[], now: number): string {
  const rows = sortEntries(entries).map((e) => row(e, now).map(printable))
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  return [line(HEADER), ...rows.map(line)].join('\n') + '\n'
}

/** A session's cells, as the snapshot has them (escaped by the caller). */
function row(e: Entry, now: number): string[] {
  if (e.liveness === 'unreadable') {
    const base = e.file.split('/').at(-1) ?? e.file
    return [base.slice(0, 8), '?', 'unreadable', '', '', e.file, '']
  }
  const s = e.snapshot
  return [
    s.session_id.slice(0, 8),
    s.host === 'tack' ? 'tack' : 'claude',
    stateLabel(e),
    duration(now - s.state_since_ms),
    duration(now - s.heartbeat_ms),
    tildePath(s.cwd),
    signalsText(s),
  ]
}

export function renderJson(entries: Entry[], now: number): string {
  const sessions = sortEntries(entries).map((e) =>
    e.liveness === 'unreadable'
      ? { liveness: e.liveness, file: e.file }
      : { ...e.snapshot, liveness: e.liveness, age_ms: e.age_ms, file: e.file },
  )
  return `${JSON.stringify({ schema: 1, now_ms: now, sessions })}\n`
}
