// `tack <command>`: parse, then import only the command that runs. Errors a user can fix (config,
// usage, no model) are one clear line on stderr with exit code 2; a failed turn is exit code 1.
import { ConfigError } from '@tack/kernel'
import { TackHomeError } from '@tack/kernel/home'
import { parseCommandLine, UsageError } from './args.ts'
import { CliError, CommandError } from './errors.ts'
import { withEnvFile } from './env-file.ts'
import { type CommandIO, processIO } from './io.ts'
import { tackPaths } from './paths.ts'
import { printable } from './printable.ts'

export { CliError }

export async function main(argv: readonly string[], io?: CommandIO): Promise<number> {
  const baseEnv = io?.env ?? process.env
  const env = withEnvFile(baseEnv, tackPaths(baseEnv, io?.cwd ?? process.cwd()).envFile)
  const cio = io ?? processIO(env)
  try {
    if (argv[0] === 'dice') {
      // agent-dice parses its own flags (--die, --target, …), so they bypass tack's parser.
      const { diceCommand } = await import('./commands/dice.ts')
      return await diceCommand(argv.slice(1), { ...cio, env })
    }
    if (argv[0] === 'state') {
      // agent-state's readers parse their own flags (--dir, --json, --interval, …).
      const { stateCommand } = await import('./commands/state.ts')
      return await stateCommand(argv.slice(1), { ...cio, env })
    }
    if (argv[0] === 'mcp') {
      // `tack mcp add NAME -- CMD ARGS…`: the server's command has flags of its own.
      const { mcpCommand } = await import('./commands/mcp.ts')
      return await mcpCommand(argv.slice(1), { ...cio, env })
    }
    if (argv[0] === 'rewind') {
      // `tack rewind [--to TURN] [--files-only | --conversation-only]` parses its own flags.
      const { rewindCommand } = await import('./commands/rewind.ts')
      return await rewindCommand(argv.slice(1), { ...cio, env })
    }
    if (argv[0] === 'serve') {
      // `tack serve [--port N] [--host H]`: the web view, which parses its own flags (and --help).
      const { serveCommand } = await import('./commands/serve.ts')
      return await serveCommand(argv.slice(1), { ...cio, env })
    }
    if (argv[0] === 'skills') {
      // `tack skills list|show` parses its own few flags (and answers its own --help).
      const { skillsCommand } = await import('./commands/skills.ts')
      return await skillsCommand(argv.slice(1), { ...cio, env })
    }
    if (argv[0] === 'jobs') {
      // `tack jobs submit|list|show|logs|cancel|retry` parses its own flags (--repo, --label, --from, …).
      const { jobsCommand } = await import('./commands/jobs.ts')
      return await jobsCommand(argv.slice(1), { ...cio, env })
    }
    if (argv[0] === 'worker') {
      // `tack worker [--concurrency N] [--labels k=v,…]` parses its own flags.
      const { workerCommand } = await import('./commands/worker.ts')
      if (io === undefined) await boundHeapForSession(env, cio)
      return await workerCommand(argv.slice(1), { ...cio, env })
    }
    const { positionals, flags, pick } = parseWithBareResume(argv)
    let [command, ...rest] = positionals
    if (flags.print !== undefined) {
      // `tack -p "x"` and `tack run -p "x"` are the same run: the task is the flag's value, never "x run".
      rest = command === 'run' ? [flags.print, ...rest] : [flags.print, ...positionals]
      command = 'run'
    }
    switch (command) {
      case undefined: {
        // `tack`, `tack -c`, `tack -r [id]`: the interactive UI, imported only now (P1).
        const { interactiveCommand } = await import('./commands/interactive.ts')
        if (io === undefined) await boundHeapForSession(env, cio)
        return await interactiveCommand(flags, { ...cio, env }, pick)
      }
      case 'run': {
        const { runCommand } = await import('./commands/run.ts')
        if (io === undefined) await boundHeapForSession(env, cio)
        return await runCommand(rest, flags, { ...cio, env })
      }
      case 'sessions': {
        const { sessionsCommand } = await import('./commands/sessions.ts')
        return await sessionsCommand(rest, flags, { ...cio, env })
      }
      case 'acp': {
        // Imported only here: the ACP SDK costs nothing to the other commands (and `--version`).
        const { acpCommand } = await import('./commands/acp.ts')
        if (io === undefined) await boundHeapForSession(env, cio)
        return await acpCommand(rest, flags, { ...cio, env })
      }
      case 'doctor': {
        const { doctorCommand } = await import('./commands/doctor.ts')
        return await doctorCommand(flags, { ...cio, env })
      }
      case 'trust': {
        const { trustCommand } = await import('./commands/trust.ts')
        return await trustCommand(rest, flags, { ...cio, env })
      }
      case 'hooks': {
        const { hooksCommand } = await import('./commands/hooks.ts')
        return await hooksCommand(rest, flags, { ...cio, env })
      }
      case 'mods': {
        const { modsCommand } = await import('./commands/mods.ts')
        return await modsCommand(rest, flags, { ...cio, env })
      }
      default:
        throw new UsageError(`unknown command "${command}" (see tack --help)`)
    }
  } catch (error) {
    if (error instanceof CommandError) {
      cio.err(`tack: ${printable(error.message)}\n`)
      return 1
    }
    if (
      error instanceof ConfigError ||
      error instanceof UsageError ||
      error instanceof CliError ||
      error instanceof TackHomeError
    ) {
      cio.err(`tack: ${printable(error.message)}\n`)
      return 2
    }
    if (isStoreFailure(error)) {
      // Already one line naming the file and what to do (a damaged, read-only or full store, a
      // session another tack is writing); a stack would only bury it.
      cio.err(`tack: ${printable(oneLine(error.message))}\n`)
      return 1
    }
    const message = error instanceof Error ? error.message : String(error)
    cio.err(`tack: unexpected error: ${printable(oneLine(message))}\n`)
    // The stack is for whoever debugs tack, on request only.
    if (env.TACK_DEV === '1' && error instanceof Error && error.stack) cio.err(`${error.stack}\n`)
    return 70
  }
}

/**
 * The commands that run a session bound V8's old-space growth (session-heap.ts), after their own modules
 * are imported: the flag invalidates Node's code cache for built-ins compiled after it, and no
 * mark-compact has run yet by then, so the session's heap is governed by it all the same. Only when main
 * is the process's own entry (no `io` given): an in-process caller's V8 is not main's to tune.
 */
async function boundHeapForSession(env: NodeJS.ProcessEnv, cio: CommandIO): Promise<void> {
  const { boundSessionHeapGrowth } = await import('./session-heap.ts')
  boundSessionHeapGrowth(env, (text) => cio.err(text))
}

/**
 * `tack -r` with no id opens the resume picker, but parseArgs wants a value for `-r`: a bare `-r` (last,
 * or before another flag) is taken out and reported as `pick` when no command follows. With a command
 * (`tack run -r`) the parser's own error stands.
 */
function parseWithBareResume(
  argv: readonly string[],
): ReturnType<typeof parseCommandLine> & { pick: boolean } {
  const bare = argv.findIndex(
    (a, i) => (a === '-r' || a === '--resume') && (i === argv.length - 1 || argv[i + 1].startsWith('-')),
  )
  if (bare < 0) return { ...parseCommandLine(argv), pick: false }
  const parsed = parseCommandLine(argv.filter((_, i) => i !== bare))
  if (parsed.positionals.length > 0) parseCommandLine(argv) // throws the parser's "argument missing"
  return { ...parsed, pick: true }
}

// By name, so neither store's module is loaded to test for its errors.
const STORE_ERRORS = new Set([
  'SqliteStoreError',
  'PostgresStoreError',
  'SessionEventError',
  'UnsupportedSessionFormatError',
])

/** An error of the session store or its contract: its message is written for the user. */
function isStoreFailure(error: unknown): error is Error {
  return error instanceof Error && STORE_ERRORS.has(error.name)
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim()
}
