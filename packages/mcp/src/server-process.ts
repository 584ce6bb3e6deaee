// A stdio server's process (spec 55-mcp.md M1): the leader of its own process group (`detached`, i.e.
// setsid), so `npx foo` → node → whatever it starts share one group, and ending the server ends all of
// it — no orphaned grandchildren. Its stderr goes into a bounded tail (stderr-tail.ts), never printed.
// Ended: by `end()` (the server closed, the session over: stdin closed, then the group's ladder
// SIGTERM → SIGKILL), by the leader exiting on its own (what it left behind goes through the same
// ladder), and, when tack exits with a group still alive (a second Ctrl-C, `process.exit`, an ending
// signal that no command handles any more), by a SIGTERM to the group from tack's `exit` or signal
// hook. A tack killed with SIGKILL runs no code: its servers see their stdin close, which ends an MCP
// stdio server (the protocol's shutdown), but not what a server left running in the background
// (docs/decisions/0240-mcp-early-start.md).
//
// Needs nothing of the SDK: boot may spawn the servers before @tack/mcp's client code is imported
// (early-spawn.ts), so their start overlaps tack's own.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { KillLadder, reapGroup, signalGroup } from '@tack/process'
import type { StderrTail } from './stderr-tail.ts'

/** How long a server may take to exit after its stdin closed, and the SIGTERM → SIGKILL grace. */
const EXIT_GRACE_MS = 2_000
/** After SIGKILL, how long to wait for a process that cannot die before giving up on it. */
const KILL_SETTLE_MS = 2_000

export interface ServerCommand {
  readonly command: string
  readonly args?: readonly string[]
  /** The whole environment, used as given (undefined values are dropped by Node's spawn). */
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd?: string
}

/** Groups of servers still running, ended by tack's `exit` hook if nothing ended them before. */
const liveGroups = new Set<number>()
let hooked = false

/** The signals that end tack; the servers' groups no longer get the terminal's own. */
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP']

function endLiveGroups(): void {
  for (const group of liveGroups) signalGroup(group, 'SIGTERM')
}

/**
 * An ending signal nobody else listens for (a command that already removed its own handlers, e.g. while
 * it disposes): the groups get a SIGTERM, then the signal is raised again without this listener, so it
 * ends tack as it would have. When another listener is there, that one decides (a run cancels its turn
 * and disposes, which ends the servers through the ladder).
 */
function onEndingSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return
  endLiveGroups()
  for (const s of ENDING_SIGNALS) process.off(s, onEndingSignal)
  hooked = false
  process.kill(process.pid, signal)
}

function watchGroup(pgid: number): void {
  liveGroups.add(pgid)
  if (hooked) return
  hooked = true
  // Synchronous, as an `exit` listener must be: no ladder here, one SIGTERM to each group.
  if (!process.listeners('exit').includes(endLiveGroups)) process.on('exit', endLiveGroups)
  for (const s of ENDING_SIGNALS) process.on(s, onEndingSignal)
}

export class ServerProcess {
  readonly child: ChildProcess
  /** performance.now() at the spawn: a server's startup bound is counted from it. */
  readonly spawnedAt = performance.now()
  /** Settles (never rejects) when the child has spawned (true) or could not be (false). */
  readonly spawned: Promise<boolean>
  #ending?: Promise<void>
  #exited = false
  #stderr: StderrTail
  #spawnError?: Error

  constructor(command: ServerCommand, stderr: StderrTail) {
    this.#stderr = stderr
    this.child = spawn(command.command, [...(command.args ?? [])], {
      env: command.env,
      ...(command.cwd ? { cwd: command.cwd } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group (POSIX); on Windows `detached` would open a console of its own.
      detached: process.platform !== 'win32',
      windowsHide: true,
      shell: false,
    })
    this.child.stderr?.on('data', (chunk: Buffer) => this.#stderr.append(chunk))
    // Errors on the pipes of a process that went away are reported by its exit, not thrown.
    this.child.stdin?.on('error', () => undefined)
    this.spawned = new Promise<boolean>((resolve) => {
      this.child.once('spawn', () => {
        if (this.child.pid !== undefined && process.platform !== 'win32') watchGroup(this.child.pid)
        resolve(true)
      })
      this.child.once('error', (error) => {
        this.#spawnError = error
        resolve(false)
      })
    })
    this.child.once('close', () => {
      this.#exited = true
      // The leader is gone; what it started may not be. A server that exited on its own leaves nothing.
      if (!this.#ending) this.#ending = this.#reap()
    })
  }

  /** From now on its stderr goes to `tail`, after what it wrote so far (a connection taking it over). */
  stderrTo(tail: StderrTail): void {
    if (tail === this.#stderr) return
    this.#stderr.moveTo(tail)
    this.#stderr = tail
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  /** Why the spawn failed (ENOENT…), once `spawned` settled false. */
  get spawnError(): Error | undefined {
    return this.#spawnError
  }

  get exited(): boolean {
    return this.#exited
  }

  /**
   * Ends the server and everything in its group: stdin closed (an MCP stdio server exits then), and
   * after a grace the group's ladder (SIGTERM, then SIGKILL). Resolves once no process of the group
   * lives, or — for one that cannot die — a while after SIGKILL. Idempotent.
   */
  end(): Promise<void> {
    this.#ending ??= this.#end()
    return this.#ending
  }

  async #end(): Promise<void> {
    if (!(await this.spawned)) return
    if (!this.#exited) {
      this.child.stdin?.end()
      const timer = new AbortController()
      await Promise.race([
        once(this.child, 'close'),
        sleep(EXIT_GRACE_MS, undefined, { signal: timer.signal }).catch(() => undefined),
      ]).finally(() => timer.abort())
    }
    await this.#reap()
  }

  /** SIGTERM to what is left of the group, SIGKILL after the grace; resolves when the group is gone. */
  async #reap(): Promise<void> {
    const pgid = this.child.pid
    if (pgid === undefined) return
    if (process.platform === 'win32') {
      if (!this.#exited) this.child.kill()
      return
    }
    const ladder = new KillLadder(pgid, EXIT_GRACE_MS)
    try {
      await reapGroup(ladder, KILL_SETTLE_MS)
    } finally {
      ladder.dispose()
      liveGroups.delete(pgid)
    }
  }
}
