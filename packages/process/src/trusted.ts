// Trusted spawns (TL-33): hooks and `$.process.run` run the user's own commands, so they get the
// environment their protocol promises — exactly what the caller passes, by default tack's own
// environment — with no secret scrub and no overrides. Everything else is the process runner: own
// process group, group kill on timeout or abort, bounded output.
import { type ProcessResult, type RunOptions, runProcess } from './run-process.ts'

/** SIGTERM-to-SIGKILL grace of a trusted spawn unless the caller sets one (the bash tool's default). */
export const TRUSTED_DEFAULT_GRACE_MS = 3_000

/** Bytes kept per stream unless the caller sets a limit: roomy enough for a hook's JSON answer. */
export const TRUSTED_DEFAULT_MAX_OUTPUT_BYTES = 1 << 20

export interface TrustedSpawnOptions
  extends Omit<RunOptions, 'env' | 'merge' | 'graceMs' | 'maxOutputBytes'> {
  /** Used unchanged. Default: `process.env` as it is when the spawn starts. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Default false: stdout and stderr are captured separately. */
  readonly merge?: boolean
  /** Default `TRUSTED_DEFAULT_GRACE_MS`. */
  readonly graceMs?: number
  /** Default `TRUSTED_DEFAULT_MAX_OUTPUT_BYTES`. */
  readonly maxOutputBytes?: number
}

/** Runs a trusted command through the process runner; never throws. */
export function spawnTrusted(options: TrustedSpawnOptions): Promise<ProcessResult> {
  return runProcess({
    ...options,
    env: options.env ?? process.env,
    merge: options.merge ?? false,
    graceMs: options.graceMs ?? TRUSTED_DEFAULT_GRACE_MS,
    maxOutputBytes: options.maxOutputBytes ?? TRUSTED_DEFAULT_MAX_OUTPUT_BYTES,
  })
}
