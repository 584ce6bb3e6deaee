// tack's record of each attempt of a job (which worker, which session, how it ended), written by the
// worker that runs it. pg-boss decides who runs a job; this only says what happened.
import type { Fleet } from './db.ts'
import type { AttemptOutcome } from './job-view.ts'

/**
 * Records attempt `attempt` as running on `worker`. Earlier attempts still marked running lost their
 * worker mid-job (pg-boss gave the job out again only because their lease lapsed): they are closed as
 * interrupted. Returns the session of the latest earlier attempt, which the new session names as
 * `attemptOf`, and the sessions just closed.
 */
export async function beginAttempt(
  fleet: Fleet,
  jobId: string,
  attempt: number,
  worker: string,
): Promise<{ previousSession?: string; interruptedSessions: string[] }> {
  const client = await fleet.pool.connect()
  try {
    await client.query('BEGIN')
    const lost = await client.query<{ session_id: string | null }>(
      `UPDATE tack_fleet.attempts SET outcome = 'interrupted', ended_at = now(),
         reason = 'lost: worker ' || worker || ' stopped heartbeating (killed, cut off or its machine gone)'
       WHERE job_id = $1 AND attempt < $2 AND outcome = 'running' RETURNING session_id`,
      [jobId, attempt],
    )
    const previous = await client.query<{ session_id: string | null }>(
      'SELECT session_id FROM tack_fleet.attempts WHERE job_id = $1 AND attempt < $2 AND session_id IS NOT NULL ORDER BY attempt DESC LIMIT 1',
      [jobId, attempt],
    )
    // A job given out again under the same attempt number (pg-boss's resume of a cancelled job) starts
    // its record over.
    await client.query(
      `INSERT INTO tack_fleet.attempts (job_id, attempt, worker) VALUES ($1, $2, $3)
       ON CONFLICT (job_id, attempt) DO UPDATE SET worker = $3, session_id = NULL, started_at = now(),
         last_event_at = NULL, ended_at = NULL, outcome = 'running', reason = NULL`,
      [jobId, attempt, worker],
    )
    await client.query('COMMIT')
    const previousSession = previous.rows[0]?.session_id ?? undefined
    return {
      ...(previousSession ? { previousSession } : {}),
      interruptedSessions: lost.rows.flatMap((r) => (r.session_id ? [r.session_id] : [])),
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

export async function setAttemptSession(fleet: Fleet, jobId: string, attempt: number, sessionId: string) {
  await fleet.pool.query(
    'UPDATE tack_fleet.attempts SET session_id = $3, last_event_at = now() WHERE job_id = $1 AND attempt = $2',
    [jobId, attempt, sessionId],
  )
}

export async function touchAttempt(fleet: Fleet, jobId: string, attempt: number, at: Date) {
  await fleet.pool.query(
    'UPDATE tack_fleet.attempts SET last_event_at = $3 WHERE job_id = $1 AND attempt = $2',
    [jobId, attempt, at],
  )
}

/** A pool or a transaction's client: an attempt's end is recorded with the queue's settle of it. */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>
}

export async function endAttempt(
  db: Fleet | Queryable,
  jobId: string,
  attempt: number,
  outcome: Exclude<AttemptOutcome, 'running'>,
  reason?: string,
) {
  await ('pool' in db ? db.pool : db).query(
    `UPDATE tack_fleet.attempts SET outcome = $3, reason = $4, ended_at = now()
     WHERE job_id = $1 AND attempt = $2`,
    [jobId, attempt, outcome, reason ?? null],
  )
}
