// The skills catalog (85-skills-and-commands.md K3, C2): one `name: description` line for each skill and
// prompt command the model may load with the `skill` tool, sorted by name, under a short preamble. It
// is a system prompt section (catalog-section.ts): the system prompt is assembled for each request and
// never written as history, so this is request-only advisory context, and the same set of items gives
// the same bytes, request after request. Past `catalogMaxBytes` the rest are left out with a note
// naming how many (the tool still loads them by name).
import type { KnowHowItem } from './types.ts'

export const CATALOG_PREAMBLE =
  '# Skills\nSkills and commands you can load with the `skill` tool ({"name": "<name>", "args": "<optional text>"}). When one of them applies to the task, call the tool with its name first and follow what it returns.'

/** The items the model may load: skills and commands without `disable-model-invocation`. */
export function modelInvocable(items: readonly KnowHowItem[]): KnowHowItem[] {
  return items.filter((i) => !i.disableModelInvocation)
}

export interface Catalog {
  readonly text: string
  /** How many lines there are. */
  readonly listed: number
  /** How many invocable items did not fit. */
  readonly leftOut: number
}

const encoder = new TextEncoder()
const bytes = (s: string) => encoder.encode(s).length

/** The catalog's text ('' when nothing may be loaded or `maxBytes` is 0). `items` come sorted by name. */
export function catalogOf(items: readonly KnowHowItem[], maxBytes: number): Catalog {
  const invocable = modelInvocable(items)
  if (invocable.length === 0 || maxBytes === 0) return { text: '', listed: 0, leftOut: invocable.length }
  const all = invocable.map((item) => `- ${item.name}: ${item.description}`)
  // Each line costs its bytes and the newline before it; when all of them fit, there is no note.
  const total = all.reduce((sum, line) => sum + bytes(line) + 1, bytes(CATALOG_PREAMBLE))
  const lines: string[] = []
  if (total <= maxBytes) lines.push(...all)
  else {
    // Otherwise room is kept for the note, counted as if the most it could say were said.
    let used = bytes(CATALOG_PREAMBLE) + bytes(leftOutNote(invocable.length)) + 1
    for (const line of all) {
      const cost = bytes(line) + 1
      if (used + cost > maxBytes) break
      lines.push(line)
      used += cost
    }
  }
  const leftOut = invocable.length - lines.length
  if (lines.length === 0) return { text: '', listed: 0, leftOut }
  const note = leftOut > 0 ? `\n${leftOutNote(leftOut)}` : ''
  return { text: `${CATALOG_PREAMBLE}\n${lines.join('\n')}${note}`, listed: lines.length, leftOut }
}

function leftOutNote(n: number): string {
  return `(${n} more not listed for want of room; the skill tool loads any of them by its exact name.)`
}
