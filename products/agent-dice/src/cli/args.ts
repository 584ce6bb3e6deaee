// Argument parsing (R24): the first positional after the command is the name; a value flag takes
// the next token verbatim (even `-x`); `--json` is accepted anywhere.
import { CliError, usageError } from './errors.ts'

export interface FlagSpec {
  /** Flags that take the next token as their value. */
  readonly values?: readonly string[]
  /** Flags that stand alone. */
  readonly booleans?: readonly string[]
  /** Most positionals the command takes (the name or target included). */
  readonly maxPositionals: number
}

export interface ParsedArgs {
  positionals: string[]
  values: Map<string, string>
  booleans: Set<string>
}

/** Whether `--json` appears anywhere (decided before anything else can fail). */
export const wantsJson = (argv: readonly string[]) => argv.includes('--json')

export function parseArgs(tokens: readonly string[], spec: FlagSpec): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], values: new Map(), booleans: new Set() }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (token === '--json') continue
    if (spec.values?.includes(token)) {
      // `--json` is reserved: it is never taken as another flag's value.
      if (i + 1 >= tokens.length || tokens[i + 1] === '--json') throw usageError(`${token} requires a value`)
      parsed.values.set(token, tokens[++i])
    } else if (spec.booleans?.includes(token)) {
      parsed.booleans.add(token)
    } else if (token.startsWith('-') && token.length > 1) {
      throw usageError(`Unknown option: ${token}`)
    } else {
      if (parsed.positionals.length >= spec.maxPositionals) throw usageError(`Unexpected argument: ${token}`)
      parsed.positionals.push(token)
    }
  }
  return parsed
}

const DECIMAL = /^-?\d+$/

/** A decimal integer literal (`6.5`, `abc`, `1e3` and `0x10` are not). */
export function parseInteger(field: string, raw: string): number {
  if (!DECIMAL.test(raw))
    throw new CliError('invalid_config', `Error: Invalid ${field} "${raw}": must be a decimal integer`)
  return Number(raw)
}
