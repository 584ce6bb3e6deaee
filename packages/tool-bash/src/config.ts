// The bash tool's validated Config (TL-17). Every field has a default, a range checked at load and a
// README row. `timeoutMs` must not exceed `maxTimeoutMs`, checked across the two fields.
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { type ConfigInput, type ConfigOf, ObjectSchema, Schema } from '@tack/kernel'
import { MAX_TIMER_MS } from '@tack/process'

type Env = Record<string, string>

const isEnv = (value: unknown): value is Env =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string')

const fields = {
  timeoutMs: Schema.integer({
    default: 120_000,
    min: 1,
    max: MAX_TIMER_MS,
    description:
      'Milliseconds a command may run when the call gives no `timeout_ms`; then its process group is terminated (TIMEOUT). At most `maxTimeoutMs`.',
  }),
  maxTimeoutMs: Schema.integer({
    default: 600_000,
    min: 1,
    max: MAX_TIMER_MS,
    description:
      'The largest timeout a call may ask for with `timeout_ms`; larger requests are clamped to it and the output says so.',
  }),
  maxOutputBytes: Schema.integer({
    default: 64_000,
    min: 1,
    max: 64 * 1024 * 1024,
    description:
      'Bytes of the merged stdout/stderr kept in memory and returned (the tail); the whole output goes to a spill file that a truncated result names.',
  }),
  graceMs: Schema.integer({
    default: 3_000,
    min: 0,
    max: 600_000,
    description:
      "On timeout or abort: milliseconds between SIGTERM and SIGKILL to the command's process group. Keep it below the tools plugin's `abortGraceMs`.",
  }),
  envAllow: Schema.stringList({
    default: [],
    description:
      'Variable names (exact, case-sensitive) exempt from the secret scrub, which removes variables whose names contain KEY, SECRET, TOKEN, PASSWORD or CREDENTIAL (any case).',
  }),
  scratchRoot: Schema.json<string>({
    default: join(tmpdir(), 'tack-scratch'),
    allowed: 'an absolute path',
    test: (v): v is string => typeof v === 'string' && isAbsolute(v),
    description:
      'Folder for spill files: `<scratchRoot>/<session id>/bash-<call id>.log`. The CLI sets `$TACK_HOME/scratch`.',
  }),
  env: Schema.json<Env>({
    allowed: 'an object of string values',
    test: isEnv,
    description:
      "The environment commands start from, before the scrub. Default: tack's own process environment, read at each call.",
  }).optional(),
}

type Shape = typeof fields

class BashToolConfigSchema extends ObjectSchema<Shape> {
  override check(value: unknown, path: string): ReturnType<ObjectSchema<Shape>['check']> {
    const result = super.check(value, path)
    if (!result.ok || result.value.timeoutMs <= result.value.maxTimeoutMs) return result
    const at = path ? `${path}.timeoutMs` : 'timeoutMs'
    return {
      ok: false,
      issues: [
        {
          path: at,
          message: `must be at most maxTimeoutMs (${result.value.maxTimeoutMs}) (got ${result.value.timeoutMs})`,
        },
      ],
    }
  }
}

export const BashToolConfig = new BashToolConfigSchema(fields, 'The bash tool (@tack/tool-bash).')
export type BashToolConfig = ConfigOf<typeof BashToolConfig>
export type BashToolConfigInput = ConfigInput<typeof BashToolConfig>
