// Command-line parsing with node:util's parseArgs: common flags for every command, plus the command's own.
import { parseArgs } from 'node:util'

export const COMMON_OPTIONS = {
  model: { type: 'string' },
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
  mod: { type: 'string', multiple: true },
} as const

export type CommonFlags = {
  model?: string
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
  /** `--mod DIR` (repeatable): a Claude Code mod folder for this run (80-cli.md §7.2). */
  mod?: string[]
}

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

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
    throw new UsageError((error as Error).message)
  }
}
