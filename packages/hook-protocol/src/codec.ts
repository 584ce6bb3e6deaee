// The per-dialect output codec (40-hooks.md A4): turns a process result into a `HookOutput`. Pure and
// total — any input yields an output, never an exception. JSON fields are read leniently (a field of
// the wrong type is absent). The blocking exit code (2) is private to this file: bridges see only
// `decision: 'block'`.
import type { HookDecision, HookDialect, HookOutput, RawHookResult } from './types.ts'

/** The exit code both protocols read as "block with stderr". */
const BLOCKING_EXIT = 2

const TOP_LEVEL_KEYS = new Set([
  'continue',
  'stopReason',
  // Accepted by Claude Code and without effect there; silently ignored here too.
  'suppressOutput',
  'systemMessage',
  'decision',
  'reason',
  'hookSpecificOutput',
])
const SPECIFIC_KEYS = new Set([
  'hookEventName',
  'permissionDecision',
  'permissionDecisionReason',
  'additionalContext',
  'updatedInput',
])

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

type Fields = Omit<HookOutput, 'failed' | 'stdout' | 'stderr' | 'json' | 'exitCode' | 'signal'>

/** Reads the JSON fields of an output object for `event` (the point the hook ran at). */
export function readJsonFields(event: string, value: Json): Fields {
  const out: { -readonly [K in keyof Fields]: Fields[K] } = { raw: value }
  const unsupported: string[] = []
  for (const key of Object.keys(value)) if (!TOP_LEVEL_KEYS.has(key)) unsupported.push(key)

  if (typeof value.continue === 'boolean') out.continue = value.continue
  const stopReason = str(value.stopReason)
  if (stopReason !== undefined) out.stopReason = stopReason
  const systemMessage = str(value.systemMessage)
  if (systemMessage !== undefined) out.systemMessage = systemMessage
  const reason = str(value.reason)
  if (reason !== undefined) out.reason = reason
  if (value.decision === 'approve' || value.decision === 'block') out.decision = value.decision

  const specific = value.hookSpecificOutput
  if (isObject(specific)) {
    const eventName = str(specific.hookEventName)
    if (eventName !== undefined) out.hookEventName = eventName
    if (eventName === event) {
      for (const key of Object.keys(specific)) {
        if (!SPECIFIC_KEYS.has(key)) unsupported.push(`hookSpecificOutput.${key}`)
      }
      const pd = specific.permissionDecision
      if (pd === 'allow' || pd === 'deny' || pd === 'ask') out.decision = pd satisfies HookDecision
      else if (pd !== undefined) unsupported.push('hookSpecificOutput.permissionDecision')
      const pdReason = str(specific.permissionDecisionReason)
      if (pdReason !== undefined) out.reason = pdReason
      const context = str(specific.additionalContext)
      if (context !== undefined) out.additionalContext = context
      if (isObject(specific.updatedInput)) out.updatedInput = specific.updatedInput
    } else {
      // Absent or naming another event: the event-specific fields do not apply to this point.
      unsupported.push(
        eventName === undefined
          ? 'hookSpecificOutput (no hookEventName)'
          : `hookSpecificOutput (for ${eventName}, not ${event})`,
      )
    }
  }
  if (unsupported.length > 0) out.unsupported = unsupported
  return out
}

/** Parses `text` as a JSON object when it begins with `{`; otherwise (or on any error) undefined. */
function parseObject(text: string): Json | undefined {
  if (!text.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** Decodes one process result for `dialect` at `event` (A4's table). */
export function decodeHookOutput(dialect: HookDialect, event: string, result: RawHookResult): HookOutput {
  const stdout = typeof result.stdout === 'string' ? result.stdout.trim() : ''
  const stderr = typeof result.stderr === 'string' ? result.stderr.trim() : ''
  const exitCode = typeof result.exitCode === 'number' ? result.exitCode : undefined
  const base = {
    stdout,
    stderr,
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(result.signal ? { signal: result.signal } : {}),
  }
  const failed = (failure: string): HookOutput => ({ ...base, failed: true, failure, json: false })
  const how = exitCode !== undefined ? `exit ${exitCode}` : `killed by ${result.signal ?? 'a signal'}`

  if (dialect === 'claude') {
    const object = parseObject(stdout)
    if (exitCode === 0) {
      if (object) return { ...base, failed: false, json: true, ...readJsonFields(event, object) }
      return { ...base, failed: false, json: false }
    }
    if (exitCode === BLOCKING_EXIT) {
      // Exit 2 blocks whatever the JSON says; its `reason`, when it has one, is the message.
      const fields = object ? readJsonFields(event, object) : {}
      const reason = object && typeof object.reason === 'string' ? object.reason : stderr
      return { ...base, failed: false, json: object !== undefined, ...fields, decision: 'block', reason }
    }
    // Any other exit (or a signal): a JSON object on stdout decides alone, as on exit 0.
    if (object) return { ...base, failed: false, json: true, ...readJsonFields(event, object) }
    return failed(how)
  }

  // codex
  if (exitCode === 0) {
    if (stdout === '') return { ...base, failed: false, json: false }
    if (stdout.startsWith('{') || stdout.startsWith('[')) {
      const object = parseObject(stdout)
      if (!object) return failed('stdout is not a JSON object')
      return { ...base, failed: false, json: true, ...readJsonFields(event, object) }
    }
    return { ...base, failed: false, json: false }
  }
  if (exitCode === BLOCKING_EXIT) {
    if (stderr === '') return failed('exit 2 without stderr')
    return { ...base, failed: false, json: false, decision: 'block', reason: stderr }
  }
  return failed(how)
}
