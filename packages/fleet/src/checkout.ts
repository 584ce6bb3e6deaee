// A job's workspace (95-fleet.md F3): a fresh clone of its repository at its ref under the worker's
// scratch folder, removed afterwards; the change the session made is captured as a binary-safe diff
// against the checked-out commit before the folder goes. Git runs with no prompt (a credential it lacks
// fails the clone at once) and no hooks (the repository is not trusted).
//
// The worker's own git commands run outside the sandbox, in a folder that other jobs' sandboxed commands
// can write when the scratch folder is in a temp folder (the default): one job could plant
// `core.fsmonitor` or a filter in another's `.git/config` for the worker to run. So the config the clone
// wrote is kept in memory and put back before the diff is read, `.git` must still be the clone's folder,
// and the diff's commands turn fsmonitor and external diff programs off (docs/decisions/0375-fleet-probe.md).
import { execFile } from 'node:child_process'
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { FleetError } from './errors.ts'
import type { JobSpec } from './job-spec.ts'

const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', GCM_INTERACTIVE: 'never' }

interface GitResult {
  readonly ok: boolean
  readonly stdout: string
  readonly stderr: string
}

function git(args: readonly string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [
        '-c',
        'core.hooksPath=/dev/null',
        '-c',
        'core.fsmonitor=false',
        '-c',
        'protocol.file.allow=always',
        ...args,
      ],
      {
        cwd: opts.cwd,
        env: { ...process.env, ...GIT_ENV },
        timeout: opts.timeoutMs ?? 300_000,
        maxBuffer: 256 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => resolve({ ok: !error, stdout, stderr: stderr || (error?.message ?? '') }),
    )
  })
}

/** git's own reason: its first `fatal:`/`error:` line (later lines are generic advice), else its last line. */
function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
  const reason = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines.at(-1) ?? 'git failed'
  return reason.replace(/^(fatal|error):\s*/, '')
}

/** Whether `repo` can be cloned from here: one `git ls-remote`, for `jobs submit` to refuse early. */
export async function checkRepository(repo: string): Promise<void> {
  const r = await git(['ls-remote', '--quiet', '--', repo, 'HEAD'], { timeoutMs: 60_000 })
  if (!r.ok) throw new FleetError('CLONE_FAILED', `cannot clone ${repo}: ${lastLine(r.stderr)}`)
}

export interface Workspace {
  readonly dir: string
  /** The commit checked out, which the diff is taken against. */
  readonly base: string
  /** Everything the session changed (committed or not, new files included), as `git diff --binary`. */
  diff(): Promise<string>
  remove(): Promise<void>
}

export async function checkoutJob(spec: JobSpec, scratchDir: string, name: string): Promise<Workspace> {
  await mkdir(scratchDir, { recursive: true, mode: 0o700 })
  const dir = join(scratchDir, name)
  await rm(dir, { recursive: true, force: true })
  const remove = () => rm(dir, { recursive: true, force: true, maxRetries: 3 })
  const fail = async (what: string, r: GitResult): Promise<never> => {
    await remove()
    throw new FleetError('CLONE_FAILED', `cannot ${what}: ${lastLine(r.stderr)}`)
  }
  // `--` and `--end-of-options`: a job row is data, so a repository or ref that reads as an option
  // (`--upload-pack=…`) stays a name even when the row did not come through checkJob.
  const cloned = await git(['clone', '--quiet', '--', spec.repo, dir])
  if (!cloned.ok) await fail(`clone ${spec.repo}`, cloned)
  if (spec.ref) {
    // The ref as given (a tag, a commit, a local branch), else the remote's branch of that name; one
    // that is neither is named as such, not by the second checkout's confusing complaint.
    const commit = async (name: string) =>
      git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`], { cwd: dir })
    let found = await commit(spec.ref)
    if (!found.ok) found = await commit(`origin/${spec.ref}`)
    if (!found.ok) {
      await remove()
      throw new FleetError('CLONE_FAILED', `no branch, tag or commit ${spec.ref} in ${spec.repo}`)
    }
    const r = await git(['checkout', '--quiet', '--detach', found.stdout.trim()], { cwd: dir })
    if (!r.ok) await fail(`check out ${spec.ref} of ${spec.repo}`, r)
  }
  const head = await git(['rev-parse', 'HEAD'], { cwd: dir })
  if (!head.ok) await fail(`read the checked-out commit of ${spec.repo}`, head)
  const base = head.stdout.trim()
  const gitDir = join(dir, '.git')
  const config = await readFile(join(gitDir, 'config'))
  return {
    dir,
    base,
    async diff() {
      await restoreGitDir(gitDir, config)
      await flattenNestedRepos(dir, gitDir)
      const added = await git(['add', '--all'], { cwd: dir })
      if (!added.ok)
        throw new FleetError('BAD_STATE', `cannot read the workspace's changes: ${lastLine(added.stderr)}`)
      const d = await git(['diff', '--cached', '--binary', '--no-ext-diff', base], { cwd: dir })
      if (!d.ok)
        throw new FleetError('BAD_STATE', `cannot read the workspace's changes: ${lastLine(d.stderr)}`)
      return d.stdout
    },
    remove,
  }
}

/**
 * Puts the clone's `.git/config` back (replacing whatever stands there, a link included) and drops the
 * files that would point git at another config (`commondir`, `config.worktree`); a `.git` that is no longer
 * a folder is refused rather than followed.
 */
async function restoreGitDir(gitDir: string, config: Buffer): Promise<void> {
  const st = await lstat(gitDir).catch(() => undefined)
  if (!st?.isDirectory())
    throw new FleetError(
      'BAD_STATE',
      `cannot read the workspace's changes: ${gitDir} is no longer the clone's git folder`,
    )
  for (const f of ['config', 'commondir', 'config.worktree'])
    await rm(join(gitDir, f), { force: true, recursive: true })
  await writeFile(join(gitDir, 'config'), config, { flag: 'wx', mode: 0o600 })
}

/**
 * A repository the session made inside the checkout (`git init` in a subfolder, as project generators do)
 * is a folder of files to the job, but `git add --all` would fail on it ("does not have a commit checked
 * out") or record only its commit. Its `.git` is moved into the checkout's own git folder (which git never
 * adds, and which goes with the checkout), so its files enter the diff as plain content. Git lists such a
 * repository as an untracked `folder/`; one nested in another shows once the outer is flattened.
 */
async function flattenNestedRepos(dir: string, gitDir: string): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const r = await git(['ls-files', '-z', '--others', '--exclude-standard'], { cwd: dir })
    if (!r.ok) return // git add reports the problem with its own words
    const nested = r.stdout.split('\0').filter((entry) => entry.endsWith('/'))
    if (nested.length === 0) return
    for (const [i, entry] of nested.entries())
      await rename(join(dir, entry, '.git'), join(gitDir, `tack-nested-${round}-${i}`)).catch(() => {})
  }
}
