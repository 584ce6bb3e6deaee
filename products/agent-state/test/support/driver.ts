// What a shared scenario (R27) needs from a host. Harness A (the Claude Code mod-API double, harness-a.ts)
// and harness B (a scripted tack session under `@tack/mods`, harness-b.ts) implement it and run the same
// table — see test/scenarios.test.ts.

export type Setup = {
  /** `outputDir` option given to the mod. */
  outputDir?: string
  /** Every `$` call throws. */
  throwing?: boolean
  /** The log cap lowered (R7 rollover), which needs a host that can load the mod with other limits. */
  logCapChars?: number
  /** `$.session.usage().startedAt` as the host reports it. */
  startedAt?: unknown
}

/**
 * `host-facts`: the test sets what the host reports about the session — a start time it does not know yet,
 * an id that changes in the same instance (Claude Code's `/clear`; tack gives a cleared session a new one).
 */
export type Capability = 'limits' | 'faults' | 'throwing' | 'classic' | 'prompt-box' | 'host-facts'

export interface Driver {
  readonly host: 'claude-code' | 'tack'
  /** What this host can do beyond plain event delivery; a scenario needing more is skipped on it. */
  readonly capabilities: ReadonlySet<Capability>
  /** Dispatches one event through the mod above `core`, the host's own behaviour (an echo by default). */
  fire(event: string, e: Record<string, unknown>, core?: (e: unknown) => unknown): Promise<unknown>
  /** Dispatches one `turn.step`: the chunks the model streams and the step result. */
  step(
    e: Record<string, unknown>,
    chunks: unknown[],
    result: unknown,
  ): Promise<{ chunks: unknown[]; result: unknown }>
  /** Runs the heartbeat timer once, with the host clock `ms` later. */
  beat(ms: number): Promise<void>
  /** What `$.session.id()` resolves from now on (Claude Code's `/clear` changes it). */
  setSessionId(id: string): void
  /** Lets queued bookkeeping and writes finish. */
  settle(): Promise<void>
  /** Files in the mod's output folder, by base name. */
  files(): Promise<Record<string, string>>
  /** Every file the mod wrote anywhere. */
  allWrites(): string[]
  /** Fault injection on the host's fs (capability `faults`). */
  faults?: { writeDelayMs(ms: number): void; hang(on: boolean): void }
  /** `$.ui` calls seen (R19). */
  uiCalls(): number
}
