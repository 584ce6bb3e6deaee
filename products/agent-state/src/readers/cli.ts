// The `agent-state` command line: argument parsing and dispatch to the readers (R22–R25) and
// `plugin-dir` (R1). Usage errors are one line on stderr and exit 2 — except under `tmux`, which always
// exits 0 (R25), since a status bar shows whatever it prints.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type ParseArgsOptionDescriptor, parseArgs } from 'node:util'
import { type Io, status, tmux, UsageError, watch } from './commands.ts'

/** The mod folder: `src/readers` and `build/readers` both sit two levels under the package. */
export const MOD_DIR = fileURLToPath(new URL('../../mod', import.meta.url))

const USAGE = `Usage: agent-state <command> [options]

Commands:
  status [<id-prefix>] [--json] [--all]   the sessions running now (--all adds stale, ended, unreadable)
  watch [--all] [--interval <ms>] [--count <n>]
                                          status, redrawn every interval (default 1000, 200..60000)
  tmux [--cwd <dir>] [--format <f>] [--style plain|tmux]
                                          one line of live counts for a status bar
  plugin-dir                              the mod folder, for claude --plugin-dir "$(agent-state plugin-dir)"

Options for status, watch and tmux:
  --dir <path>          a folder of snapshots (repeatable; default: AGENT_STATE_DIR, then
                        ~/.claude/agent-state and <tack home>/agent-state)
  --stale-after <s>     seconds without a heartbeat before a session is stale (1..86400; default 75)
`

function intIn(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${value}"`)
  return n
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined) {
    io.stderr.write(USAGE)
    return 2
  }
  if (command === '--help' || command === '-h' || command === 'help') return help(io)
  if (command === '--version' || command === '-V') {
    io.stdout.write(`${version()}\n`)
    return 0
  }
  try {
    return await run(command, rest, io)
  } catch (error) {
    const message =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    if (!message) throw error
    // parseArgs explains at length; its first sentence names the option
    const first = (error as Error).message.split(/\. (?=[A-Z])/)[0]
    io.stderr.write(`agent-state ${command}: ${first}\n`)
    return command === 'tmux' ? 0 : 2
  }
}

const FLAG = { type: 'boolean' } as const
const VALUE = { type: 'string' } as const

/** The flags every reading command takes. */
const COMMON = {
  dir: { ...VALUE, multiple: true },
  'stale-after': VALUE,
  help: { ...FLAG, short: 'h' },
} as const

/** A command's flags: the common ones and `own`, strictly (an unknown flag is a usage error). */
function flagsOf<const O extends Record<string, ParseArgsOptionDescriptor>>(args: string[], own: O) {
  const options: typeof COMMON & O = { ...COMMON, ...own }
  return parseArgs({ args, options, strict: true }).values
}

async function run(command: string, rest: string[], io: Io): Promise<number> {
  switch (command) {
    case 'plugin-dir':
      parseArgs({ args: rest, options: {}, strict: true })
      io.stdout.write(`${MOD_DIR}\n`)
      return 0
    case 'status': {
      const { values, positionals } = parseArgs({
        args: rest,
        options: { ...COMMON, json: FLAG, all: FLAG },
        allowPositionals: true,
        strict: true,
      })
      if (values.help) return help(io)
      if (positionals.length > 1)
        throw new UsageError(`takes at most one id prefix, got ${positionals.length}`)
      return status(io, {
        ...selection(values),
        prefix: positionals[0],
        json: values.json === true,
        all: values.all === true,
      })
    }
    case 'watch': {
      const values = flagsOf(rest, { all: FLAG, interval: VALUE, count: VALUE })
      if (values.help) return help(io)
      return watch(io, {
        ...selection(values),
        all: values.all === true,
        intervalMs: intIn(values.interval, '--interval', 200, 60_000) ?? 1_000,
        count: intIn(values.count, '--count', 1, 1_000_000),
      })
    }
    case 'tmux': {
      const values = flagsOf(rest, { cwd: VALUE, format: VALUE, style: VALUE })
      if (values.help) return help(io)
      const style = values.style ?? 'plain'
      if (style !== 'plain' && style !== 'tmux')
        throw new UsageError(`--style is plain or tmux, not "${style}"`)
      return tmux(io, { ...selection(values), cwd: values.cwd, format: values.format, style })
    }
    default:
      throw new UsageError(`unknown command; try agent-state --help`)
  }
}

function help(io: Io): number {
  io.stdout.write(USAGE)
  return 0
}

function selection(values: { dir?: string[]; 'stale-after'?: string }) {
  const seconds = intIn(values['stale-after'], '--stale-after', 1, 86_400)
  return { dirs: values.dir ?? [], staleAfterMs: seconds === undefined ? undefined : seconds * 1000 }
}
