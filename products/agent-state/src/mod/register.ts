// agent-state, the mod (70-agent-state.md). Report only (R19): every hook calls `next` once with the
// identical `e` and returns its result unchanged; all bookkeeping is wrapped so a failure here can never
// reach the session. The same file runs in Claude Code and in tack's mod host (R3), so it uses nothing but
// `$` and web globals, and is shipped type-stripped as mod/hooks/register.js (R1, R2).
import { backgroundStartOf, endedTaskIds, taskStopId, toolResponse } from './background.ts'
import { type HostName, resolveFolder } from './folder.ts'
import type { Ev, Host$, Next, On } from './host-api.ts'
import {
  addUsage,
  backgroundEnd,
  backgroundStart,
  callSettle,
  callStart,
  DEFAULT_LIMITS,
  end,
  HEARTBEAT_MS,
  type Limits,
  newSession,
  type Opening,
  open,
  recordSignal,
  type Session,
  setSignal,
  touch,
  turnComplete,
  turnStart,
  verdict,
} from './state.ts'
import { fileId, flag, isRecord, name, numberValue, word } from './values.ts'
import { pump } from './writer.ts'

/** The `.catch` every registration but `turn.step` carries: whatever failed, the event goes on. */
function pass(_$: Host$, e: Ev, next: Next): Promise<unknown> {
  return next(e)
}

/** Bookkeeping that must never reach the session (R19): whatever it throws is dropped. */
function quietly(work: () => void): void {
  try {
    work()
  } catch {}
}

async function attempt<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call()
  } catch {
    return undefined
  }
}

function isMain(e: Ev): boolean {
  return e.agentId === undefined || e.agentId === null || e.agentId === ''
}

/**
 * Runs `work` once any pending open has applied (R13: events during an open apply after it, in order).
 * `hold` makes later work wait for this one too: an open, whose host calls take a while.
 */
function whenOpen(s: Session, work: () => void | Promise<void>, hold = false): Promise<void> {
  const guarded = async () => {
    try {
      await work()
    } catch {
      // R19: bookkeeping never disturbs the session
    }
  }
  if (s.opening === null && !hold) return guarded()
  const chained = (s.opening ?? Promise.resolve()).then(guarded)
  s.opening = chained
  void chained.then(() => {
    if (s.opening === chained) s.opening = null
  })
  return chained
}

/** Applies a change to an open session and lets the writer pick it up; events after an end are ignored. */
function apply($: Host$, s: Session, change: () => void): void {
  void whenOpen(s, () => {
    if (s.phase !== 'open') return
    change()
    void pump($, s)
  })
}

async function syncClock($: Host$, s: Session): Promise<void> {
  const t = await attempt(() => $.clock.now())
  if (typeof t === 'number' && Number.isFinite(t)) s.clockOffset = t - Date.now()
}

function startedAt(usage: unknown): number | null {
  const t = isRecord(usage) ? usage.startedAt : undefined
  return typeof t === 'number' && Number.isInteger(t) && t > 1e12 && t < 1e13 ? t : null
}

/** Everything an open needs from the host (R3 host, R4 folder, R5 id, R6 start time). */
async function gather($: Host$, s: Session, outputDir: unknown, cwdHint: unknown): Promise<Opening> {
  const v = await attempt(() => $.session.version())
  const host: HostName = isRecord(v) && v.host === 'tack' ? 'tack' : 'claude-code'
  const version = typeof v === 'string' ? v : isRecord(v) && typeof v.version === 'string' ? v.version : null
  const id = fileId(await attempt(() => $.session.id()))
  const home = await attempt(() => $.env.get('HOME'))
  const tackHome = host === 'tack' ? await attempt(() => $.env.get('TACK_HOME')) : undefined
  const dir = resolveFolder(outputDir, host, home, tackHome)
  const cwd = typeof cwdHint === 'string' ? cwdHint : await attempt(() => $.session.cwd())
  const startedMs = startedAt(await attempt(() => $.session.usage()))
  await syncClock($, s)
  const base = dir === null || id === '' ? null : `${dir === '/' ? '' : dir}/${id}`
  const ownFolder =
    dir === null || dir === '/' || resolveFolder(undefined, host, home, tackHome) !== dir ? null : dir
  const files =
    base === null
      ? null
      : { snapshot: `${base}.json`, log: `${base}.jsonl`, previousLog: `${base}.jsonl.1`, ownFolder }
  return { host, version, id, cwd: typeof cwd === 'string' ? cwd : '', startedMs, files }
}

/** R13 open: gathered now, applied in order after anything already pending. */
function startOpen($: Host$, s: Session, outputDir: unknown, cwdHint: unknown): void {
  const gathered = gather($, s, outputDir, cwdHint)
  void whenOpen(
    s,
    async () => {
      const opening = await gathered
      stopHeartbeat(s)
      open(s, opening)
      void pump($, s)
      void startHeartbeat($, s)
    },
    true,
  )
}

/** R13 reopening: after an end, the first prompt, command or turn opens the session the host now has. */
function reopenIfEnded($: Host$, s: Session, outputDir: unknown): void {
  if (s.phase !== 'ended' || s.reopenPending) return
  s.reopenPending = true
  startOpen($, s, outputDir, undefined)
}

function stopHeartbeat(s: Session): void {
  const timer = s.timer
  s.timer = null
  try {
    timer?.cancel()
  } catch {
    // a host that cannot cancel still stops us: beats check the generation
  }
}

/** R12: one timer per open session; a beat of an earlier session does nothing. */
async function startHeartbeat($: Host$, s: Session): Promise<void> {
  const generation = s.generation
  const timer = await attempt(async () => $.clock.every(HEARTBEAT_MS, () => beat($, s, generation)))
  if (!isRecord(timer) || typeof timer.cancel !== 'function') return
  const handle = timer as { cancel(): unknown }
  if (s.generation !== generation || s.phase !== 'open') {
    await attempt(async () => handle.cancel())
    return
  }
  s.timer = handle
}

function beat($: Host$, s: Session, generation: number): void {
  if (s.generation !== generation || s.phase !== 'open') return
  void (async () => {
    await syncClock($, s)
    if (s.startedMs === null) s.startedMs = startedAt(await attempt(() => $.session.usage()))
    if (s.generation !== generation || s.phase !== 'open') return
    touch(s)
    s.batchDue = true
    await pump($, s)
  })()
}

/** R13 end, bounded: the write carrying `ended` is awaited for at most `endWaitMs` in total. */
async function finish($: Host$, s: Session, reason: string): Promise<void> {
  const work = whenOpen(s, () => {
    if (s.phase !== 'open') return
    stopHeartbeat(s)
    end(s, reason)
    return pump($, s)
  })
  let bound: Promise<unknown>
  try {
    bound = Promise.resolve($.clock.sleep(s.limits.endWaitMs)).catch(() => undefined)
  } catch {
    bound = Promise.resolve()
  }
  await Promise.race([work, bound])
}

function rateLimit(limits: unknown, kind: string): unknown {
  if (Array.isArray(limits)) {
    const found = limits.find((l) => isRecord(l) && (l.kind === kind || l.type === kind || l.name === kind))
    return isRecord(found) ? found.percentUsed : undefined
  }
  const entry = isRecord(limits) ? limits[kind] : undefined
  return isRecord(entry) ? entry.percentUsed : undefined
}

function hasText(result: unknown): boolean {
  return isRecord(result) && typeof result.text === 'string' && result.text.trim() !== ''
}

/** The mod with other limits (tests lower the log cap); what ships is `register` below. */
export function createRegister(limits: Limits = DEFAULT_LIMITS) {
  return (on: On, options: unknown): void => registerWith(limits, on, options)
}

function registerWith(limits: Limits, on: On, options: unknown): void {
  const s = newSession(limits)
  const outputDir = isRecord(options) ? options.outputDir : undefined

  on('session.start', async ($, e, next) => {
    quietly(() => startOpen($, s, outputDir, e.cwd))
    return next(e)
  }).catch(pass)

  on('session.end', async ($, e, next) => {
    try {
      await finish($, s, word(e.reason))
    } catch {}
    return next(e)
  }).catch(pass)

  on('session.measure', async ($, e, next) => {
    quietly(() => {
      apply($, s, () => {
        setSignal(s, 'quota_5h', numberValue(rateLimit(e.rateLimits, 'five_hour')))
        setSignal(s, 'quota_7d', numberValue(rateLimit(e.rateLimits, 'seven_day')))
        setSignal(s, 'context', numberValue(isRecord(e.context) ? e.context.percent : undefined))
      })
    })
    return next(e)
  }).catch(pass)

  on('turn.start', async ($, e, next) => {
    quietly(() => {
      if (isMain(e)) {
        reopenIfEnded($, s, outputDir)
        apply($, s, () => turnStart(s))
      }
    })
    return next(e)
  }).catch(pass)

  on('turn.step', async function* ($, e, next) {
    const result = yield* next(e)
    quietly(() => {
      const usage = isRecord(result) ? result.usage : undefined
      const model = typeof e.model === 'string' ? e.model : isRecord(usage) ? usage.model : undefined
      apply($, s, () => addUsage(s, e.turnId, model, !isMain(e), usage))
    })
    return result
  })

  on('turn.complete', async ($, e, next) => {
    quietly(() => apply($, s, () => turnComplete(s, e.turnId, isMain(e), e.reason, word(e.reason))))
    return next(e)
  }).catch(pass)

  on('prompt.edit', async ($, e, next) => {
    // R16: 50 ms budget — await next, queue the work, return; never await a write or a reopen.
    const at = { submit: -1 }
    quietly(() => {
      reopenIfEnded($, s, outputDir)
      void whenOpen(s, () => {
        at.submit = s.submitSeq
      })
    })
    const result = await next(e)
    quietly(() => {
      const filled = hasText(result)
      apply($, s, () => {
        if (s.submitSeq !== at.submit) return // R15: a submit happened while it was pending
        setSignal(s, 'draft', flag(filled))
        if (!filled) return
        s.boxSeq++
        setSignal(s, 'suggest', '')
      })
    })
    return result
  }).catch(pass)

  on('prompt.submit', async ($, e, next) => {
    quietly(() => {
      reopenIfEnded($, s, outputDir)
      const ended = isRecord(e.origin) && e.origin.kind === 'task-notification' ? endedTaskIds(e.text) : []
      apply($, s, () => {
        s.submitSeq++
        s.boxSeq++
        setSignal(s, 'draft', '')
        setSignal(s, 'suggest', '')
        for (const id of ended) backgroundEnd(s, id)
      })
    })
    return next(e)
  }).catch(pass)

  on('prompt.suggest', async ($, e, next) => {
    const at = { box: -1 }
    quietly(() => {
      void whenOpen(s, () => {
        at.box = s.boxSeq
      })
    })
    const result = await next(e)
    quietly(() => {
      const shown = isRecord(result) && result.isShown === true
      apply($, s, () => {
        if (s.boxSeq === at.box) setSignal(s, 'suggest', flag(shown)) // R15
      })
    })
    return result
  }).catch(pass)

  on('command.run', async ($, e, next) => {
    quietly(() => {
      reopenIfEnded($, s, outputDir)
      const command = name(e.command, 60).replace(/^\//, '')
      apply($, s, () => setSignal(s, 'command', command))
    })
    try {
      return await next(e)
    } finally {
      quietly(() => apply($, s, () => setSignal(s, 'command', '')))
    }
  }).catch(pass)

  on('tool.call', async ($, e, next) => {
    const call: { key: string | null } = { key: null }
    quietly(() => {
      apply($, s, () => {
        call.key = callStart(s, e.tool_use_id, name(e.tool, 200))
      })
    })
    let outcome: unknown
    try {
      outcome = await next(e)
    } finally {
      quietly(() => {
        apply($, s, () => {
          callSettle(s, call.key)
          const response = toolResponse(outcome)
          if (response === null) return
          const started = backgroundStartOf(e.tool, response)
          if (started !== null) backgroundStart(s, started.id, started.kind)
          if (e.tool === 'TaskStop') backgroundEnd(s, taskStopId(e))
        })
      })
    }
    return outcome
  }).catch(pass)

  on('tool.check', async ($, e, next) => {
    // R11: the main turn open when the check began, read in event order like every other change
    const began = { turn: -1 }
    quietly(() => {
      void whenOpen(s, () => {
        began.turn = s.turnOpen ? s.turnCounter : -1
      })
    })
    const result = await next(e)
    quietly(() => {
      apply($, s, () => {
        if (isRecord(result)) verdict(s, result.decision, name(e.tool, 200), e.tool_use_id, began.turn)
      })
    })
    return result
  }).catch(pass)

  on('classic.StopFailure', async ($, e, next) => {
    quietly(() => apply($, s, () => recordSignal(s, 'api_error', word(e.error))))
    return next(e)
  }).catch(pass)

  on('classic.Notification', async ($, e, next) => {
    quietly(() => apply($, s, () => recordSignal(s, 'notice', word(e.notification_type))))
    return next(e)
  }).catch(pass)
}

// Claude Code loads only `export const register = (on, options) => {…}` (claude-code-mods.md §1): a
// const bound to a function expression, not the result of a call.
export const register = (on: On, options: unknown): void => registerWith(DEFAULT_LIMITS, on, options)
