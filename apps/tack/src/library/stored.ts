// The library's reads of the session store (api.ts listSessions, readSession, and the lookup before a
// resume or fork): a store-only boot, as `tack sessions …` and `tack run -r` make, for the folder the
// options name (default the process's), so its config decides which store is read. What they return is
// redacted as `tack sessions … --json` output is, with the secrets a full boot would declare (redaction.ts).
import { existsSync } from 'node:fs'
import type { SessionSummary } from '@tack/session'
import type { Context } from 'cordis'
import { boot } from '../boot.ts'
import type { Redactor } from '../secrets.ts'
import { findSession } from '../session-ref.ts'
import { storeReadSecrets } from '../store-read-secrets.ts'
import { resolveWorkspaceSettings } from '../settings.ts'
import type { ResumeOptions, StoredSession } from './api.ts'
import { TackError } from './errors.ts'
import { checkOptions, workspaceOf } from './options.ts'
import { EventRedaction, redactedCopy } from './redaction.ts'

/** Runs `read` on a store-only boot for the options' folder, then closes it. */
export async function withStore<T>(
  options: ResumeOptions,
  redact: Redactor,
  read: (ctx: Context) => Promise<T>,
): Promise<T> {
  const checked = checkOptions(options, workspaceOf(options.cwd ?? process.cwd()), redact)
  const { settings, paths, cwd, trust } = await resolveWorkspaceSettings(
    checked.settings,
    checked.env,
    checked.processCwd,
  )
  const store = await boot({ settings, paths, env: checked.env, cwd, trust, storeOnly: true })
  // A store-only boot loads no model endpoints nor tack's .env plugin, so their variables (a key read
  // from `apiKeyEnv: GPU_PASS`, a name in $TACK_HOME/.env) are added here, as a full boot declares them;
  // the store declares its own (a PostgreSQL password, from the URL, PGPASSWORD or the password file).
  try {
    const secrets = storeReadSecrets(settings.plugins, paths.envFile, store.ctx.secrets)
    redact.protect(secrets.names, secrets.values)
    return await read(store.ctx)
  } finally {
    await store.close()
  }
}

/** The stored session `id` names (a unique prefix is enough), looked up as `tack run -r` does, to run again. */
export async function sessionToRun(
  id: string,
  options: ResumeOptions,
  redact: Redactor,
): Promise<SessionSummary> {
  const found = await withStore(options, redact, (ctx) => findSession(ctx.sessions, checkedId(id), redact))
  if (options.cwd !== undefined && found.cwd !== workspaceOf(options.cwd))
    throw new TackError(
      'usage',
      `session ${found.id} ran in ${found.cwd}; it resumes there (cwd ${options.cwd} was given)`,
    )
  if (!existsSync(found.cwd))
    throw new TackError('not-found', `session ${found.id} ran in ${found.cwd}, which no longer exists`)
  return found
}

/** A stored session's summary and log, read without becoming its writer (a live writer's turn stays as stored). */
export async function readStored(
  id: string,
  options: ResumeOptions,
  redact: Redactor,
): Promise<StoredSession> {
  return withStore(options, redact, async (ctx) => {
    const summary = await findSession(ctx.sessions, checkedId(id), redact)
    const { events } = await ctx.sessionStore.load(summary.id)
    // Deltas re-cut as a live session's are (a secret split across two is redacted too).
    const shown = new EventRedaction(redact).events(events as StoredSession['events'])
    return Object.freeze({ summary: redactedCopy(summary, redact), events: shown })
  })
}

/** Every stored session, oldest first. */
export function listStored(options: ResumeOptions, redact: Redactor): Promise<readonly SessionSummary[]> {
  return withStore(options, redact, async (ctx) => redactedCopy(await ctx.sessions.list(), redact))
}

function checkedId(id: unknown): string {
  if (typeof id !== 'string' || id === '')
    throw new TackError('usage', `a session id is needed (got ${JSON.stringify(id)})`)
  return id
}
