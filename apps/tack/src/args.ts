// Command-line parsing with node:util's parseArgs: common flags for every command, plus the command's own.
import { parseArgs } from 'node:util'

export const COMMON_OPTIONS = {
  model: { type: 'string' },
  effort: { type: 'string' },
  'base-url': { type: 'string' },
  'permission-mode': { type: 'string' },
  'tools-mode': { type: 'string' },
  cwd: { type: 'string' },
  config: { type: 'string' },
  profile: { type: 'string' },
  'no-session': { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  format: { type: 'string' },
  at: { type: 'string' },
  project: { type: 'boolean' },
  print: { type: 'string', short: 'p' },
  trust: { type: 'boolean' },
  list: { type: 'boolean' },
  revoke: { type: 'boolean' },
  force: { type: 'boolean' },
  continue: { type: 'boolean', short: 'c' },
  resume: { type: 'string', short: 'r' },
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  'sandbox-writable': { type: 'string', multiple: true },
  mod: { type: 'string', multiple: true },
  image: { type: 'string', multiple: true },
} as const

export type CommonFlags = {
  model?: string
  /** `--effort low|medium|high`: the reasoning effort (85-skills-and-commands.md I3). */
  effort?: string
  'base-url'?: string
  'permission-mode'?: string
  'tools-mode'?: string
  cwd?: string
  config?: string
  profile?: string
  'no-session'?: boolean
  json?: boolean
  verbose?: boolean
  format?: string
  at?: string
  project?: boolean
  print?: string
  /** Treat the workspace as trusted for this run (CI); `tack trust` records it for good. */
  trust?: boolean
  /** `tack trust --list` */
  list?: boolean
  /** `tack trust --revoke [DIR]` */
  revoke?: boolean
  /** `tack trust --force DIR`: trust a folder that holds the home folder (broad-trust.ts). */
  force?: boolean
  /** `tack run -c`: continue this workspace's most recent session. */
  continue?: boolean
  /** `tack run -r ID`: continue the session ID names (a unique prefix is enough). */
  resume?: string
  /** `--allow TOOL[:pattern]` (repeatable): permission allow rules for this run (cli-rules.ts). */
  allow?: string[]
  /** `--deny TOOL[:pattern]` (repeatable): permission deny rules for this run (cli-rules.ts). */
  deny?: string[]
  /** `--sandbox-writable PATH` (repeatable): a folder sandboxed commands may write (sandbox-writable-flag.ts). */
  'sandbox-writable'?: string[]
  /** `--mod DIR` (repeatable): a Claude Code mod folder for this run (80-cli.md §7.2). */
  mod?: string[]
  /** `tack run --image PATH` (repeatable): an image attached to the prompt (run/image-flags.ts). */
  image?: string[]
}

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** tack's commands that take tack's own flags (`dice` and `state` parse theirs): named in usage errors. */
const COMMANDS = new Set(['run', 'sessions', 'acp', 'doctor', 'trust', 'hooks', 'mods'])

export function parseCommandLine(argv: readonly string[]): { positionals: string[]; flags: CommonFlags } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: COMMON_OPTIONS,
      allowPositionals: true,
      strict: true,
    })
    return { positionals, flags: values as CommonFlags }
  } catch (error) {
    throw new UsageError(flagErrorMessage(argv, error as Error & { code?: string }))
  }
}

/**
 * node:util's parse errors explain at length, in Node's words, how to quote a positional argument; a person
 * who typed `--foo` or `--at -1` wants one line naming the flag, what is wrong, and where the flags are.
 */
function flagErrorMessage(argv: readonly string[], error: Error & { code?: string }): string {
  // a lenient parse only to find which command the line is for (`tack --model m run --foo`)
  const lenient = parseArgs({
    args: [...argv],
    options: COMMON_OPTIONS,
    allowPositionals: true,
    strict: false,
  })
  const first = lenient.positionals[0]
  const command = lenient.values.print !== undefined ? 'run' : COMMANDS.has(first ?? '') ? first : undefined
  const where = `see ${command ? `tack ${command}` : 'tack'} --help`
  const quoted = /'(-[^'\s,]*)/.exec(error.message)?.[1]
  const flag = /--[\w-]+/.exec(error.message)?.[0] ?? quoted ?? 'a flag'
  const prefix = command ? `tack ${command}: ` : ''
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `${prefix}unknown flag ${quoted ?? flag} (${where})`
  if (/does not take an argument/.test(error.message)) return `${prefix}${flag} takes no value (${where})`
  if (/ambiguous/.test(error.message)) {
    const at = argv.findIndex((a) => a === flag || a === quoted)
    const value = at >= 0 ? argv[at + 1] : undefined
    return `${prefix}${flag} needs a value; one that starts with "-" is written ${flag}=${value ?? '-…'} (${where})`
  }
  if (/argument missing/.test(error.message)) return `${prefix}${flag} needs a value (${where})`
  return `${prefix}${error.message.split(/\.\s/)[0]} (${where})`
}
