// The catalog as the `skills-catalog` system prompt section (85-skills-and-commands.md K3,
// docs/decisions/0270-skills.md). The folders are looked at again when a prompt is admitted (and by
// `/skills`): a change changes the section's text, so the next request header records it once as a
// delta of `system`, and the person is told once what changed. Between looks the text is a cached
// string: byte-identical from request to request.
import { addSystemPromptSection } from '@tack/agent'
import type { Context } from 'cordis'
import { catalogOf, modelInvocable } from './catalog.ts'
import type { SkillsService } from './service.ts'
import type { KnowHowItem } from './types.ts'
import { warningLine } from './types.ts'

export const CATALOG_SECTION = 'skills-catalog'
/** After the core prompt (0), the Code Mode SDK (150) and MCP server instructions (200). */
export const CATALOG_ORDER = 300

export class CatalogSection {
  readonly #service: SkillsService
  readonly #maxBytes: number
  readonly #say: (line: string) => void
  /** The model-invocable items the text was built from: what the model was told. */
  #shown: readonly KnowHowItem[]
  #text: string

  constructor(service: SkillsService, maxBytes: number, say: (line: string) => void) {
    this.#service = service
    this.#maxBytes = maxBytes
    this.#say = say
    this.#shown = modelInvocable(service.items())
    this.#text = this.#build(true)
  }

  text(): string {
    return this.#text
  }

  /**
   * Looks in the folders again; says what changed since the model was last told (and new warnings) once.
   * Compared with what the text was built from, not with the service's last look: the skill tool looks
   * again by itself when a name is unknown, and what it found must still reach the catalog.
   */
  refresh(): void {
    this.#service.refresh()
    const now = modelInvocable(this.#service.items())
    const change = describeChange(this.#shown, now)
    if (change) {
      this.#shown = now
      this.#text = this.#build(false)
      this.#say(`skills changed: ${change}; the model is told from its next request`)
    }
    for (const w of this.#service.unsaidWarnings()) this.#say(warningLine(w))
  }

  mount(ctx: Context): void {
    ctx.inject(['systemPrompt'], (sub) => {
      addSystemPromptSection(sub, { name: CATALOG_SECTION, order: CATALOG_ORDER, text: () => this.#text })
    })
  }

  #build(first: boolean): string {
    const catalog = catalogOf(this.#service.items(), this.#maxBytes)
    if (catalog.leftOut > 0 && catalog.listed > 0 && first)
      this.#say(
        `the skills catalog lists ${catalog.listed} and leaves out ${catalog.leftOut} (plugins.skills.catalogMaxBytes is ${this.#maxBytes})`,
      )
    return catalog.text
  }
}

/** `added a, b; changed c; removed d`, or '' when the model-visible set is the same. */
export function describeChange(before: readonly KnowHowItem[], after: readonly KnowHowItem[]): string {
  const old = new Map(before.map((i) => [i.name, i]))
  const now = new Map(after.map((i) => [i.name, i]))
  const added = after.filter((i) => !old.has(i.name)).map((i) => i.name)
  const removed = before.filter((i) => !now.has(i.name)).map((i) => i.name)
  const changed = after
    .filter((i) => {
      const o = old.get(i.name)
      return o !== undefined && (o.body !== i.body || o.description !== i.description || o.file !== i.file)
    })
    .map((i) => i.name)
  const parts: string[] = []
  if (added.length > 0) parts.push(`added ${added.join(', ')}`)
  if (changed.length > 0) parts.push(`changed ${changed.join(', ')}`)
  if (removed.length > 0) parts.push(`removed ${removed.join(', ')}`)
  return parts.join('; ')
}
