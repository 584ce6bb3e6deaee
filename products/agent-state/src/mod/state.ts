// The mod's memory for one session (R10, R14, R17, R18) and the transitions on it. Nothing here calls the
// host: the hooks in register.ts feed events in, and writer.ts turns `dirty` and `queue` into files.
import type { HostName } from './folder.ts'
import { SIGNAL_MAX } from './values.ts'

export type Limits = {
  /** R7: the log rolls to `.jsonl.1` when a batch would take it past this many characters. */
  logCapChars: number
  /** R13: the bound on session end's wait for the write carrying `ended`. */
  endWaitMs: number
}

export const DEFAULT_LIMITS: Limits = { logCapChars: 1_000_000, endWaitMs: 1_000 }

export const SCHEMA = 1
export const HEARTBEAT_MS = 30_000
export const QUEUE_MAX = 5_000
const CALLS_MAX = 100
const USAGE_KEYS_MAX = 200
const BACKGROUND_MAX = 50
const DIALOG_TOOLS = new Set(['AskUserQuestion', 'ExitPlanMode', 'EnterPlanMode'])

export type StateName = 'idle' | 'working' | 'tool' | 'permission' | 'ended'
type Call = { tool: string; asking: number }
type Sum = {
  turn: string
  model: string
  sub: boolean
  input: number
  output: number
  cacheRead: number
  cacheCreation: number
}

export type Files = {
  snapshot: string
  log: string
  previousLog: string
  /** The default folder (R4), the mod's own: made owner-only at the first write. null: a configured one. */
  ownFolder: string | null
}

/** What an open learns from the host. `files` is null with no folder or no usable id: nothing is kept. */
export type Opening = {
  host: HostName
  version: string | null
  id: string
  cwd: string
  startedMs: number | null
  files: Files | null
}

export type Session = Opening & {
  limits: Limits
  phase: 'none' | 'open' | 'ended'
  /** Host clock minus Date.now(), refreshed at open and each beat, so stamps follow `$.clock.now`. */
  clockOffset: number
  state: StateName
  tool: string | null
  stateSince: number
  turnOpen: boolean
  turnCounter: number
  calls: Map<string, Call>
  callSeq: number
  signals: Map<string, { value: string; at_ms: number }>
  sums: Map<string, Sum>
  running: Map<string, 'agent' | 'proc'>
  earlyEnds: Set<string>
  /** Bumped on each prompt.submit (R15 drafts). */
  submitSeq: number
  /** Bumped whenever the prompt box changes (R15 suggestions). */
  boxSeq: number
  // Writer (R9)
  queue: string[]
  dirty: boolean
  batchDue: boolean
  direct: boolean
  /** Whether this open's files have been made owner-only where the host leaves that to the mod. */
  privateDone: boolean
  running_write: Promise<void> | null
  timer: { cancel(): unknown } | null
  /** Work waiting for a pending open (R13 reopening), chained in arrival order. */
  opening: Promise<void> | null
  /** Set when an event after an end has started a reopen, so only the first one does (R13). */
  reopenPending: boolean
  /** Bumped at each open, so a late timer or write of an earlier session is recognised. */
  generation: number
}

export function newSession(limits: Limits): Session {
  return {
    limits,
    phase: 'none',
    host: 'claude-code',
    version: null,
    id: '',
    cwd: '',
    startedMs: null,
    files: null,
    clockOffset: 0,
    state: 'idle',
    tool: null,
    stateSince: 0,
    turnOpen: false,
    turnCounter: 0,
    calls: new Map(),
    callSeq: 0,
    signals: new Map(),
    sums: new Map(),
    running: new Map(),
    earlyEnds: new Set(),
    submitSeq: 0,
    boxSeq: 0,
    queue: [],
    dirty: false,
    batchDue: false,
    direct: false,
    privateDone: false,
    running_write: null,
    timer: null,
    opening: null,
    reopenPending: false,
    generation: 0,
  }
}

export function now(s: Session): number {
  return Date.now() + s.clockOffset
}

/** R13 open: a fresh session, logged as `session_start` then `state idle`. */
export function open(s: Session, o: Opening): void {
  s.phase = 'open'
  s.generation++
  s.reopenPending = false
  s.host = o.host
  s.version = o.version
  s.id = o.id
  s.cwd = o.cwd.slice(0, 1000)
  s.startedMs = o.startedMs
  s.files = o.files
  s.direct = false
  s.privateDone = false
  s.turnOpen = false
  s.calls.clear()
  s.signals.clear()
  s.sums.clear()
  s.running.clear()
  s.earlyEnds.clear()
  s.queue.length = 0
  s.state = 'idle'
  s.tool = null
  s.stateSince = now(s)
  log(s, {
    kind: 'session_start',
    schema: SCHEMA,
    host: s.host,
    version: s.version,
    cwd: s.cwd,
    session_started_ms: s.startedMs,
  })
  log(s, { kind: 'state', state: 'idle', tool: null })
  s.dirty = s.files !== null
  s.batchDue = true
}

/** Queues one log line (R7); dropped when nothing is kept for writing. */
export function log(s: Session, line: Record<string, unknown>): void {
  if (s.files === null) return
  s.queue.push(`${JSON.stringify({ t: now(s), ...line })}\n`)
  if (s.queue.length > QUEUE_MAX) s.queue.splice(0, s.queue.length - QUEUE_MAX)
}

export function touch(s: Session): void {
  if (s.files !== null) s.dirty = true
}

/** R10: the state is the first that applies; only a change of (state, tool) is logged. */
export function refresh(s: Session): void {
  let state: StateName = 'working'
  let tool: string | null = null
  if (s.phase === 'ended') state = 'ended'
  else if (!s.turnOpen) state = 'idle'
  else {
    let asking: Call | null = null
    let latest: Call | null = null
    for (const call of s.calls.values()) {
      latest = call
      if (call.asking > 0 && (asking === null || call.asking > asking.asking)) asking = call
    }
    if (asking !== null) [state, tool] = ['permission', asking.tool]
    else if (latest !== null) [state, tool] = ['tool', latest.tool]
  }
  if (state === s.state && tool === s.tool) return
  s.state = state
  s.tool = tool
  s.stateSince = now(s)
  log(s, { kind: 'state', state, tool })
  touch(s)
}

/** R14: a state signal is recorded only when its value changes (absent counts as `''`). */
export function setSignal(s: Session, signal: string, value: string): void {
  const v = value.slice(0, SIGNAL_MAX)
  if ((s.signals.get(signal)?.value ?? '') === v) return
  recordSignal(s, signal, v)
}

/** R14: an event signal is recorded every time. */
export function recordSignal(s: Session, signal: string, value: string): void {
  const v = value.slice(0, SIGNAL_MAX)
  s.signals.set(signal, { value: v, at_ms: now(s) })
  log(s, { kind: 'signal', signal, value: v })
  touch(s)
}

export function turnStart(s: Session): void {
  s.turnOpen = true
  s.turnCounter++
  s.calls.clear()
  s.boxSeq++
  setSignal(s, 'suggest', '')
  refresh(s)
}

export function turnComplete(
  s: Session,
  turnId: unknown,
  main: boolean,
  reason: unknown,
  reasonWord: string,
): void {
  logUsage(s, turnId)
  if (!main) return
  s.turnOpen = false
  s.calls.clear()
  refresh(s)
  recordSignal(s, 'turn_end', typeof reason === 'string' && reason !== '' ? reasonWord : 'answer')
  s.batchDue = true
}

/** R10: a call counts only while a main turn is open; returns its key, or null when not tracked. */
export function callStart(s: Session, toolUseId: unknown, tool: string): string | null {
  if (s.phase !== 'open' || !s.turnOpen) return null
  const key = typeof toolUseId === 'string' && toolUseId !== '' ? toolUseId : `#${++s.callSeq}`
  if (!s.calls.has(key) && s.calls.size >= CALLS_MAX) return null
  s.calls.delete(key)
  s.calls.set(key, { tool, asking: 0 })
  refresh(s)
  return key
}

export function callSettle(s: Session, key: string | null): void {
  if (key === null || !s.calls.delete(key)) return
  refresh(s)
}

/** R11: whether an `ask` verdict counts, and if so the call it marks. */
export function verdict(
  s: Session,
  decision: unknown,
  tool: string,
  toolUseId: unknown,
  turnAtCheck: number,
): void {
  if (decision !== 'ask' || DIALOG_TOOLS.has(tool)) return
  if (s.phase !== 'open' || !s.turnOpen || s.turnCounter !== turnAtCheck) return
  let call = typeof toolUseId === 'string' ? s.calls.get(toolUseId) : undefined
  if (call === undefined) for (const c of s.calls.values()) if (c.tool === tool) call = c
  if (call === undefined) return
  call.asking = ++s.callSeq
  refresh(s)
}

/** R17: adds one step's usage to its (turn, model) sum. */
export function addUsage(s: Session, turn: unknown, model: unknown, sub: boolean, usage: unknown): void {
  if (typeof model !== 'string' || model.length > 80 || typeof usage !== 'object' || usage === null) return
  const u = usage as Record<string, unknown>
  const parts = [u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens]
  if (!parts.every((p) => typeof p === 'number' && Number.isInteger(p) && p >= 0)) return
  const [input, output, cacheRead, cacheCreation] = parts as number[]
  const turnKey = typeof turn === 'string' ? turn : ''
  const key = `${turnKey}\u0000${model}`
  let sum = s.sums.get(key)
  if (sum === undefined) {
    sum = { turn: turnKey, model, sub: false, input: 0, output: 0, cacheRead: 0, cacheCreation: 0 }
    s.sums.set(key, sum)
    if (s.sums.size > USAGE_KEYS_MAX) s.sums.delete(s.sums.keys().next().value as string)
  }
  sum.sub ||= sub
  sum.input += input
  sum.output += output
  sum.cacheRead += cacheRead
  sum.cacheCreation += cacheCreation
}

function logUsage(s: Session, turn: unknown): void {
  const turnKey = typeof turn === 'string' ? turn : ''
  for (const [key, sum] of s.sums) {
    if (sum.turn !== turnKey) continue
    s.sums.delete(key)
    log(s, {
      kind: 'usage',
      model: sum.model,
      sub_agent: sum.sub,
      input: sum.input,
      output: sum.output,
      cache_read: sum.cacheRead,
      cache_creation: sum.cacheCreation,
    })
  }
}

/** R18: a background start; an end seen earlier cancels it. */
export function backgroundStart(s: Session, id: string, kind: 'agent' | 'proc'): void {
  if (id.length < 1 || id.length > 200) return
  if (s.earlyEnds.delete(id)) return
  s.running.delete(id)
  s.running.set(id, kind)
  if (s.running.size > BACKGROUND_MAX) s.running.delete(s.running.keys().next().value as string)
  reportBackground(s)
}

export function backgroundEnd(s: Session, id: string): void {
  if (id.length < 1 || id.length > 200) return
  if (!s.running.delete(id)) {
    s.earlyEnds.delete(id)
    s.earlyEnds.add(id)
    if (s.earlyEnds.size > BACKGROUND_MAX) s.earlyEnds.delete(s.earlyEnds.values().next().value as string)
    return
  }
  reportBackground(s)
}

function reportBackground(s: Session): void {
  let agents = 0
  let procs = 0
  for (const kind of s.running.values()) kind === 'agent' ? agents++ : procs++
  setSignal(s, 'background', agents > 0 ? String(agents) : '')
  setSignal(s, 'background_proc', procs > 0 ? String(procs) : '')
}

/** R13 end: the state becomes `ended` and the batch falls due. */
export function end(s: Session, reasonWord: string): void {
  recordSignal(s, 'session_end', reasonWord)
  s.phase = 'ended'
  s.turnOpen = false
  s.calls.clear()
  refresh(s)
  s.batchDue = true
}

/** R6: the snapshot line, keys in the documented order; `heartbeat_ms` is the time of this write. */
export function snapshotText(s: Session): string {
  return `${JSON.stringify({
    schema: SCHEMA,
    session_id: s.id,
    host: s.host,
    version: s.version,
    cwd: s.cwd,
    session_started_ms: s.startedMs,
    state: s.state,
    tool: s.tool,
    state_since_ms: s.stateSince,
    heartbeat_ms: now(s),
    heartbeat_interval_ms: HEARTBEAT_MS,
    signals: Object.fromEntries(s.signals),
  })}\n`
}
