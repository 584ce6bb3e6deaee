// `tack jobs submit|list|show|logs|cancel|retry` (95-fleet.md F2): jobs in the shared PostgreSQL, from
// any machine with its URL (TACK_STORE_URL or plugins.store.url). Built on @tack/fleet; a bad job, a
// bad line of a batch, a repository that cannot be cloned or a database that cannot be reached is one
// line on stderr, and nothing is half submitted.
import { readFile } from 'node:fs/promises'
import { hostname, userInfo } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { UsageError } from '../args.ts'
import { CliError } from '../errors.ts'
import { cliErrorOf, fleetSettings } from '../fleet-settings.ts'
import type { CommandIO } from '../io.ts'
import { printableIO } from '../printable.ts'
import { listLines, showText } from './jobs-print.ts'

export const JOBS_USAGE =
  'usage: tack jobs submit "TASK" --repo URL|DIR [--ref R] [--model M] [--max-cost USD] [--label k=v]… | ' +
  'tack jobs submit --from tasks.jsonl | tack jobs list|show|logs|cancel|retry [ID]'

export const JOBS_HELP = `usage: tack jobs SUBCOMMAND [--config FILE] [--profile NAME]

  tack jobs submit "TASK" --repo URL|DIR [--ref REF] [--model M] [--max-cost USD] [--label k=v]…
      queues a job: a worker runs TASK as a headless session in a fresh clone of the repository
  tack jobs submit --from tasks.jsonl [--repo …] [--model …] [--label …]
      one job per line: {"task", "repo", "ref", "model", "maxCost", "labels": {"k": "v"}}; the flags fill
      what a line leaves out; a bad line is named by its number and nothing is submitted
  tack jobs list [--state queued|active|done|failed|cancelled] [--limit N] [--json]
  tack jobs show ID [--json]      the job, each attempt, and when done its answer, usage, cost and diff
  tack jobs logs ID               the session's events, followed live while the job runs
  tack jobs cancel ID             a running job's turn ends like Ctrl-C
  tack jobs retry ID              a failed job gets one more attempt; a cancelled one is queued again

The database is TACK_STORE_URL, else plugins.store.url (the session store's); IDs may be a unique prefix.
`

const OPTIONS = {
  repo: { type: 'string' },
  ref: { type: 'string' },
  model: { type: 'string' },
  'max-cost': { type: 'string' },
  label: { type: 'string', multiple: true },
  from: { type: 'string' },
  state: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  config: { type: 'string' },
  profile: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

export async function jobsCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(`jobs: ${(error as Error).message.split(/\.\s/)[0]} (${JOBS_USAGE})`)
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.out(JOBS_HELP)
    return 0
  }
  if (positionals.length === 0) throw new UsageError(`jobs: which one? (${JOBS_USAGE})`)
  const [sub, ...rest] = positionals
  if (!['submit', 'list', 'show', 'logs', 'cancel', 'retry'].includes(sub))
    throw new UsageError(`jobs: unknown subcommand "${sub}" (${JOBS_USAGE})`)
  const fleetLib = await import('@tack/fleet')
  // Input is checked before the database is opened: a bad job never waits on a connection.
  const specs = sub === 'submit' ? await readSpecs(values, rest, io) : undefined
  if (sub !== 'submit' && sub !== 'list' && rest.length !== 1)
    throw new UsageError(`jobs ${sub} takes one job id (${JOBS_USAGE})`)
  const { url, config } = await fleetSettings(values, io)
  try {
    if (specs) for (const repo of new Set(specs.map((s) => s.repo))) await fleetLib.checkRepository(repo)
    const fleet = await fleetLib.openFleet(url)
    try {
      const out = printableIO(io).out
      switch (sub) {
        case 'submit': {
          const ids = await fleetLib.submitJobs(fleet, specs ?? [], {
            retryLimit: config.retryLimit,
            heartbeatSeconds: config.heartbeatSeconds,
            maxJobMinutes: config.maxJobMinutes,
            submittedBy: `${userInfo().username}@${hostname()}`,
          })
          io.out(values.json ? `${JSON.stringify(ids)}\n` : ids.map((id) => `${id}\n`).join(''))
          io.err(`tack: submitted ${ids.length} job${ids.length === 1 ? '' : 's'}\n`)
          return 0
        }
        case 'list': {
          const state = values.state
          if (state !== undefined && !(fleetLib.JOB_STATES as readonly string[]).includes(state))
            throw new UsageError(`--state must be one of ${fleetLib.JOB_STATES.join(', ')} (got "${state}")`)
          const limit = values.limit === undefined ? 50 : Number(values.limit)
          if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
            throw new UsageError(`--limit must be a whole number from 1 to 1000 (got "${values.limit}")`)
          const jobs = await fleetLib.listJobs(fleet, {
            limit,
            ...(state ? { state: state as (typeof fleetLib.JOB_STATES)[number] } : {}),
          })
          if (values.json) io.out(`${JSON.stringify(jobs)}\n`)
          else out(listLines(jobs))
          return 0
        }
        case 'show': {
          const job = await fleetLib.getJob(fleet, rest[0])
          if (values.json) io.out(`${JSON.stringify(job)}\n`)
          else out(showText(job))
          return 0
        }
        case 'logs': {
          const { followJobLogs } = await import('./jobs-logs.ts')
          return await followJobLogs(fleet, rest[0], url, io)
        }
        case 'cancel': {
          const job = await fleetLib.cancelJob(fleet, rest[0])
          io.err(
            `tack: cancelled job ${job.id}${job.state === 'active' ? ' (its running turn ends like Ctrl-C)' : ''}\n`,
          )
          return 0
        }
        default: {
          const job = await fleetLib.retryJob(fleet, rest[0])
          io.err(`tack: job ${job.id} is queued again\n`)
          return 0
        }
      }
    } finally {
      await fleet.close()
    }
  } catch (error) {
    throw cliErrorOf(error)
  }
}

async function readSpecs(values: Values, rest: readonly string[], io: CommandIO) {
  const { checkJob, parseJobLines, parseLabels } = await import('@tack/fleet')
  try {
    const labels = parseLabels(values.label ?? [])
    const defaults = {
      ...(values.repo !== undefined ? { repo: values.repo } : {}),
      ...(values.ref !== undefined ? { ref: values.ref } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values['max-cost'] !== undefined ? { maxCost: values['max-cost'] } : {}),
      labels,
    }
    if (values.from !== undefined) {
      if (rest.length > 0) throw new UsageError('jobs submit: give a task or --from FILE, not both')
      const file = resolve(io.cwd, values.from)
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new CliError(`cannot read ${values.from} (${error.code ?? error.message})`)
      })
      return parseJobLines(text, values.from, io.cwd, defaults)
    }
    if (rest.length !== 1)
      throw new UsageError(`jobs submit takes one task (quote it), or --from FILE (${JOBS_USAGE})`)
    return [checkJob({ ...defaults, task: rest[0] }, io.cwd)]
  } catch (error) {
    throw cliErrorOf(error)
  }
}
