// Finding `@path` mentions in a prompt's words (85-skills-and-commands.md I1,
// docs/decisions/0280-file-mentions.md). A mention starts a word (`me@x.com` is no mention): `@` then a
// path up to the next space, or `@"…"` for a path with spaces. Sentence punctuation after an unquoted
// path is not part of it (`see @a.ts.` names `a.ts`), though the path as typed is tried first, so a
// file whose name really ends in `.` can still be named. A word shaped like an MCP resource mention
// (`@server:scheme:…`, docs/decisions/0245-mcp-resource-mentions.md) is MCP's: files leave it alone,
// and `@"a:b:c"` names such a file.

export interface PathMention {
  /** The mention as typed, `@` and any quotes included. */
  readonly text: string
  /** The paths it may name, most literal first: the word as typed, then without trailing punctuation. */
  readonly candidates: readonly string[]
}

// `@"…"` (no newline inside) or `@` and a run of non-space characters, at the start of a word.
const MENTION = /(?<=^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g
// An MCP resource mention: a server name (no space, `:`, `@` or `"`), `:`, then a URI with a scheme.
const MCP_SHAPE = /^[^\s:@"]+:[A-Za-z][A-Za-z0-9+.-]*:\S/
// Sentence punctuation that follows a mention; `/` is kept (a folder).
const TRAILING = /[.,;:!?)\]}>'"]+$/

/** The distinct path mentions of `text`, in order. */
export function findPathMentions(text: string): PathMention[] {
  const found = new Map<string, PathMention>()
  for (const match of text.matchAll(MENTION)) {
    const quoted = match[1]
    const word = match[2]
    let mention: PathMention | undefined
    if (quoted !== undefined) {
      mention = { text: `@"${quoted}"`, candidates: [quoted] }
    } else if (word !== undefined && !MCP_SHAPE.test(word)) {
      const trimmed = word.replace(TRAILING, '')
      if (trimmed === '') continue
      const candidates = trimmed === word ? [word] : [word, trimmed]
      mention = { text: `@${trimmed}`, candidates }
    }
    if (mention && !found.has(mention.text)) found.set(mention.text, mention)
  }
  return [...found.values()]
}

/** How a path is written after `@`: quoted when it has a space (a path with a `"` cannot be mentioned). */
export function mentionValue(path: string): string {
  return /\s/.test(path) ? `"${path}"` : path
}
