// The skills catalog (85-skills-and-commands.md K3, C2): one `name: description` line for each skill and
// prompt command the model may load with the `skill` tool, sorted by name, under a short preamble. It
// is a system prompt section (catalog-section.ts): the system prompt is assembled for each request and
// never written as history, so this is request-only advisory context, and the same set of items gives
// the same bytes, request after request. Past `catalogMaxBytes` the rest are left out with a note
// naming how many (the tool still loads them by name); the person's own items are kept first.
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
  const lineOf = (item: KnowHowItem) => `- ${item.name}: ${item.description}`
  // Each line costs its bytes and the newline before it; when all of them fit, there is no note.
  const total = invocable.reduce((sum, item) => sum + bytes(lineOf(item)) + 1, bytes(CATALOG_PREAMBLE))
  let lines: string[]
  if (total <= maxBytes) lines = invocable.map(lineOf)
  else {
    // Otherwise room is kept for the note, counted as if the most it could say were said, and the
    // person's own items take the room first: a repository's many long descriptions cannot push them
    // out. What fits is still listed by name.
    let used = bytes(CATALOG_PREAMBLE) + bytes(leftOutNote(invocable.length)) + 1
    const chosen: KnowHowItem[] = []
    for (const item of [...invocable.filter(isUsers), ...invocable.filter((i) => !isUsers(i))]) {
      const cost = bytes(lineOf(item)) + 1
      if (used + cost > maxBytes) continue
      chosen.push(item)
      used += cost
    }
    lines = invocable.filter((i) => chosen.includes(i)).map(lineOf)
  }
  const leftOut = invocable.length - lines.length
  if (lines.length === 0) return { text: '', listed: 0, leftOut }
  const note = leftOut > 0 ? `\n${leftOutNote(leftOut)}` : ''
  return { text: `${CATALOG_PREAMBLE}\n${lines.join('\n')}${note}`, listed: lines.length, leftOut }
}

const isUsers = (item: KnowHowItem) => item.scope === 'user'

function leftOutNote(n: number): string {
  return `(${n} more not listed for want of room; the skill tool loads any of them by its exact name.)`
}
