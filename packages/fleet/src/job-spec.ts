// What a job asks for (95-fleet.md F2): the task, the repository and ref to check out, the model, a cost
// bound and labels. Checked before anything reaches the queue, so a bad line of a batch names its line
// and nothing of the batch is submitted.
import { isAbsolute, resolve } from 'node:path'
import { FleetError } from './errors.ts'
import { type Labels, parseLabel } from './labels.ts'

export interface JobSpec {
  readonly task: string
  /** A git URL, or an absolute path of a repository on the workers' machines. */
  readonly repo: string
  readonly ref?: string
  readonly model?: string
  /** The session stops when its cost passes this many US dollars. */
  readonly maxCostUsd?: number
  readonly labels: Labels
}

/** A spec as given (flags or one JSON line), before checking. */
export interface JobInput {
  task?: unknown
  repo?: unknown
  ref?: unknown
  model?: unknown
  maxCost?: unknown
  labels?: unknown
}

const KEYS = ['task', 'repo', 'ref', 'model', 'maxCost', 'labels']

/** A git remote (scheme://…, or scp-like user@host:path) rather than a folder. */
export function isRemote(repo: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\s]+@[^/\s:]+:/.test(repo)
}

/**
 * Checks one job. `where` prefixes every message (`tasks.jsonl line 3: `); `cwd` makes a relative
 * repository folder absolute, since a worker starts elsewhere.
 */
export function checkJob(input: JobInput, cwd: string, where = ''): JobSpec {
  const fail = (message: string): never => {
    throw new FleetError('BAD_JOB', `${where}${message}`)
  }
  for (const key of Object.keys(input))
    if (!KEYS.includes(key)) fail(`unknown key "${key}" (known: ${KEYS.join(', ')})`)
  const task = typeof input.task === 'string' ? input.task.trim() : ''
  if (task === '') fail('the task is empty')
  if (typeof input.repo !== 'string' || input.repo.trim() === '')
    fail('no repository (--repo, a git URL or a folder)')
  const given = (input.repo as string).trim()
  const repo = isRemote(given) || isAbsolute(given) ? given : resolve(cwd, given)
  const ref = optionalString(input.ref, 'ref', fail)
  if (ref !== undefined && (ref.startsWith('-') || /\s/.test(ref)))
    fail(`ref ${JSON.stringify(ref)} is not a branch, tag or commit name`)
  const model = optionalString(input.model, 'model', fail)
  let maxCostUsd: number | undefined
  if (input.maxCost !== undefined) {
    const n = typeof input.maxCost === 'string' ? Number(input.maxCost) : input.maxCost
    if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
      fail(`max cost ${JSON.stringify(input.maxCost)} is not a positive number of US dollars`)
    maxCostUsd = n as number
  }
  const labels: Record<string, string> = {}
  if (input.labels !== undefined) {
    if (typeof input.labels !== 'object' || input.labels === null || Array.isArray(input.labels))
      fail('labels must be an object of "key": "value"')
    for (const [k, v] of Object.entries(input.labels as Record<string, unknown>)) {
      if (typeof v !== 'string') fail(`label ${k} must be a string`)
      try {
        parseLabel(`${k}=${v}`)
      } catch (error) {
        fail((error as Error).message)
      }
      labels[k] = v as string
    }
  }
  return {
    task,
    repo,
    ...(ref !== undefined ? { ref } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    labels,
  }
}

function optionalString(value: unknown, name: string, fail: (m: string) => never): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.trim() === '') return fail(`${name} must be a non-empty string`)
  return value.trim()
}

/**
 * A batch file: one JSON object per line (blank lines and lines starting with `#` skipped). `defaults`
 * (the command's own flags) fill what a line leaves out. Every bad line is reported, each with its number.
 */
export function parseJobLines(text: string, file: string, cwd: string, defaults: JobInput = {}): JobSpec[] {
  const specs: JobSpec[] = []
  const problems: string[] = []
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return
    const where = `${file} line ${i + 1}: `
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch (error) {
      problems.push(`${where}not JSON (${(error as Error).message})`)
      return
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problems.push(`${where}not a JSON object`)
      return
    }
    const own = parsed as JobInput
    // A line's labels that are not an object go to checkJob as they are, for its error: spread, a string
    // or a list became labels named 0, 1, 2….
    const ownLabels = own.labels
    const mergeable =
      ownLabels === undefined ||
      (typeof ownLabels === 'object' && ownLabels !== null && !Array.isArray(ownLabels))
    const merged: JobInput = {
      ...defaults,
      ...own,
      labels: mergeable
        ? { ...((defaults.labels as object) ?? {}), ...((ownLabels as object) ?? {}) }
        : ownLabels,
    }
    try {
      specs.push(checkJob(merged, cwd, where))
    } catch (error) {
      problems.push((error as Error).message)
    }
  })
  if (problems.length) {
    const more =
      problems.length > 1
        ? ` (and ${problems.length - 1} more bad lines; nothing submitted)`
        : ' (nothing submitted)'
    throw new FleetError('BAD_JOB', `${problems[0]}${more}`)
  }
  if (specs.length === 0) throw new FleetError('BAD_JOB', `${file}: no jobs in the file`)
  return specs
}
