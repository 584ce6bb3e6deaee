// `ctx.skills`: the skills and commands this run found, looked up by name, and found again on demand
// (a skill added or edited mid-session, 85-skills-and-commands.md K3). Everything that uses them — the
// catalog, the skill tool, the slash commands, `tack skills` — reads this one index.
import type { KnowHowFolder } from './config.ts'
import { type Discovery, discoverKnowHow } from './discover.ts'
import type { KnowHowItem, KnowHowWarning } from './types.ts'

export interface SkillsServiceOptions {
  readonly folders: readonly KnowHowFolder[]
  readonly cwd?: string
  readonly maxFileBytes: number
  /** Whether the workspace is trusted (K5: what a project's items may do). */
  readonly trusted: boolean
}

export class SkillsService {
  readonly trusted: boolean
  readonly #options: SkillsServiceOptions
  #discovery: Discovery
  #fingerprint: string
  /** Warnings already said, so a refresh says only new ones. */
  readonly #said = new Set<string>()

  constructor(options: SkillsServiceOptions) {
    this.#options = options
    this.trusted = options.trusted
    this.#discovery = discoverKnowHow(options)
    this.#fingerprint = fingerprintOf(this.#discovery)
  }

  /** Every usable skill and command, one per name, sorted by name. */
  items(): readonly KnowHowItem[] {
    return this.#discovery.items
  }

  get(name: string): KnowHowItem | undefined {
    return this.#discovery.items.find((i) => i.name === name)
  }

  discovery(): Discovery {
    return this.#discovery
  }

  /** Looks in the folders again; true when what was found changed. */
  refresh(): boolean {
    const next = discoverKnowHow(this.#options)
    const fingerprint = fingerprintOf(next)
    this.#discovery = next
    if (fingerprint === this.#fingerprint) return false
    this.#fingerprint = fingerprint
    return true
  }

  /** The warnings not said before (each is said once per run). */
  unsaidWarnings(): KnowHowWarning[] {
    const out: KnowHowWarning[] = []
    for (const w of this.#discovery.warnings) {
      const key = `${w.file}\u0000${w.key ?? ''}\u0000${w.message}`
      if (this.#said.has(key)) continue
      this.#said.add(key)
      out.push(w)
    }
    return out
  }
}

/** Changes when any item's name, kind, source, front matter or body does. */
function fingerprintOf(d: Discovery): string {
  return JSON.stringify(d.items.map((i) => [i.name, i.kind, i.file, i.description, i.frontMatter, i.body]))
}
