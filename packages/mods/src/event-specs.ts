// Per event: which keys of `e` are pinned and which answers have the right shape (65-mod-host.md
// requirement 10, "Pinned keys"; claude-code-mods.md §2 "Pinning"). The dispatcher uses these to
// fail a hook that rewrites a pinned key or answers a wrong shape.
import type { ModEventName } from './capabilities.ts'

export interface EventSpec {
  /** Pinned keys of `e`: `all` pins every key except `rewritable`. */
  readonly pinned: 'all' | readonly string[]
  readonly rewritable?: readonly string[]
  /** undefined when `result` is a valid answer, else why not. */
  check(result: unknown): string | undefined
  /** Which configured budget the event uses. */
  readonly budget?: 'promptEdit' | 'sessionEnd'
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const objectWith =
  (...required: string[]) =>
  (r: unknown): string | undefined => {
    if (!isObject(r)) return `returned ${r === undefined ? 'undefined' : 'a non-object'}`
    const missing = required.filter((k) => !(k in r))
    return missing.length ? `an answer without ${missing.join(', ')}` : undefined
  }

const DECISIONS = ['allow', 'ask', 'deny']

export const EVENT_SPECS: Readonly<Record<ModEventName, EventSpec>> = {
  'session.start': { pinned: 'all', check: objectWith('cwd') },
  'session.end': { pinned: 'all', check: objectWith('sessionId'), budget: 'sessionEnd' },
  'session.measure': { pinned: 'all', check: objectWith('changed') },
  'turn.start': { pinned: 'all', check: objectWith('turnId') },
  'turn.step': { pinned: 'all', rewritable: ['model', 'effort'], check: objectWith('turnId', 'index') },
  'turn.complete': {
    pinned: 'all',
    check: (r) =>
      objectWith()(r) ??
      (typeof (r as { text?: unknown }).text === 'string' ? undefined : 'an answer without a text string'),
  },
  'prompt.submit': {
    pinned: ['wait', 'origin'],
    check: (r) => {
      if (!isObject(r)) return 'returned undefined or a non-object'
      if ('drop' in r) return undefined
      return typeof r.text === 'string' ? undefined : 'neither { text } nor { drop }'
    },
  },
  'prompt.edit': {
    pinned: ['origin'],
    budget: 'promptEdit',
    check: (r) =>
      isObject(r) && typeof r.text === 'string' && typeof r.cursor === 'number'
        ? undefined
        : 'not { text, cursor }',
  },
  'prompt.suggest': {
    pinned: ['origin', 'text'],
    check: (r) => (isObject(r) && typeof r.isShown === 'boolean' ? undefined : 'not { isShown }'),
  },
  'command.run': { pinned: ['command', 'presentation'], check: objectWith() },
  'tool.call': {
    pinned: ['tool', 'tool_use_id', 'agentId'],
    check: (r) => {
      if (!isObject(r)) return 'returned undefined or a non-object'
      if ('deny' in r) return typeof r.deny === 'string' ? undefined : 'a deny that is not a string'
      return 'result' in r ? undefined : 'neither { result } nor { deny }'
    },
  },
  'tool.check': {
    pinned: 'all',
    check: (r) =>
      isObject(r) && DECISIONS.includes(String(r.decision))
        ? undefined
        : 'not { decision: allow | ask | deny }',
  },
  // host-raised observers with nothing of tack's beneath: any object answer passes
  'classic.StopFailure': { pinned: 'all', check: objectWith() },
  'classic.Notification': { pinned: 'all', check: objectWith() },
}

/** The keys of `e` pinned for `event`. */
export function pinnedKeys(spec: EventSpec, e: Readonly<Record<string, unknown>>): string[] {
  if (spec.pinned !== 'all') return [...spec.pinned]
  return Object.keys(e).filter((k) => !(spec.rewritable ?? []).includes(k))
}
