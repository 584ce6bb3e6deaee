// R23–R25: `status`, `watch` and `tmux`, over the snapshots R22 reads. Each takes its streams and
// environment as arguments, so `tack state …` runs the very same code.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { type Entry, folders, readEntries } from './snapshots.ts'
import { printable, renderJson, renderTable } from './table.ts'

export type Io = {
  stdout: { write(text: string): unknown; isTTY?: boolean }
  stderr: { write(text: string): unknown }
  env: NodeJS.ProcessEnv
  /** Resolves a relative `TACK_HOME`; default the process's working folder. */
  cwd?: string
  now?: () => number
}

export type Selection = { dirs: string[]; staleAfterMs?: number }

export class UsageError extends Error {}

const clock = (io: Io) => io.now?.() ?? Date.now()

async function load(io: Io, sel: Selection, warned: Set<string>): Promise<Entry[]> {
  const dirs = folders(sel.dirs, io.env, io.cwd)
  for (const dir of dirs) {
    // a folder asked for by name that is not there is worth a word; the defaults are only read if present
    if (existsSync(dir) || warned.has(dir)) continue
    warned.add(dir)
    io.stderr.write(`agent-state: no folder ${printable(dir)}\n`)
  }
  return readEntries(dirs, {
    now: clock(io),
    staleAfterMs: sel.staleAfterMs,
    onNewerSchema: (file, schema) => {
      // R26: shown anyway, after one warning
      if (warned.has(file)) return
      warned.add(file)
      io.stderr.write(
        `agent-state: ${printable(file)} has schema ${printable(String(schema))}, newer than this reader's 1; showing what it knows\n`,
      )
    },
  })
}

export type StatusOptions = Selection & { prefix?: string; json: boolean; all: boolean }

/** The text (or JSON line) `status` prints, or `null` with the exit code when the prefix matches nothing. */
async function statusText(io: Io, o: StatusOptions, warned: Set<string>): Promise<string | null> {
  const now = clock(io)
  let entries = await load(io, o, warned)
  if (o.prefix !== undefined) {
    const prefix = o.prefix
    entries = entries.filter((e) => e.liveness !== 'unreadable' && e.snapshot.session_id.startsWith(prefix))
    if (entries.length === 0) return null
  }
  if (!o.all) entries = entries.filter((e) => e.liveness === 'live')
  if (o.json) return renderJson(entries, now)
  if (entries.length === 0) return o.all ? 'No sessions.\n' : 'No live sessions.\n'
  return renderTable(entries, now)
}

export async function status(io: Io, o: StatusOptions): Promise<number> {
  const text = await statusText(io, o, new Set())
  if (text === null) {
    io.stderr.write(`No session matches ${printable(o.prefix ?? '')}\n`)
    return 1
  }
  io.stdout.write(text)
  return 0
}

export type WatchOptions = Selection & { all: boolean; intervalMs: number; count?: number }

const HIDE_CURSOR = '\x1b[?25l'
const SHOW_CURSOR = '\x1b[?25h'
const HOME_AND_CLEAR = '\x1b[H\x1b[2J'

/** R24: redraws in place on a TTY; elsewhere prints each table that differs from the last. */
export async function watch(
  io: Io,
  o: WatchOptions,
  signals: NodeJS.EventEmitter = process,
): Promise<number> {
  const tty = io.stdout.isTTY === true
  const warned = new Set<string>()
  let stop: (() => void) | null = null
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  const onSignal = () => stop?.()
  signals.once('SIGINT', onSignal)
  signals.once('SIGTERM', onSignal)
  if (tty) io.stdout.write(HIDE_CURSOR)
  try {
    let last: string | null = null
    let renders = 0
    for (;;) {
      const text = (await statusText(io, { ...o, json: false }, warned)) ?? ''
      if (tty) {
        io.stdout.write(HOME_AND_CLEAR + text)
        renders++
      } else if (text !== last) {
        io.stdout.write(`${text}\n`)
        renders++
      }
      last = text
      if (o.count !== undefined && renders >= o.count) return 0
      let timer: NodeJS.Timeout | undefined
      const interrupted = await Promise.race([
        stopped.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), o.intervalMs))),
      ])
      clearTimeout(timer)
      if (interrupted) return 0
    }
  } finally {
    signals.off('SIGINT', onSignal)
    signals.off('SIGTERM', onSignal)
    if (tty) io.stdout.write(SHOW_CURSOR)
  }
}

export type TmuxOptions = Selection & { cwd?: string; format?: string; style: 'plain' | 'tmux' }

export type Counts = { permission: number; working: number; idle: number; stale: number; total: number }

export function countSessions(entries: Entry[], cwd?: string): Counts {
  const counts: Counts = { permission: 0, working: 0, idle: 0, stale: 0, total: 0 }
  const under = cwd === undefined ? null : resolve(cwd)
  for (const e of entries) {
    if (e.liveness === 'unreadable' || e.liveness === 'ended') continue
    const dir = e.snapshot.cwd
    if (under !== null && dir !== under && !dir.startsWith(under === '/' ? '/' : `${under}/`)) continue
    if (e.liveness === 'stale') {
      counts.stale++
      continue
    }
    counts.total++
    const state = e.snapshot.state
    if (state === 'permission') counts.permission++
    else if (state === 'working' || state === 'tool') counts.working++
    else counts.idle++
  }
  return counts
}

export function tmuxLine(c: Counts, o: Pick<TmuxOptions, 'format' | 'style'>): string {
  const red = (text: string) => (o.style === 'tmux' ? `#[fg=red]${text}#[default]` : text)
  if (o.format !== undefined) {
    return o.format.replace(/\{(permission|working|idle|stale|total)\}/g, (_m, key: keyof Counts) =>
      key === 'permission' && c.permission > 0 ? red(String(c.permission)) : String(c[key]),
    )
  }
  const parts: string[] = []
  if (c.permission > 0) parts.push(red(`perm:${c.permission}`))
  if (c.working > 0) parts.push(`work:${c.working}`)
  if (c.idle > 0) parts.push(`idle:${c.idle}`)
  return parts.join(' ')
}

/** R25: one line for a status bar; always exits 0 and keeps errors off stdout. */
export async function tmux(io: Io, o: TmuxOptions): Promise<number> {
  try {
    const entries = await load(io, o, new Set())
    io.stdout.write(`${tmuxLine(countSessions(entries, o.cwd), o)}\n`)
  } catch (error) {
    io.stderr.write(`agent-state tmux: ${printable((error as Error).message)}\n`)
  }
  return 0
}
