// The file-backed `DiceHost`, byte-compatible with the public agent-dice (R14): `slots.json`,
// `state/<slot>-<session>.json` and `state/triggered-<slot>-<session>` under one base folder.
// Names and session ids are validated before any path is built (R15); every write is atomic.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseJsonObject } from '../core/json.ts'
import type { DiceHost, DiceSlotConfig, DiceState } from '../core/types.ts'
import {
  checkSlot,
  DiceValidationError,
  nameIssue,
  type SlotCheck,
  SLOT_DEFAULTS,
  slotIssue,
  validateSessionId,
} from '../core/validate.ts'
import { privateFolder, writeFileAtomic } from './atomic.ts'

/** The store's files are owner-only (`atomic.ts`). */
const PRIVATE = { private: true } as const

export interface FileStoreOptions {
  rng?: () => number
  now?: () => number
}

/** `JSON.stringify(value, null, 2)` without a trailing newline: the public encoding. */
export const encodeJson = (value: unknown) => JSON.stringify(value, null, 2)

export interface RegistryEntry {
  key: string
  record: unknown
  check: SlotCheck
}

export class FileDiceStore implements DiceHost {
  readonly base: string
  readonly rng?: () => number
  readonly now?: () => number

  constructor(base: string, options: FileStoreOptions = {}) {
    this.base = base
    if (options.rng) this.rng = options.rng
    if (options.now) this.now = options.now
  }

  get slotsFile(): string {
    return join(this.base, 'slots.json')
  }

  get stateDir(): string {
    return join(this.base, 'state')
  }

  statePath(slot: string, session: string): string {
    this.checkNames(slot, session)
    return join(this.stateDir, `${slot}-${session}.json`)
  }

  markerPath(slot: string, session: string): string {
    this.checkNames(slot, session)
    return join(this.stateDir, `triggered-${slot}-${session}`)
  }

  private checkNames(slot: string, session: string): void {
    const issue = nameIssue(slot)
    if (issue) throw new DiceValidationError(issue)
    validateSessionId(session)
  }

  private isoNow(): string {
    return new Date(this.now ? this.now() : Date.now()).toISOString()
  }

  /** The raw registry; a missing, corrupt or non-object `slots.json` reads as `{}`. */
  readRegistry(): Record<string, unknown> {
    let text: string
    try {
      text = readFileSync(this.slotsFile, 'utf8')
    } catch {
      return {}
    }
    return parseJsonObject(text)
  }

  /** Whether `slots.json` exists but cannot be read as an object (a `check` error). */
  registryCorrupt(): string | undefined {
    let text: string
    try {
      text = readFileSync(this.slotsFile, 'utf8')
    } catch {
      return undefined
    }
    try {
      const parsed: unknown = JSON.parse(text)
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'not a JSON object'
      return undefined
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }

  private writeRegistry(registry: Record<string, unknown>): void {
    writeFileAtomic(this.slotsFile, encodeJson(registry), PRIVATE)
  }

  /** Every record with its validity, in registry order. */
  entries(): RegistryEntry[] {
    return Object.entries(this.readRegistry()).map(([key, record]) => ({
      key,
      record,
      check: checkSlot(record, key),
    }))
  }

  async listSlots(): Promise<DiceSlotConfig[]> {
    return Object.values(this.readRegistry()) as DiceSlotConfig[]
  }

  async getSlot(name: string): Promise<DiceSlotConfig | null> {
    const registry = this.readRegistry()
    return Object.hasOwn(registry, name) ? (registry[name] as DiceSlotConfig) : null
  }

  /**
   * Validates then stores `{...defaults, ...config}` (the public key order). Other slots, unknown
   * keys included, are rewritten unchanged; an invalid slot writes nothing.
   */
  register(config: Partial<DiceSlotConfig> & { name: string }): DiceSlotConfig {
    const full = { ...SLOT_DEFAULTS, ...config }
    const issue = slotIssue(full)
    if (issue) throw new DiceValidationError(issue)
    const registry = this.readRegistry()
    registry[full.name] = full
    this.writeRegistry(registry)
    return full as DiceSlotConfig
  }

  unregister(name: string): boolean {
    const registry = this.readRegistry()
    if (!Object.hasOwn(registry, name)) return false
    delete registry[name]
    this.writeRegistry(registry)
    return true
  }

  async loadState(slot: string, session: string): Promise<DiceState> {
    return this.readState(slot, session)
  }

  /** `{0, now}` when the file is missing or corrupt. */
  readState(slot: string, session: string): DiceState {
    try {
      const parsed = JSON.parse(
        readFileSync(this.statePath(slot, session), 'utf8'),
      ) as Partial<DiceState> | null
      const depth = parsed?.depth_at_last_trigger
      if (typeof depth === 'number' && Number.isFinite(depth)) {
        return {
          depth_at_last_trigger: depth,
          last_reset: typeof parsed?.last_reset === 'string' ? parsed.last_reset : this.isoNow(),
        }
      }
    } catch (error) {
      if (error instanceof DiceValidationError) throw error
    }
    return { depth_at_last_trigger: 0, last_reset: this.isoNow() }
  }

  async saveState(slot: string, session: string, state: DiceState): Promise<void> {
    writeFileAtomic(this.statePath(slot, session), encodeJson(state), PRIVATE)
  }

  async clearState(slot: string, session: string): Promise<void> {
    await this.saveState(slot, session, { depth_at_last_trigger: 0, last_reset: this.isoNow() })
  }

  async hasCooldown(slot: string, session: string): Promise<boolean> {
    return existsSync(this.markerPath(slot, session))
  }

  async markTriggered(slot: string, session: string): Promise<void> {
    writeFileAtomic(this.markerPath(slot, session), this.isoNow(), PRIVATE)
  }

  async clearCooldown(slot: string, session: string): Promise<void> {
    rmSync(this.markerPath(slot, session), { force: true })
  }

  /** Creates `<base>/state`; returns whether the base itself had to be created. */
  ensureLayout(): boolean {
    const created = !existsSync(this.base)
    privateFolder(this.base)
    privateFolder(this.stateDir)
    return created
  }
}
