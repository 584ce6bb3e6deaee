// Which session `tack run` works on (issue 10 item 1, 80-cli §2): a new one, the latest of this
// workspace (`-c`/`--continue`), or a named one (`-r ID`/`--resume ID`, a unique prefix is enough; a
// fork is a session like any other). A resumed session runs in its own workspace — its tools, project
// config and trust are that folder's — so the settings are resolved again for it when it differs.
import { existsSync } from 'node:fs'
import type { SessionSummary } from '@tack/session'
import type { CommonFlags } from '../args.ts'
import { UsageError } from '../args.ts'
import { boot } from '../boot.ts'
import { CliError } from '../errors.ts'
import { type CommandIO, outputRedactor } from '../io.ts'
import { findSession, latestSessionOf } from '../session-ref.ts'
import { type Resolved, resolveSettings } from '../settings.ts'

export interface RunTarget {
  readonly resolved: Resolved
  /** The stored session to continue; absent for a new session. */
  readonly resume?: SessionSummary
}

export async function resolveRunTarget(flags: CommonFlags, io: CommandIO): Promise<RunTarget> {
  const resolved = await resolveSettings(flags, io.env, io.cwd)
  const ref = flags.resume
  if (!flags.continue && ref === undefined) return { resolved }
  if (flags.continue && ref !== undefined)
    throw new UsageError('pass either -c/--continue or -r/--resume ID, not both')
  if (flags['no-session'])
    throw new UsageError('--no-session keeps nothing to continue: drop it, or drop -c/-r')
  const { settings, paths, cwd, trust } = resolved
  const store = await boot({ settings, paths, env: io.env, cwd, trust, storeOnly: true })
  let resume: SessionSummary
  try {
    resume =
      ref !== undefined
        ? await findSession(store.ctx.sessions, ref, outputRedactor(io))
        : await latestSessionOf(store.ctx.sessions, cwd)
  } finally {
    await store.close()
  }
  if (resume.cwd === cwd) return { resolved, resume }
  if (!existsSync(resume.cwd))
    throw new CliError(`session ${resume.id} ran in ${resume.cwd}, which no longer exists`)
  return { resolved: await resolveSettings({ ...flags, cwd: resume.cwd }, io.env, io.cwd), resume }
}
