// Who owns a worker's scratch folder, so checkouts a killed worker left behind are removed. A worker
// removes each job's checkout when the job settles, but one killed with SIGKILL (or a lost machine
// coming back) cannot, and the default worker name holds the process id, so the restarted worker never
// looks in the old folder again: clones piled up under the scratch folder. Each worker now records
// itself in `<scratch>/worker-<name>/owner.json` (host and pid) when it starts, and removes the folders
// of workers on this host whose process is gone. A folder with no record (an older tack's), another
// host's, or one whose process lives is left alone: removing a running worker's checkout would break its
// job, so only a process the system says does not exist counts as gone.
// (docs/decisions/0405-worker-scratch-sweep.md)
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'

const OWNER_FILE = 'owner.json'

interface Owner {
  readonly host: string
  readonly pid: number
}

/** Whether process `pid` exists on this machine (EPERM: it exists, owned by someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

async function ownerOf(folder: string): Promise<Owner | undefined> {
  try {
    const owner = JSON.parse(await readFile(join(folder, OWNER_FILE), 'utf8')) as Partial<Owner>
    if (typeof owner.host === 'string' && Number.isInteger(owner.pid) && (owner.pid as number) > 0)
      return owner as Owner
  } catch {
    // no record, or not one of ours: unknown, left alone
  }
  return undefined
}

/**
 * The pid of the worker that left `folder` (another worker's) when it ran on this host and is gone: no
 * such process, or this very process id (a container's workers often all run as the same pid, and this
 * one writes only its own folder).
 */
async function abandonedBy(folder: string): Promise<number | undefined> {
  const owner = await ownerOf(folder)
  if (owner === undefined || owner.host !== hostname()) return undefined
  return owner.pid === process.pid || !alive(owner.pid) ? owner.pid : undefined
}

/**
 * Takes `folder` (`<scratch>/worker-<name>`) for this process: what a dead worker of the same name left
 * in it is removed, then this process is recorded as its owner; then every sibling `worker-*` folder
 * whose worker is gone is removed. Answers one line per folder kept or removed for a reason worth saying
 * (a live worker of the same name on this host). Never throws: a sweep that fails leaves files, not a
 * worker that does not start.
 */
export async function claimScratch(folder: string): Promise<string[]> {
  const said: string[] = []
  try {
    const owner = await ownerOf(folder)
    if (owner && owner.host === hostname() && owner.pid !== process.pid && alive(owner.pid))
      said.push(
        `scratch folder ${folder} is also used by process ${owner.pid}, a worker of the same name: checkouts may collide; give each worker its own --name`,
      )
    else if (owner) await rm(folder, { recursive: true, force: true, maxRetries: 3 })
    await mkdir(folder, { recursive: true, mode: 0o700 })
    await writeFile(join(folder, OWNER_FILE), `${JSON.stringify({ host: hostname(), pid: process.pid })}\n`)
    const base = dirname(folder)
    for (const entry of await readdir(base, { withFileTypes: true })) {
      const sibling = join(base, entry.name)
      if (!entry.isDirectory() || !entry.name.startsWith('worker-') || entry.name === basename(folder))
        continue
      const pid = await abandonedBy(sibling)
      if (pid === undefined) continue
      await rm(sibling, { recursive: true, force: true, maxRetries: 3 })
      said.push(`removed ${sibling}, left by a worker that is gone (process ${pid})`)
    }
  } catch (error) {
    said.push(`could not clear old checkouts: ${(error as Error).message.split('\n')[0]}`)
  }
  return said
}

/** A worker that stops cleanly withdraws its record (its checkouts are gone by then); never throws. */
export async function releaseScratch(folder: string): Promise<void> {
  const owner = await ownerOf(folder)
  if (owner?.host === hostname() && owner.pid === process.pid)
    await rm(join(folder, OWNER_FILE), { force: true }).catch(() => {})
}
