// Harness A of R27: a test double of Claude Code's mod API, faithful to the reference
// (`docs/requirements/claude-code-mods.md` §1–4): `register(on, options)` records `on(event, hook)`
// registrations (one per name, each with at most one `.catch`), hooks are `($, e, next)` with a deep-frozen
// `e`, `turn.step` hooks are async generators whose `next(e)` returns a stream, a throwing hook falls to its
// `.catch` handler with a replay-safe `next`, and `$` is flat nouns whose methods return promises.
// The fs is in memory (with injectable delays, hangs and failures) or a real folder on disk.
import { execFile } from 'node:child_process'
import { chmod, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export type DoubleOptions = {
  /** Session id `$.session.id()` resolves. */
  sessionId?: string
  cwd?: string
  env?: Record<string, string | undefined>
  /** What `$.session.version()` resolves; Claude Code's by default. */
  version?: unknown
  startedAt?: unknown
  /** A real folder: files go to disk and `mv` is the real one. Otherwise an in-memory fs. */
  disk?: boolean
  /**
   * On disk, `mv -f` runs as rename(2) in this process — the one system call `mv` makes within a file
   * system — unless this is set, when the real `mv` is spawned (slower: a process per write).
   */
  spawnMv?: boolean
  /** Omit `$.process` (a host without the noun): `run` throws a TypeError as Claude Code does. */
  noProcess?: boolean
  /** Every `$` call throws (R19 scenario 12). */
  throwing?: boolean
  options?: Record<string, unknown>
}

type Hook = (...args: unknown[]) => unknown
type Registration = { hook: Hook; catchHandler: Hook | null }
type Core = (e: unknown) => unknown

export const T0 = 1_767_225_600_000

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

export class ModApiDouble {
  readonly registrations = new Map<string, Registration>()
  readonly memory = new Map<string, string>()
  /** Every fs.write that landed, in order. */
  readonly writes: Array<{ path: string; text: string }> = []
  readonly uiCalls: unknown[] = []
  readonly nextCalls: Array<{ event: string; sameE: boolean }> = []
  sessionId: string
  cwd: string
  now = T0
  writeDelayMs = 0
  hangWrites = false
  failWrites = false
  /** Fails `mv` (a sandbox that refuses it): the mod must fall back to direct writes. */
  failRename = false
  readonly timers = new Set<{ fn: () => unknown; cancelled: boolean }>()
  readonly $: Record<string, Record<string, (...args: never[]) => unknown>>
  private registering = false

  readonly opts: DoubleOptions

  constructor(opts: DoubleOptions = {}) {
    this.opts = opts
    this.sessionId = opts.sessionId ?? 'session-a1'
    this.cwd = opts.cwd ?? '/work/project'
    this.$ = this.build$()
  }

  private build$() {
    const env = this.opts.env ?? { HOME: '/home/person' }
    const nouns: Record<string, Record<string, (...args: never[]) => unknown>> = {
      fs: {
        write: (path: string, text: string) => this.fsWrite(path, text),
        read: async (path: string) => this.fsRead(path),
        exists: async (path: string) => this.fsExists(path),
      },
      env: { get: async (name: string) => env[name] },
      session: {
        id: async () => this.sessionId,
        version: async () => this.opts.version ?? { version: '2.1.328' },
        usage: async () => ({ startedAt: this.opts.startedAt ?? T0 - 5_000, context: {}, rateLimits: [] }),
        cwd: async () => this.cwd,
      },
      clock: {
        now: async () => this.now,
        sleep: (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
        every: async (_ms: number, fn: () => unknown) => {
          const timer = { fn, cancelled: false }
          this.timers.add(timer)
          return {
            cancel: () => {
              timer.cancelled = true
              this.timers.delete(timer)
            },
          }
        },
      },
      ui: new Proxy(
        {},
        {
          get:
            () =>
            (...args: unknown[]) =>
              this.uiCalls.push(args),
        },
      ) as Record<string, (...args: never[]) => unknown>,
    }
    if (!this.opts.noProcess) nouns.process = { run: (argv: string[]) => this.processRun(argv) }
    if (!this.opts.throwing) return Object.freeze(nouns)
    const throwing: typeof nouns = {}
    for (const [noun, methods] of Object.entries(nouns)) {
      throwing[noun] = new Proxy(methods, {
        get: (target, key) =>
          noun === 'ui'
            ? (target as Record<string | symbol, unknown>)[key]
            : () => {
                throw new Error(`$.${noun}.${String(key)} refused`)
              },
      })
    }
    return Object.freeze(throwing)
  }

  private async fsWrite(path: string, text: string): Promise<void> {
    if (this.hangWrites) return new Promise(() => {})
    if (this.writeDelayMs) await new Promise((resolve) => setTimeout(resolve, this.writeDelayMs))
    if (this.failWrites) throw new Error(`EACCES: ${path}`)
    if (this.opts.disk) {
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, text)
    } else this.memory.set(path, text)
    this.writes.push({ path, text }) // writes that landed
  }

  private async fsRead(path: string): Promise<string> {
    if (this.opts.disk) return readFile(path, 'utf8')
    const text = this.memory.get(path)
    if (text === undefined) throw new Error(`ENOENT: ${path}`)
    return text
  }

  private async fsExists(path: string): Promise<boolean> {
    if (this.opts.disk)
      return readFile(path).then(
        () => true,
        () => false,
      )
    return this.memory.has(path)
  }

  private async processRun(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    if (this.failRename) return { exitCode: 1, stdout: '', stderr: 'mv: refused' }
    if (argv[0] === 'chmod' && argv.length === 3) return this.chmod(argv[1], argv[2])
    if (argv[0] !== 'mv' || argv[1] !== '-f' || argv.length !== 4)
      return { exitCode: 2, stdout: '', stderr: '' }
    const [, , from, to] = argv
    if (this.opts.disk && !this.opts.spawnMv)
      return rename(from, to).then(
        () => ({ exitCode: 0, stdout: '', stderr: '' }),
        (error: Error) => ({ exitCode: 1, stdout: '', stderr: error.message }),
      )
    if (this.opts.disk) {
      const r = await run('mv', ['-f', from, to]).then(
        () => 0,
        () => 1,
      )
      return { exitCode: r, stdout: '', stderr: '' }
    }
    const text = this.memory.get(from)
    if (text === undefined) return { exitCode: 1, stdout: '', stderr: 'no such file' }
    this.memory.delete(from)
    this.memory.set(to, text)
    return { exitCode: 0, stdout: '', stderr: '' }
  }

  /** `chmod <octal> <path>`: the real one on disk (the mode is what the tests check), a no-op in memory. */
  private async chmod(
    mode: string,
    path: string,
  ): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    if (!this.opts.disk) return { exitCode: 0, stdout: '', stderr: '' }
    return chmod(path, Number.parseInt(mode, 8)).then(
      () => ({ exitCode: 0, stdout: '', stderr: '' }),
      (error: Error) => ({ exitCode: 1, stdout: '', stderr: error.message }),
    )
  }

  /** Loads a module the way Claude Code does: calls `register(on, options)` and records its hooks. */
  async load(register: (on: unknown, options: unknown) => unknown): Promise<void> {
    this.registering = true
    const on = (event: string, hook: Hook) => {
      if (!this.registering) throw new Error('on() after register() returned')
      if (typeof event !== 'string') throw new Error('on(): the event must be a literal name')
      if (this.registrations.has(event)) throw new Error(`on("${event}") registered twice`)
      const registration: Registration = { hook, catchHandler: null }
      this.registrations.set(event, registration)
      return {
        catch: (handler: Hook) => {
          if (registration.catchHandler !== null) throw new Error('a second .catch')
          if (!this.registering) throw new Error('.catch after register() returned')
          if (event === 'turn.step') throw new Error('turn.step takes no .catch in this mod')
          registration.catchHandler = handler
        },
      }
    }
    try {
      await register(on, deepFreeze({ ...(this.opts.options ?? {}) }))
    } finally {
      this.registering = false
    }
  }

  /** Dispatches one event: the mod's hook above `core` (the engine), through a `next` spy. */
  async fire(event: string, e: Record<string, unknown>, core: Core = (x) => x): Promise<unknown> {
    const frozen = deepFreeze(structuredClone(e))
    const registration = this.registrations.get(event)
    if (registration === undefined) return core(frozen)
    let settled: { value: unknown } | null = null
    const next = async (arg: unknown) => {
      this.nextCalls.push({ event, sameE: arg === frozen })
      const value = await core(arg)
      settled = { value }
      return value
    }
    try {
      return await registration.hook(this.$, frozen, next)
    } catch (error) {
      if (registration.catchHandler === null) throw error
      const replaySafe = async (arg: unknown) => (settled !== null ? settled.value : next(arg))
      return registration.catchHandler(this.$, frozen, replaySafe)
    }
  }

  /** Dispatches `turn.step`: the hook must be an async generator; returns the chunks it yielded and its result. */
  async step(
    e: Record<string, unknown>,
    chunks: unknown[],
    result: unknown,
  ): Promise<{ chunks: unknown[]; result: unknown }> {
    const frozen = deepFreeze(structuredClone(e))
    const registration = this.registrations.get('turn.step')
    if (registration === undefined) return { chunks, result }
    const next = (arg: unknown) => {
      this.nextCalls.push({ event: 'turn.step', sameE: arg === frozen })
      return (async function* () {
        for (const chunk of chunks) yield chunk
        return result
      })()
    }
    const stream = registration.hook(this.$, frozen, next) as AsyncGenerator<unknown, unknown>
    if (typeof stream?.[Symbol.asyncIterator] !== 'function') throw new Error('returned no stream')
    const seen: unknown[] = []
    for (;;) {
      const r = await stream.next()
      if (r.done) return { chunks: seen, result: r.value }
      seen.push(r.value)
    }
  }

  /** Runs every live `$.clock.every` timer once (a heartbeat). */
  beat(): void {
    for (const timer of [...this.timers]) if (!timer.cancelled) timer.fn()
  }

  /** Files in a folder, by base name (memory or disk). `.tmp` files are included, so tests can see leftovers. */
  async files(dir: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {}
    if (this.opts.disk) {
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        // a `.tmp` renamed away between the listing and the read is simply gone
        const text = await readFile(join(dir, name), 'utf8').catch(() => null)
        if (text !== null) out[name] = text
      }
      return out
    }
    for (const [path, text] of this.memory) if (dirname(path) === dir) out[path.slice(dir.length + 1)] = text
    return out
  }
}

/** Lets queued bookkeeping and writes run: microtasks plus a few timer turns. */
export async function settle(ms = 5): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, ms))
}
