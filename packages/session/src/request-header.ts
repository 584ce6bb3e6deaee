// Request headers (§5): what every request of one epoch shares. A header is normalised (empty parts
// absent, SL-14), changes are recorded as deltas (SL-15) and the header in force is a fold over the
// log's `request/header` snapshots and `request/header-delta` events.
import { deepFreeze } from '@tack/kernel'
import { SessionEventError } from './errors.ts'
import type { EpochHeader, HeaderDelta, SessionEvent, ToolSchema } from './events.ts'
import { jsonEqual } from './json.ts'

/**
 * Deep-frozen values with no `undefined`-valued property: already canonical and unable to change, so
 * shared instead of copied. The tool schemas are such a value, the same one every step; copying them
 * each step was garbage that grew the heap of a long session (docs/decisions/0066-flat-memory.md).
 */
const settled = new WeakSet<object>()

function isSettled(value: object): boolean {
  if (settled.has(value)) return true
  if (!Object.isFrozen(value)) return false
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key]
    if (v === undefined) return false
    if (v !== null && typeof v === 'object' && !isSettled(v)) return false
  }
  settled.add(value)
  return true
}

/** Deep copy without `undefined`-valued properties (no validation; `append` validates). */
function canonical<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value
  if (isSettled(value)) return value
  if (Array.isArray(value)) return value.map(canonical) as T
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = canonical(v)
  return out as T
}

/** Drops empty `system`, `tools` and `messagePrefix` and `undefined` config fields (SL-14). */
export function normalizeHeader(h: EpochHeader): EpochHeader {
  const out: { -readonly [K in keyof EpochHeader]: EpochHeader[K] } = { config: canonical(h.config) }
  if (h.system) out.system = h.system
  if (h.tools && h.tools.length > 0) out.tools = canonical(h.tools)
  if (h.messagePrefix && h.messagePrefix.length > 0) out.messagePrefix = canonical(h.messagePrefix)
  return out
}

const linesOf = (system: string | undefined): string[] => (system ? system.split('\n') : [])

function diffSystem(prev: string[], next: string[]): NonNullable<HeaderDelta['system']> {
  const max = Math.min(prev.length, next.length)
  let keepStart = 0
  while (keepStart < max && prev[keepStart] === next[keepStart]) keepStart++
  let keepEnd = 0
  while (keepEnd < max - keepStart && prev[prev.length - 1 - keepEnd] === next[next.length - 1 - keepEnd]) {
    keepEnd++
  }
  return { keepStart, keepEnd, insert: next.slice(keepStart, next.length - keepEnd) }
}

function diffTools(
  prev: readonly ToolSchema[],
  next: readonly ToolSchema[],
): NonNullable<HeaderDelta['tools']> {
  const before = new Map(prev.map((t) => [t.name, t]))
  const after = new Set(next.map((t) => t.name))
  const removed = prev.filter((t) => !after.has(t.name)).map((t) => t.name)
  const changed = next.filter((t) => before.has(t.name) && !jsonEqual(before.get(t.name), t))
  const added = next.filter((t) => !before.has(t.name))
  const delta: { added?: ToolSchema[]; removed?: string[]; changed?: ToolSchema[] } = {}
  if (added.length) delta.added = added
  if (removed.length) delta.removed = removed
  if (changed.length) delta.changed = changed
  return delta
}

/**
 * The change from `prev` to `next` (both normalised first), or `undefined` iff they are deep-equal.
 * A pair that differs only in tool order yields a delta that does not reproduce `next`; the writer
 * (`Session.recordRequestHeader`) detects that and records a fallback snapshot instead.
 */
export function diffHeader(prev: EpochHeader, next: EpochHeader): HeaderDelta | undefined {
  const a = normalizeHeader(prev)
  const b = normalizeHeader(next)
  if (jsonEqual(a, b)) return undefined
  const delta: HeaderDelta = {}
  if (a.system !== b.system) delta.system = diffSystem(linesOf(a.system), linesOf(b.system))
  if (!jsonEqual(a.tools, b.tools)) delta.tools = diffTools(a.tools ?? [], b.tools ?? [])
  if (!jsonEqual(a.config, b.config)) delta.config = b.config
  if (!jsonEqual(a.messagePrefix, b.messagePrefix)) delta.messagePrefix = b.messagePrefix ?? []
  return delta
}

/** Applies a delta to a header; throws `HEADER_FOLD_ERROR` when it cannot apply. Result normalised. */
export function applyHeaderDelta(prev: EpochHeader, delta: HeaderDelta): EpochHeader {
  const base = normalizeHeader(prev)
  const next: { -readonly [K in keyof EpochHeader]: EpochHeader[K] } = { ...base }
  if (delta.system) {
    const lines = linesOf(base.system)
    const { keepStart, keepEnd, insert } = delta.system
    if (
      !isCount(keepStart) ||
      !isCount(keepEnd) ||
      !Array.isArray(insert) ||
      keepStart + keepEnd > lines.length
    ) {
      throw new SessionEventError(
        'HEADER_FOLD_ERROR',
        `system delta keeps ${keepStart}+${keepEnd} lines of a ${lines.length}-line system prompt`,
      )
    }
    next.system = [...lines.slice(0, keepStart), ...insert, ...lines.slice(lines.length - keepEnd)].join('\n')
  }
  if (delta.tools) next.tools = applyTools(base.tools ?? [], delta.tools)
  if (delta.config) next.config = delta.config
  if (delta.messagePrefix) next.messagePrefix = delta.messagePrefix
  return normalizeHeader(next)
}

const isCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0

function applyTools(prev: readonly ToolSchema[], delta: NonNullable<HeaderDelta['tools']>): ToolSchema[] {
  const removed = new Set(delta.removed ?? [])
  const changed = new Map((delta.changed ?? []).map((t) => [t.name, t]))
  const names = new Set(prev.map((t) => t.name))
  for (const name of changed.keys()) {
    if (!names.has(name) || removed.has(name)) {
      throw new SessionEventError(
        'HEADER_FOLD_ERROR',
        `tools delta changes "${name}", which the header does not have`,
      )
    }
  }
  const kept = prev.filter((t) => !removed.has(t.name)).map((t) => changed.get(t.name) ?? t)
  return [...kept, ...(delta.added ?? [])]
}

/** Whether an event is a header snapshot or delta. */
export const isHeaderEvent = (e: SessionEvent): boolean =>
  e.type === 'request/header' || e.type === 'request/header-delta'

/**
 * The header in force at cut `uptoSeq` (events with `seq < uptoSeq`; default the whole log): the last
 * snapshot, then its deltas. `undefined` before any header event; `HEADER_FOLD_ERROR` for a delta with
 * no prior snapshot. The result is normalised and deep-frozen.
 */
export function foldRequestHeader(
  events: readonly SessionEvent[],
  uptoSeq?: number,
): EpochHeader | undefined {
  const end = uptoSeq === undefined ? events.length : Math.max(0, Math.min(events.length, uptoSeq))
  let start = end - 1
  while (start >= 0 && events[start].type !== 'request/header') start--
  let header: EpochHeader | undefined
  if (start >= 0) header = normalizeHeader((events[start] as SessionEvent<'request/header'>).data.header)
  for (let i = Math.max(start, 0); i < end; i++) {
    const e = events[i]
    if (e.type !== 'request/header-delta') continue
    if (!header)
      throw new SessionEventError('HEADER_FOLD_ERROR', `header delta at seq ${e.seq} has no prior snapshot`)
    header = applyHeaderDelta(header, (e as SessionEvent<'request/header-delta'>).data)
  }
  return header && deepFreeze(header)
}
