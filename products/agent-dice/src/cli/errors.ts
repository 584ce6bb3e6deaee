// CLI failures carry their `--json` code and the exact text-mode message (R23, R25).
import { InvalidSlotError } from '../core/engine.ts'
import { DiceValidationError } from '../core/validate.ts'
import { BaseDirError } from '../host/env.ts'
import { InstallError } from '../install/config-file.ts'

export type CliErrorCode =
  | 'usage'
  | 'invalid_config'
  | 'slot_not_found'
  | 'unknown_command'
  | 'io_error'
  | 'internal'

export class CliError extends Error {
  override readonly name = 'CliError'
  readonly code: CliErrorCode
  /** Also print the usage on stdout (text mode), as the public CLI does for an unknown command. */
  readonly withUsage: boolean
  constructor(code: CliErrorCode, message: string, withUsage = false) {
    super(message)
    this.code = code
    this.withUsage = withUsage
  }
}

export const usageError = (message: string) => new CliError('usage', `Error: ${message}`)
export const slotNotFound = (name: string) => new CliError('slot_not_found', `Slot not found: ${name}`)

/** Maps any thrown value to the code and message the CLI reports. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error
  if (
    error instanceof DiceValidationError ||
    error instanceof InvalidSlotError ||
    error instanceof BaseDirError
  ) {
    return new CliError('invalid_config', `Error: ${error.message}`)
  }
  if (error instanceof InstallError)
    return new CliError(error.code, error.bare ? error.message : `Error: ${error.message}`)
  const message = error instanceof Error ? error.message : String(error)
  return new CliError('internal', `Error: ${message}`)
}
