// A git repository with one commit at `<box.root>/repo`, for the fleet's tests to submit jobs against
// (its README holds `readme`). Author and committer are fixed, so no git identity of the machine is needed.
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Sandbox } from './helpers.ts'

export async function jobRepo(box: Sandbox, readme = 'x\n'): Promise<string> {
  const repo = join(box.root, 'repo')
  await mkdir(repo)
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      env: {
        ...box.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    })
  git('init', '-q', '-b', 'main')
  await writeFile(join(repo, 'README.md'), readme)
  git('add', '.')
  git('commit', '-qm', 'first')
  return repo
}
