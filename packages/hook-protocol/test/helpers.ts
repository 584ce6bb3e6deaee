// Shared helpers for @tack/hook-protocol tests: temp folders, real shell scripts, process checks.
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Session } from '@tack/session'

export async function tempDir(prefix = 'tack-hp-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

/** Writes an executable bash script and returns its path. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, `#!/usr/bin/env bash\n${body}\n`)
  await chmod(path, 0o755)
  return path
}

/** Whether a process with `pid` is alive (zombies count as gone: they hold no resources but a slot). */
export async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

export async function readPid(path: string): Promise<number> {
  return Number((await readFile(path, 'utf8')).trim())
}

export function newSession(id = 'sess-hp'): Session {
  return new Session({
    header: { version: 1, id, createdAt: '2025-05-06T07:08:09.010Z', cwd: '/work/project' },
    clock: { now: () => Date.UTC(2025, 4, 6, 7, 8, 9, 10) },
  })
}
