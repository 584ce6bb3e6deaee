// `tack rewind [--to TURN] [--files-only | --conversation-only] [-r ID]` (docs/decisions/
// 0305-checkpoints-and-rewind.md): headless `/rewind` on this workspace's latest session (or `-r ID`).
// Without `--to` it lists the turns with what each changed; with it, the files go back to how they were
// before that turn and/or the conversation is forked there, and the fork's id is printed.
import { parseArgs } from 'node:util'
import { join } from 'node:path'
import { UsageError } from '../args.ts'
import { boot } from '../boot.ts'
import { CommandError } from '../errors.ts'
import { type CommandIO, outputRedactor } from '../io.ts'
import { printableIO } from '../printable.ts'
import { storeReadSecrets } from '../store-read-secrets.ts'
import { findSession, latestSessionOf } from '../session-ref.ts'
import { resolveSettings } from '../settings.ts'
import {
  changeSummary,
  outcomeText,
  parseRewindArgs,
  rewindPoints,
  rewindTo,
  storeFor,
  turnChanges,
} from '../checkpoints/rewind.ts'

export const REWIND_USAGE =
  'usage: tack rewind [--to TURN] [--files-only | --conversation-only] [-r ID] [--cwd DIR]'

export const REWIND_HELP = `${REWIND_USAGE}

  without --to: the turns of the session, each with its prompt and the files it changed
  --to TURN              the files as they were before TURN began, and the conversation forked there
                         (a new session; the one rewound from stays as it is); prints the fork's id
  --files-only           only the files
  --conversation-only    only the conversation (the fork)
  -r, --resume ID        that session instead of this workspace's latest
`

const OPTIONS = {
  to: { type: 'string' },
  'files-only': { type: 'boolean' },
  'conversation-only': { type: 'boolean' },
  resume: { type: 'string', short: 'r' },
  config: { type: 'string' },
  cwd: { type: 'string' },
  profile: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The default of `plugins.checkpoints.maxFileBytes` (checkpoints/plugin.ts). */
const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024

export async function rewindCommand(argv: readonly string[], terminal: CommandIO): Promise<number> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values']
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true }).values
  } catch (error) {
    throw new UsageError(`rewind: ${(error as Error).message.split(/\.\s/)[0]} (${REWIND_USAGE})`)
  }
  if (values.help) {
    terminal.out(REWIND_HELP)
    return 0
  }
  const io = printableIO(terminal)
  const words = [
    ...(values.to !== undefined ? ['--to', values.to] : []),
    ...(values['files-only'] ? ['--files-only'] : []),
    ...(values['conversation-only'] ? ['--conversation-only'] : []),
  ]
  const parsed = parseRewindArgs(words)
  if (typeof parsed === 'string') throw new UsageError(`rewind: ${parsed} (${REWIND_USAGE})`)
  const flags = {
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
  }
  const { settings, paths, cwd, trust } = await resolveSettings(flags, io.env, io.cwd)
  const configured = settings.plugins.checkpoints
  const own = configured && typeof configured === 'object' ? configured : {}
  const root = typeof own.root === 'string' ? own.root : join(paths.home, 'checkpoints')
  const maxFileBytes = typeof own.maxFileBytes === 'number' ? own.maxFileBytes : DEFAULT_MAX_FILE_BYTES
  const booted = await boot({ settings, paths, env: io.env, cwd, trust, storeOnly: true })
  const { ctx } = booted
  const secrets = storeReadSecrets(settings.plugins, paths.envFile, ctx.secrets)
  terminal.protectSecrets?.(secrets.names, secrets.values)
  try {
    const summary =
      values.resume !== undefined
        ? await findSession(ctx.sessions, values.resume, outputRedactor(terminal))
        : await latestSessionOf(ctx.sessions, cwd)
    const { events } = await ctx.sessionStore.load(summary.id)
    const points = rewindPoints(events, outputRedactor(terminal))
    if (points.length === 0) {
      io.out(`session ${summary.id} has no turns to rewind to\n`)
      return 0
    }
    if (parsed.turn === undefined) {
      const store = storeFor(root, summary.cwd)
      const now = points.some((p) => p.tree) ? (await store.snapshot(maxFileBytes)).tree : undefined
      const changes = await turnChanges(store, points, now)
      io.out(`session ${summary.id}\n`)
      for (const p of points)
        io.out(
          `  ${String(p.turn).padStart(3)}  ${p.prompt || '(no prompt)'} — ${changeSummary(changes.get(p.turn))}\n`,
        )
      return 0
    }
    const outcome = await rewindTo(
      { root, maxFileBytes, cwd: summary.cwd, points, turn: parsed.turn, mode: parsed.mode },
      async (atSeq) => (await ctx.sessions.fork(summary.id, { atSeq })).id,
    ).catch((error: Error) => {
      // An unknown turn, a store git cannot read: one line naming what failed, exit 1.
      throw new CommandError(`rewind: ${error.message}`)
    })
    io.out(`${outcomeText(parsed.turn, parsed.mode, outcome)}\n`)
    // A fork before turn 1 holds no turn yet, and `-c` skips such sessions: name the way back in.
    if (outcome.forkId) io.out(`(continue it with tack -r ${outcome.forkId})\n`)
    return 0
  } finally {
    await booted.close()
  }
}
