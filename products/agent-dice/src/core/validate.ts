// Slot and identifier validation (R11, R12, R15). Every check runs before anything is written or any
// path is built; a hand-edited invalid slot is reported, never rolled, and blocks no other slot.
import type { DiceSlotConfig } from './types.ts'

export const SLOT_NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/
export const SLOT_NAME_MAX = 64
export const SESSION_ID_RE = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/
export const SESSION_ID_MAX = 128

/** Defaults merged under a registered slot; their order is the public key order in `slots.json`. */
export const SLOT_DEFAULTS = Object.freeze({
  targetMode: 'exact',
  type: 'accumulator',
  accumulationRate: 7,
  maxDice: 100,
  fixedCount: 1,
  cooldown: 'per-session',
  clearOnSessionStart: true,
  resetOnTrigger: true,
  flavor: true,
} as const)

export const LIMITS = Object.freeze({
  // Each bound rejects only what could never work (issue 11.8; README "Differences"): faces beyond
  // MAX_SAFE_INTEGER are no longer exact integers, and above ~120 000 dice the public version's
  // `Math.max(...rolls)` overflows the call stack, so such a slot could never roll there.
  die: { min: 1, max: Number.MAX_SAFE_INTEGER },
  accumulationRate: { min: 1, max: Number.MAX_SAFE_INTEGER },
  maxDice: { min: 1, max: 100_000 },
  fixedCount: { min: 1, max: 100_000 },
  message: { min: 1, max: Number.MAX_SAFE_INTEGER },
})

/** One problem: `Invalid <field> "<value>": <reason>`. */
export interface SlotIssue {
  field: string
  value: unknown
  reason: string
}

export class DiceValidationError extends Error {
  override readonly name = 'DiceValidationError'
  readonly issue: SlotIssue
  constructor(issue: SlotIssue, message = formatIssue(issue)) {
    super(message)
    this.issue = issue
  }
}

const shown = (value: unknown): string => {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** `Invalid <field> "<value>": <reason>` (the public wording for names). */
export function formatIssue(issue: SlotIssue): string {
  return `Invalid ${issue.field} "${shown(issue.value)}": ${issue.reason}`
}

/** The issue with a slot or session name, if any. */
export function nameIssue(name: unknown, label = 'slot name'): SlotIssue | undefined {
  if (typeof name !== 'string' || !SLOT_NAME_RE.test(name)) {
    return { field: label, value: name, reason: 'must start with alphanumeric, contain only [a-zA-Z0-9_-]' }
  }
  if (name.length > SLOT_NAME_MAX)
    return { field: label, value: name, reason: `must be at most ${SLOT_NAME_MAX} characters` }
  return undefined
}

/** Throws `DiceValidationError` for a name that may not become part of a path. */
export function validateName(name: string, label = 'slot name'): void {
  const issue = nameIssue(name, label)
  if (issue) throw new DiceValidationError(issue)
}

export function sessionIdIssue(id: unknown): SlotIssue | undefined {
  if (typeof id !== 'string' || id.length > SESSION_ID_MAX || !SESSION_ID_RE.test(id)) {
    return {
      field: 'session id',
      value: id,
      reason: `must be 1–${SESSION_ID_MAX} characters of [A-Za-z0-9._-], starting and ending alphanumeric`,
    }
  }
  return undefined
}

export const isValidSessionId = (id: unknown): id is string => sessionIdIssue(id) === undefined

export function validateSessionId(id: string): void {
  const issue = sessionIdIssue(id)
  if (issue) throw new DiceValidationError(issue)
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)

function intIssue(field: string, value: unknown, min: number, max: number): SlotIssue | undefined {
  if (!isInt(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`
    return { field, value, reason: `must be an integer ${range}` }
  }
  return undefined
}

function enumIssue(field: string, value: unknown, allowed: readonly string[]): SlotIssue | undefined {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    return { field, value, reason: `must be one of ${allowed.join(', ')}` }
  }
  return undefined
}

function boolIssue(field: string, value: unknown): SlotIssue | undefined {
  return typeof value === 'boolean' ? undefined : { field, value, reason: 'must be true or false' }
}

/** The first issue of a complete slot record, in field order; `undefined` when valid. */
export function slotIssue(record: unknown): SlotIssue | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    return { field: 'slot', value: record, reason: 'must be an object' }
  }
  const s = record as Record<string, unknown>
  const message = (s.onTrigger as { message?: unknown } | undefined)?.message
  return (
    nameIssue(s.name) ??
    enumIssue('type', s.type, ['accumulator', 'fixed', 'single']) ??
    intIssue('die', s.die, LIMITS.die.min, LIMITS.die.max) ??
    (isInt(s.target) && s.target >= 1 && s.target <= (s.die as number)
      ? undefined
      : {
          field: 'target',
          value: s.target,
          reason: `must be an integer from 1 to the die size (${shown(s.die)})`,
        }) ??
    enumIssue('targetMode', s.targetMode, ['exact', 'gte', 'lte']) ??
    intIssue(
      'accumulationRate',
      s.accumulationRate,
      LIMITS.accumulationRate.min,
      LIMITS.accumulationRate.max,
    ) ??
    intIssue('maxDice', s.maxDice, LIMITS.maxDice.min, LIMITS.maxDice.max) ??
    intIssue('fixedCount', s.fixedCount, LIMITS.fixedCount.min, LIMITS.fixedCount.max) ??
    enumIssue('cooldown', s.cooldown, ['per-session', 'none']) ??
    boolIssue('clearOnSessionStart', s.clearOnSessionStart) ??
    boolIssue('resetOnTrigger', s.resetOnTrigger) ??
    boolIssue('flavor', s.flavor) ??
    (typeof message === 'string' &&
    message.length >= LIMITS.message.min &&
    message.length <= LIMITS.message.max
      ? undefined
      : {
          field: 'onTrigger.message',
          value: message,
          reason: 'must be a non-empty string',
        })
  )
}

/** Defaults under a stored record, so a hand-written slot may omit optional fields. */
export function withDefaults(record: object): Record<string, unknown> {
  return { ...SLOT_DEFAULTS, ...record }
}

export type SlotCheck =
  | { ok: true; slot: DiceSlotConfig }
  | { ok: false; name: string; issue: SlotIssue; reason: string }

/**
 * Checks a stored record (defaults applied) for rolling. `key`, when given, is its registry key,
 * which must equal its `name`.
 */
export function checkSlot(record: unknown, key?: string): SlotCheck {
  const raw = record !== null && typeof record === 'object' && !Array.isArray(record) ? record : undefined
  const slot = raw ? withDefaults(raw) : record
  const name =
    raw && typeof (raw as { name?: unknown }).name === 'string' ? (raw as { name: string }).name : (key ?? '')
  let issue = slotIssue(slot)
  if (!issue && key !== undefined && key !== name) {
    issue = { field: 'name', value: name, reason: `must equal its key "${key}" in slots.json` }
  }
  if (issue)
    return {
      ok: false,
      name: key ?? name,
      issue,
      reason: `${issue.field} ${formatValue(issue.value)} ${issue.reason}`,
    }
  return { ok: true, slot: slot as unknown as DiceSlotConfig }
}

const formatValue = (value: unknown) => (value === undefined ? '(missing)' : `"${shown(value)}"`)

/** `Invalid slot "<n>": <reason>` for a stored slot that cannot be rolled. */
export function invalidSlotMessage(name: string, reason: string): string {
  return `Invalid slot "${name}": ${reason}`
}
