// Mention completion (80-cli.md §5.3 prompt box; 55-mcp.md M10): a word the person starts with a trigger
// character (`@`) is completed from the providers registered for that trigger — @tack/mcp's for
// `@server:uri`, @tack/tool-fs's for `@path` (docs/decisions/0280-file-mentions.md). Front ends ask `mentionSuggestions` and
// know no provider by name. Providers answer from what they have cached (a resource list refreshed when
// its server says it changed, a file index), never by a network round trip per key: the screen asks on
// every key.
import type { Context } from 'cordis'

export interface MentionItem {
  /** What replaces the typed word after the trigger: `everything:demo://resource/static/document/a.md`. */
  readonly value: string
  /** What the menu shows; default `value`. */
  readonly label?: string
  readonly description?: string
  /**
   * The value is the start of a mention, not a whole one (a resource template's fixed head): the box
   * puts no space after it, so the person types on.
   */
  readonly partial?: boolean
}

/** Where the prompt being typed will run: a file provider offers the paths under `cwd`. */
export interface MentionScope {
  readonly cwd: string
}

export interface MentionProvider {
  /** The character a mention starts with, e.g. `@`. */
  readonly trigger: string
  /** The items for `query`, the word typed after the trigger up to the cursor (possibly empty). */
  complete(
    query: string,
    signal: AbortSignal,
    scope: MentionScope,
  ): readonly MentionItem[] | Promise<readonly MentionItem[]>
}

/** Items past this many in all are not offered: a menu shows a handful, and typing narrows it. */
export const MENTION_ITEMS_MAX = 200

const registries = new WeakMap<object, Set<MentionProvider>>()

function providersOf(ctx: Context): Set<MentionProvider> {
  let set = registries.get(ctx.root)
  if (!set) {
    set = new Set()
    registries.set(ctx.root, set)
  }
  return set
}

/** Adds `provider` while `ctx`'s plugin is loaded; the returned function removes it sooner. */
export function registerMentionProvider(ctx: Context, provider: MentionProvider): () => void {
  if (provider.trigger.length !== 1 || /\s/.test(provider.trigger))
    throw new Error(`a mention trigger is one non-space character, not ${JSON.stringify(provider.trigger)}`)
  return ctx.effect(() => {
    const set = providersOf(ctx)
    set.add(provider)
    return () => set.delete(provider)
  }, `mention provider ${provider.trigger}`)
}

/** The trigger characters some provider answers. */
export function mentionTriggers(ctx: Context): ReadonlySet<string> {
  return new Set([...providersOf(ctx)].map((p) => p.trigger))
}

/**
 * Every provider's items for `trigger` and `query`, in registration order. A provider that throws offers
 * nothing; the others still answer.
 */
export async function mentionSuggestions(
  ctx: Context,
  trigger: string,
  query: string,
  signal: AbortSignal,
  scope: MentionScope = { cwd: process.cwd() },
): Promise<MentionItem[]> {
  const providers = [...providersOf(ctx)].filter((p) => p.trigger === trigger)
  const answers = await Promise.all(
    providers.map(async (p) => {
      try {
        return await p.complete(query, signal, scope)
      } catch {
        return []
      }
    }),
  )
  return answers.flat().slice(0, MENTION_ITEMS_MAX)
}
