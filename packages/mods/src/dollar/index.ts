// `$` for one mod instance in one session (65-mod-host.md requirement 11): frozen and flat; every
// method returns a Promise except `ui.log`; each call pauses the calling hook's budget clock except
// `$.clock.sleep`, whose time counts. A method tack lacks is simply absent, so calling it throws a
// TypeError, as in Claude Code.
import { withClockPaused } from '../dispatch-context.ts'
import { createClock, type Timers } from './clock.ts'
import { createFs } from './fs.ts'
import { createProcess } from './process.ts'
import { createStore, storeFile } from './store.ts'

export interface SessionFacts {
  readonly id: () => string
  readonly cwd: () => string
  readonly startedAt: number
  /** The last request's input tokens, when a step finished. */
  readonly contextTokens: () => number | undefined
}

export interface DollarDeps {
  readonly mod: { readonly name: string; readonly root: string }
  readonly session: SessionFacts
  readonly env: Readonly<Record<string, string | undefined>>
  readonly dataDir: string
  readonly version: string
  /** `$.ui.log` and timer failures land here (tack's log, prefixed with the mod id). */
  readonly log: (line: string) => void
  /**
   * Sees every `$` call's promise and what it is (`fs.write`): the session's in-flight work, which its end
   * lets settle (docs/decisions/0155-mod-work-at-session-end.md) and `modsIdle` in the test entry awaits.
   */
  readonly track?: <T>(call: Promise<T>, what: string) => Promise<T>
  /** Aborted when the instance is released: a `$.process.run` still running then is killed. */
  readonly released?: AbortSignal
}

// biome-ignore lint/suspicious/noExplicitAny: methods of every shape are wrapped alike
type AnyFn = (...args: any[]) => Promise<unknown>

type Track = NonNullable<DollarDeps['track']>
const untracked: Track = (call) => call

/**
 * A call made after the instance was released starts nothing and never settles: a mod that keeps chaining
 * `$` work (`for (;;) await $.fs.write(…)`) would otherwise hold tack past its session's end bound for
 * ever, and a rejection would spin a `.then(loop, loop)` chain in microtasks (docs/decisions/0190-mod-loading-and-release-bounds.md).
 */
const never = new Promise<never>(() => {})

function paused<T extends Record<string, AnyFn>>(
  nounName: string,
  noun: T,
  track: Track,
  released: AbortSignal | undefined,
): T {
  const out: Record<string, AnyFn> = {}
  for (const [name, fn] of Object.entries(noun))
    out[name] = (...args) =>
      released?.aborted
        ? never
        : track(
            withClockPaused(() => fn(...args)),
            `${nounName}.${name}`,
          )
  return Object.freeze(out) as T
}

export function createDollar(deps: DollarDeps): { dollar: object; timers: Timers } {
  const timers = createClock((message) => deps.log(message))
  const { sleep, ...clockRest } = timers.clock
  const track = deps.track ?? untracked
  const dollar = Object.freeze({
    fs: paused('fs', createFs(deps.session.cwd), track, deps.released),
    env: paused('env', { get: async (name: string) => deps.env[name] }, track, deps.released),
    session: paused(
      'session',
      {
        id: async () => deps.session.id(),
        cwd: async () => deps.session.cwd(),
        version: async () => ({ version: deps.version, host: 'tack' }),
        usage: async () => {
          const tokens = deps.session.contextTokens()
          return {
            startedAt: deps.session.startedAt,
            context: tokens === undefined ? {} : { tokens },
            rateLimits: [],
            cost: null,
          }
        },
      },
      track,
      deps.released,
    ),
    // a sleep is waiting, not work: `modsIdle` does not wait for it
    clock: Object.freeze({ ...paused('clock', clockRest, track, deps.released), sleep }),
    store: paused('store', createStore(storeFile(deps.dataDir, deps.mod.name)), track, deps.released),
    ui: Object.freeze({
      log: (...values: unknown[]) => {
        deps.log(values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' '))
      },
    }),
    process: paused('process', createProcess(deps.session.cwd, deps.released), track, deps.released),
    plugin: Object.freeze({ name: deps.mod.name, root: deps.mod.root }),
  })
  return { dollar, timers }
}
