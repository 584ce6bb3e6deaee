// Shared by the fleet's tests: a throw-away PostgreSQL (a fresh database per test) and a small git
// repository to check out.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A repository with one commit (README.md) on `main` and a branch `other` with other.txt. */
export function makeRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tack-fleet-repo-'))
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    })
  git('init', '-q', '-b', 'main')
  writeFileSync(join(dir, 'README.md'), 'hello\n')
  git('add', '.')
  git('commit', '-qm', 'first')
  git('checkout', '-qb', 'other')
  writeFileSync(join(dir, 'other.txt'), 'other\n')
  git('add', '.')
  git('commit', '-qm', 'second')
  git('checkout', '-q', 'main')
  return dir
}
