// How Codex reads a PermissionRequest hook's JSON (protocols.md §B.7, Codex's
// `permission-request.command.output` schema): `hookSpecificOutput: {hookEventName: "PermissionRequest",
// decision: {behavior: "allow" | "deny", message?}}`. Fields Codex reserves — `updatedInput`,
// `interrupt: true` — and the universal `continue: false`, `stopReason`, `suppressOutput` void that
// hook's decision, so the normal approval path runs (Codex calls this failing closed). Keys outside the
// schema make the output invalid. `updatedPermissions` and `addDirectories` are accepted by newer Codex
// builds with `allow` only; tack has no persistent permission updates from hooks, so they are ignored.

type Json = Readonly<Record<string, unknown>>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

const TOP_LEVEL = new Set(['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'hookSpecificOutput'])
const DECISION_KEYS = new Set([
  'behavior',
  'message',
  'updatedInput',
  'interrupt',
  'updatedPermissions',
  'addDirectories',
])

export type PermissionReading =
  /** No decision: the output only had universal fields (or nothing for this event). */
  | { readonly kind: 'none'; readonly ignored: readonly string[] }
  | { readonly kind: 'allow'; readonly ignored: readonly string[] }
  | { readonly kind: 'deny'; readonly message?: string; readonly ignored: readonly string[] }
  /** The hook failed: its decision does not count, the normal approval path runs. */
  | { readonly kind: 'failed'; readonly why: string }

/** Reads the decoded JSON object of a PermissionRequest hook's stdout. */
export function readPermissionOutput(raw: Json): PermissionReading {
  for (const key of Object.keys(raw)) {
    if (!TOP_LEVEL.has(key))
      return { kind: 'failed', why: `"${key}" is not a PermissionRequest output field` }
  }
  if (raw.continue === false)
    return { kind: 'failed', why: 'continue:false voids a PermissionRequest decision' }
  if (raw.stopReason !== undefined)
    return { kind: 'failed', why: 'stopReason voids a PermissionRequest decision' }
  if (raw.suppressOutput !== undefined)
    return { kind: 'failed', why: 'suppressOutput voids a PermissionRequest decision' }
  const specific = raw.hookSpecificOutput
  if (specific === undefined || specific === null) return { kind: 'none', ignored: [] }
  if (!isObject(specific)) return { kind: 'failed', why: 'hookSpecificOutput is not an object' }
  if (specific.hookEventName !== 'PermissionRequest')
    return { kind: 'failed', why: 'hookSpecificOutput.hookEventName is not "PermissionRequest"' }
  for (const key of Object.keys(specific)) {
    if (key !== 'hookEventName' && key !== 'decision')
      return { kind: 'failed', why: `hookSpecificOutput.${key} is not a PermissionRequest field` }
  }
  const decision = specific.decision
  if (decision === undefined || decision === null) return { kind: 'none', ignored: [] }
  if (!isObject(decision)) return { kind: 'failed', why: 'decision is not an object' }
  for (const key of Object.keys(decision)) {
    if (!DECISION_KEYS.has(key))
      return { kind: 'failed', why: `decision.${key} is not a PermissionRequest field` }
  }
  if (decision.updatedInput !== undefined && decision.updatedInput !== null)
    return { kind: 'failed', why: 'decision.updatedInput voids a PermissionRequest decision' }
  if (decision.interrupt === true)
    return { kind: 'failed', why: 'decision.interrupt:true voids a PermissionRequest decision' }
  const ignored = ['updatedPermissions', 'addDirectories']
    .filter((k) => decision[k] !== undefined && decision[k] !== null)
    .map((k) => `decision.${k}`)
  switch (decision.behavior) {
    case 'allow':
      return { kind: 'allow', ignored }
    case 'deny': {
      if (ignored.length > 0) return { kind: 'failed', why: `${ignored.join(' and ')} go with "allow" only` }
      const message =
        typeof decision.message === 'string' && decision.message.trim() !== '' ? decision.message : undefined
      return { kind: 'deny', ...(message !== undefined ? { message } : {}), ignored }
    }
    default:
      return { kind: 'failed', why: 'decision.behavior is neither "allow" nor "deny"' }
  }
}
