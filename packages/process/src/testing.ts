// Test helpers for code that runs processes (`@tack/process/testing`): whether a process is gone, and
// waiting for a pid or a line a command writes to a file. Shared by this package's tests and by the
// tests of its callers (the bash tool), so "dead" means the same thing everywhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as delay } from 'node:timers/promises'

export function tempDir(prefix = 'tack-process-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

/**
 * Whether `pid` is gone: `kill -0` fails, or the process is a zombie — already dead, waiting for PID 1
 * to reap it (in some containers PID 1 reaps orphans only every second or so, and until then
 * `kill -0` still succeeds on the corpse).
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state === 'Z' || state === 'X'
  } catch {
    return true
  }
}

/** Waits until `path` holds a line ending in a newline, and returns it without the newline. */
export async function waitForLine(path: string): Promise<string> {
  for (;;) {
    if (existsSync(path)) {
      const text = await readFile(path, 'utf8')
      if (text.endsWith('\n')) return text.slice(0, -1)
    }
    await delay(10)
  }
}

/** Reads a pid a command wrote to `path`. */
export async function readPid(path: string): Promise<number> {
  const pid = Number(await waitForLine(path))
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no pid in ${path}`)
  return pid
}

/**
 * A fresh folder outside every temp folder (the sandbox lets commands write to temp folders): under the
 * repository's `.tmp/` (git-ignored), or under the home folder when the checkout itself is in /tmp.
 */
export async function tempDirOutsideTmp(prefix = 'tack-outside-'): Promise<string> {
  const temps = [resolve(tmpdir()), '/tmp']
  const repo = resolve(fileURLToPath(new URL('../../..', import.meta.url)))
  for (const base of [join(repo, '.tmp'), join(homedir(), '.tack-test-tmp')]) {
    if (temps.some((t) => base === t || base.startsWith(`${t}/`))) continue
    await mkdir(base, { recursive: true })
    return mkdtemp(join(base, prefix))
  }
  throw new Error('no folder outside the temp folders to test with')
}

/** Host pids of living processes whose command line contains `marker` (Linux, from /proc). */
export function pidsMatching(marker: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1').replaceAll('\0', ' ')
      if (cmdline.includes(marker) && !isGone(Number(entry))) pids.push(Number(entry))
    } catch {
      // exited while we looked
    }
  }
  return pids
}
