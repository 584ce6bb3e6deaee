// Signalling and watching a whole process group. A command runs as the leader of its own group (the
// spawn uses `detached: true`, i.e. setsid), so everything it starts — pipelines, subshells,
// backgrounded jobs — shares the group id (the leader's pid) unless it deliberately leaves it
// (`setsid`), and one `kill(-pgid, …)` reaches all of it.
import { readdir, readFile } from 'node:fs/promises'
import { setTimeout as delay } from 'node:timers/promises'

/** How often a group is checked while waiting for it to die. */
const POLL_MS = 20

/** Sends `signal` to every process of the group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // ESRCH: nothing left to signal. EPERM cannot happen for our own children's group.
  }
}

/**
 * Whether any *living* process is still in the group. A dead process stays visible to `kill(…, 0)`
 * until its parent reaps it; orphaned grandchildren are reaped by PID 1, which in some containers
 * does so only every second or two. On Linux the group's members are therefore looked up in /proc
 * and zombies (state Z or X) do not count; elsewhere `kill(-pgid, 0)` is trusted.
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    return true
  }
  if (process.platform !== 'linux') return true
  try {
    return await hasLivingMember(pgid)
  } catch {
    return true
  }
}

async function hasLivingMember(pgid: number): Promise<boolean> {
  return (await livingMembers(pgid)).length > 0
}

/** The pids of the group's living members, from /proc (Linux). */
async function livingMembers(pgid: number): Promise<number[]> {
  const members: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = await readFile(`/proc/${entry}/stat`, 'latin1')
    } catch {
      continue // exited while we looked
    }
    // `pid (comm) state ppid pgrp …`; comm may contain spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(entry))
  }
  return members
}

/**
 * Sends `signal` to every member of the group but its leader (a launcher such as bwrap, whose death
 * would kill the rest at once). A process that joins the group meanwhile misses it; the SIGKILL that
 * follows the grace goes to the whole group. Off Linux, the whole group.
 */
export async function signalGroupButLeader(pgid: number, signal: NodeJS.Signals): Promise<void> {
  if (process.platform !== 'linux') return signalGroup(pgid, signal)
  let members: number[]
  try {
    members = await livingMembers(pgid)
  } catch {
    return signalGroup(pgid, signal)
  }
  for (const pid of members) {
    if (pid === pgid) continue
    try {
      process.kill(pid, signal)
    } catch {
      // exited meanwhile
    }
  }
}

/**
 * The kill ladder of one group: SIGTERM to the group, then SIGKILL to the group `graceMs` later.
 * `start` is idempotent, so a timeout, an abort and leftover clean-up can all ask for it.
 */
export class KillLadder {
  readonly pgid: number
  readonly graceMs: number
  #timer: ReturnType<typeof setTimeout> | undefined
  #started = false
  #killedAt: number | undefined
  #disposed = false

  readonly #spareLeaderOnTerm: boolean

  /** `spareLeaderOnTerm`: the SIGTERM skips the leader (see `signalGroupButLeader`). */
  constructor(pgid: number, graceMs: number, spareLeaderOnTerm = false) {
    this.pgid = pgid
    this.graceMs = graceMs
    this.#spareLeaderOnTerm = spareLeaderOnTerm
  }

  get started(): boolean {
    return this.#started
  }

  /** When SIGKILL was sent (performance.now()), if it was. */
  get killedAt(): number | undefined {
    return this.#killedAt
  }

  start(): void {
    if (this.#started) return
    this.#started = true
    const armKill = () => {
      if (this.#killedAt === undefined && !this.#disposed)
        this.#timer = setTimeout(() => this.kill(), this.graceMs)
    }
    if (!this.#spareLeaderOnTerm) {
      signalGroup(this.pgid, 'SIGTERM')
      armKill()
      return
    }
    // Finding the members reads /proc, which takes a while on a busy machine: the grace starts once
    // the SIGTERM is out, so a slow look-up does not eat it.
    void signalGroupButLeader(this.pgid, 'SIGTERM').then(armKill)
  }

  kill(): void {
    if (this.#killedAt !== undefined) return
    clearTimeout(this.#timer)
    this.#killedAt = performance.now()
    signalGroup(this.pgid, 'SIGKILL')
  }

  dispose(): void {
    this.#disposed = true
    clearTimeout(this.#timer)
  }
}

/**
 * Once the leader has exited: makes sure the rest of its group is gone too. Leftovers (backgrounded
 * jobs, grandchildren) are put through the ladder; resolves when no living member remains, or —
 * for a process that cannot die, e.g. stuck in uninterruptible I/O — `settleMs` after SIGKILL.
 * Returns whether leftovers had to be terminated (for a ladder not yet started by a timeout or abort).
 */
export async function reapGroup(ladder: KillLadder, settleMs: number): Promise<boolean> {
  if (!(await groupAlive(ladder.pgid))) return false
  const leftovers = !ladder.started
  ladder.start()
  while (await groupAlive(ladder.pgid)) {
    const killedAt = ladder.killedAt
    if (killedAt !== undefined && performance.now() - killedAt > settleMs) break
    await delay(POLL_MS)
  }
  return leftovers
}

/**
 * Waits up to `ms` for the group to empty by itself; returns whether it did. A sandbox launcher exits
 * as soon as its command has, while the kernel is still tearing down the rest of the sandbox: that is
 * not a leftover to terminate (or to report).
 */
export async function waitForGroupGone(pgid: number, ms: number): Promise<boolean> {
  const until = performance.now() + ms
  while (await groupAlive(pgid)) {
    if (performance.now() > until) return false
    await delay(POLL_MS)
  }
  return true
}
