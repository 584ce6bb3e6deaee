// The vocabulary every host shares: slot configuration, per-session state, results, and the two
// contracts (`DiceHost`, `CoreCheckContext`) through which the core reaches storage and depth.
// Field names and JSON shapes are those of the public agent-dice, so files stay interchangeable.

export type SlotType = 'accumulator' | 'fixed' | 'single'
export type TargetMode = 'exact' | 'gte' | 'lte'
export type Cooldown = 'per-session' | 'none'

export interface DiceSlotConfig {
  /** Unique id: `^[a-zA-Z0-9][a-zA-Z0-9_-]*$`, at most 64 characters. */
  name: string
  /** Die size (20 for a d20). */
  die: number
  /** The value a roll is compared with. */
  target: number
  targetMode: TargetMode
  type: SlotType
  /** Accumulator: user turns per extra die. */
  accumulationRate: number
  /** Accumulator: cap on the dice count. */
  maxDice: number
  /** Fixed: dice rolled every check. */
  fixedCount: number
  cooldown: Cooldown
  clearOnSessionStart: boolean
  resetOnTrigger: boolean
  /** Prefix the nudge with `🎲 Nat <n>!`. */
  flavor: boolean
  onTrigger: { message: string }
}

export interface DiceState {
  /** Depth at the last trigger or reset; below 0 means "reset while depth was unknown". */
  depth_at_last_trigger: number
  /** ISO time of the last reset. */
  last_reset: string
}

export interface DiceResult {
  slotName: string
  triggered: boolean
  rolls: number[]
  /** The largest roll, 0 when nothing was rolled. */
  best: number
  /** The roll that hit: the target (exact), the smallest qualifying roll (gte), the largest (lte). */
  triggerValue?: number
  diceCount: number
  /** Chance of a hit with `diceCount` dice, as a percentage with two decimals. */
  probability: number
}

export interface SlotStatus {
  name: string
  type: SlotType
  diceCount: number
  currentDepth: number
  depthSinceTrigger: number
  probability: number
  nextDiceAt: number
  sessionId: string
  cooldownActive: boolean
}

/** The storage primitives a host supplies; all policy stays in the core. */
export interface DiceHost {
  /** Every registered slot record, in registry order (records may be invalid: the core checks). */
  listSlots(): Promise<DiceSlotConfig[]>
  getSlot(name: string): Promise<DiceSlotConfig | null>
  /** `{0, now}` when missing or corrupt. */
  loadState(slot: string, session: string): Promise<DiceState>
  saveState(slot: string, session: string, s: DiceState): Promise<void>
  /** Writes `{0, now}`. */
  clearState(slot: string, session: string): Promise<void>
  hasCooldown(slot: string, session: string): Promise<boolean>
  markTriggered(slot: string, session: string): Promise<void>
  clearCooldown(slot: string, session: string): Promise<void>
  /** Uniform in [0, 1); default `Math.random`. */
  rng?(): number
  /** Milliseconds since the epoch; default `Date.now`. */
  now?(): number
}

export interface CoreCheckContext {
  sessionId: string
  /** Lazy; the core calls it at most once per operation. `undefined` means unknown. */
  getCurrentDepth(): Promise<number | undefined>
  /** This stop is itself a hook-caused continuation (Claude's `stop_hook_active`). */
  continuation?: boolean
}
