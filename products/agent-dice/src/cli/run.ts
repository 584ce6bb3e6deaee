// `runCli(argv, io)`: the whole CLI as a function returning its exit code, so `agent-dice`,
// `cc-dice` and `tack dice` (with `AGENT_DICE_HOST=tack`) share it. Success goes to stdout with exit
// 0, every error to stderr with exit 1; `--json` prints exactly one object (R23–R25).
import { isDebug } from '../host/env.ts'
import { type FlagSpec, parseArgs, wantsJson } from './args.ts'
import { cliContext, cliHost, cliStore, type EmbeddedHost, embeddedContext } from './context.ts'
import { CliError, toCliError } from './errors.ts'
import { checkCommand, hookCommand, installCommand, uninstallCommand } from './host-commands.ts'
import type { CommandResult } from './result.ts'
import * as slots from './slot-commands.ts'
import { usageFor } from './usage.ts'

export interface CliIo {
  env: Readonly<Record<string, string | undefined>>
  stdout(text: string): void
  stderr(text: string): void
  cwd?: string
  /** Overrides `env.HOME`. */
  home?: string
  /** Reads stdin for `hook …` (default: this process's stdin). */
  stdin?: () => string
  /** Random source for `roll` (default `Math.random`). */
  rng?: () => number
  /** Pins the host instead of `AGENT_DICE_HOST` (embedders: pi's `/dice`, `tack dice`). */
  host?: EmbeddedHost
  /** The command the person typed, for the usage line (default `agent-dice`; `tack dice` under tack). */
  program?: string
}

const SESSION: FlagSpec = { values: ['--session'], maxPositionals: 1 }
const REGISTER: FlagSpec = {
  values: [
    '--die',
    '--target',
    '--target-mode',
    '--type',
    '--accumulation-rate',
    '--max-dice',
    '--fixed-count',
    '--cooldown',
    '--message',
  ],
  booleans: ['--no-clear-on-start', '--no-reset-on-trigger', '--no-flavor'],
  maxPositionals: 1,
}

const COMMANDS: Record<string, FlagSpec> = {
  register: REGISTER,
  unregister: { maxPositionals: 1 },
  list: { maxPositionals: 0 },
  status: SESSION,
  roll: SESSION,
  reset: SESSION,
  clear: SESSION,
  odds: { values: ['--to', '--session'], maxPositionals: 1 },
  install: { maxPositionals: 1 },
  check: { maxPositionals: 1 },
  uninstall: { booleans: ['--purge-data'], maxPositionals: 1 },
  hook: { maxPositionals: 1 },
}

const HELP = new Set(['help', '--help', '-h'])

function readProcessStdin(): string {
  try {
    return process.getBuiltinModule('node:fs').readFileSync(0, 'utf8')
  } catch {
    return ''
  }
}

async function dispatch(command: string, argv: readonly string[], io: CliIo): Promise<CommandResult> {
  const spec = COMMANDS[command]
  if (!spec) throw new CliError('unknown_command', `Unknown command: ${command}`, true)
  const e = { env: io.env, cwd: io.cwd ?? process.cwd(), home: io.home }
  const embedded = io.host
  const host = embedded?.kind ?? cliHost(e)
  const args = parseArgs(argv.slice(1), spec)
  // Built lazily: install/check/uninstall/hook resolve their own bases and must not fail on this one.
  let store: ReturnType<typeof cliStore> | undefined
  const env = {
    args,
    rng: io.rng,
    get store() {
      store ??= cliStore(e, host, embedded?.base)
      return store
    },
    context: (sessionFlag: string | undefined) =>
      embedded ? embeddedContext(e, embedded, sessionFlag) : cliContext(e, host, sessionFlag),
  }
  switch (command) {
    case 'register':
      return slots.register(env)
    case 'unregister':
      return slots.unregister(env)
    case 'list':
      return slots.list(env)
    case 'status':
      return slots.statusCommand(env)
    case 'roll':
      return slots.roll(env)
    case 'reset':
      return slots.reset(env)
    case 'clear':
      return slots.clear(env)
    case 'odds':
      return slots.odds(env)
    case 'install':
      return installCommand(e, args)
    case 'check':
      return checkCommand(e, args)
    case 'uninstall':
      return uninstallCommand(e, args)
    case 'hook':
      return hookCommand(e, args, io.stdin ?? readProcessStdin)
    default:
      throw new CliError('unknown_command', `Unknown command: ${command}`, true)
  }
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv)
  const command = argv.find((a) => a !== '--json')
  const usage = usageFor(io.program)
  if (command === undefined || HELP.has(command)) {
    if (json) io.stdout(`${JSON.stringify({ ok: true, command: 'help', usage })}\n`)
    else io.stdout(`${usage}\n`)
    return 0
  }
  try {
    const result = await dispatch(command, argv.slice(argv.indexOf(command)), io)
    const exitCode = result.exitCode ?? 0
    if (json) {
      io.stdout(`${JSON.stringify({ ok: result.ok ?? true, command, ...result.data })}\n`)
    } else {
      if (result.stdoutText) io.stdout(result.stdoutText)
      if (result.lines.length > 0) io.stdout(`${result.lines.join('\n')}\n`)
      if (result.stderrText) io.stderr(result.stderrText)
    }
    return exitCode
  } catch (thrown) {
    const error = toCliError(thrown)
    if (json) {
      io.stdout(
        `${JSON.stringify({ ok: false, command, error: { code: error.code, message: error.message } })}\n`,
      )
    } else {
      io.stderr(`${error.message}\n`)
      if (error.withUsage) io.stdout(`${usage}\n`)
    }
    if (isDebug(io.env) && error.code === 'internal') {
      io.stderr(`${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`)
    }
    return 1
  }
}
