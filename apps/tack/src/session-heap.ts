// Old-space growth for commands that run a session (`tack`, `tack -c`/`-r`, `tack run`, `tack -p`,
// `tack acp`): V8 lets a small heap grow several-fold between mark-compacts; `--heap-growing-percent=30`
// holds it to 30 % past what survived the last one, which keeps a 200-read session's peak RSS within 1.1×
// of a 20-read one (docs/decisions/0068-heap-growth-and-step-cost.md).
//
// Why here and not on the launcher's sh line: V8 folds its flags into the tag that guards code caches
// (`v8.cachedDataVersionTag()`), so every Node built-in compiled after the flag is set misses Node's
// embedded code cache. On the command line that was ~10 ms of `tack --version` (P1) and ~100 ms of CPU
// before a session's first request. Set at run time, the flag still governs every later old-space limit
// (0068 measures the same peak), and the built-ins a session needs are loaded just before it, while their
// cache still matches. `--version`, `--help`, `doctor`, `sessions` never pay. The semi-space cap is not in
// the tag, so it stays on the sh line, where it has to be (0067: it cannot change once the heap exists).
import { cachedDataVersionTag, setFlagsFromString } from 'node:v8'

export const SESSION_HEAP_FLAG = '--heap-growing-percent=30'

/**
 * The public built-ins a session loads after this point (the store's SQLite, the model client's HTTP
 * stack, tools' child processes), and the lazily defined globals that pull in the rest (`Response`:
 * undici, the web streams, `navigator`). Taken from `process.moduleLoadList` before and after a
 * `tack run` session; one missing here only costs its own compile without cache, one no longer used
 * costs a cached compile (well under a millisecond).
 */
const SESSION_BUILTINS = [
  'node:child_process',
  'node:sqlite',
  'node:dns',
  'node:dns/promises',
  'node:http',
  'node:https',
  'node:http2',
  'node:tls',
  'node:zlib',
  'node:assert',
  'node:perf_hooks',
  'node:timers/promises',
  'node:vm',
] as const
const SESSION_GLOBALS = ['Response', 'TransformStream', 'TextEncoderStream', 'navigator', 'File'] as const

/** How the flag was (or was not) applied, for the TACK_DEV report. */
export type SessionHeapOutcome =
  | { readonly applied: true; readonly tagBefore: number; readonly tagAfter: number }
  | { readonly applied: false; readonly reason: string }

/**
 * Applies SESSION_HEAP_FLAG unless the person chose a growth factor of their own (`node
 * --heap-growing-percent=… bin/tack.js`; Node refuses the flag in NODE_OPTIONS): theirs stands. With
 * TACK_DEV=1 it says on stderr what it did, with V8's flag tag before and after (a tag that changed is
 * V8's own word that its flags changed).
 */
export function boundSessionHeapGrowth(
  env: NodeJS.ProcessEnv,
  err: (text: string) => void,
  execArgv: readonly string[] = process.execArgv,
): SessionHeapOutcome {
  const outcome = applyFlag(execArgv)
  if (env.TACK_DEV === '1') err(`tack: dev: ${describe(outcome)}\n`)
  return outcome
}

function applyFlag(execArgv: readonly string[]): SessionHeapOutcome {
  const own = execArgv.find(isGrowthFlag)
  if (own !== undefined) return { applied: false, reason: `Node was started with ${own}` }
  for (const name of SESSION_BUILTINS) process.getBuiltinModule(name)
  for (const name of SESSION_GLOBALS) Reflect.get(globalThis, name)
  const tagBefore = cachedDataVersionTag()
  setFlagsFromString(SESSION_HEAP_FLAG)
  return { applied: true, tagBefore, tagAfter: cachedDataVersionTag() }
}

/** `--heap-growing-percent=…` in either of V8's spellings (dashes or underscores). */
function isGrowthFlag(arg: string): boolean {
  return /^--heap[-_]growing[-_]percent(=|$)/.test(arg)
}

function describe(outcome: SessionHeapOutcome): string {
  if (!outcome.applied) return `heap growth left as it is (${outcome.reason})`
  return `heap growth ${SESSION_HEAP_FLAG} set at run time (V8 flag tag ${outcome.tagBefore} -> ${outcome.tagAfter})`
}
