// `@` completion of workspace paths for the prompt box (85-skills-and-commands.md I1): the mention
// registry of @tack/commands asks this provider beside MCP's (docs/decisions/0245-mcp-resource-mentions.md),
// and the menu shows both. Items come from the cached file index (file-index.ts), ranked fuzzily
// (fuzzy.ts); a folder is offered as a partial item (`src/`, no space after it) so the person can type
// on into it. A path with a space is offered quoted (`@"a b.txt"`), and a query typed after `@"` is
// matched without its quote.
import { type MentionItem, registerMentionProvider } from '@tack/commands'
import type { Context } from 'cordis'
import type { FsEnv } from '../env.ts'
import { FileIndex } from './file-index.ts'
import { rankPaths } from './fuzzy.ts'
import { mentionValue } from './parse.ts'

/** Paths one menu offers: a menu shows a handful, and typing narrows it. */
export const FILE_ITEMS_MAX = 50

export function registerFileMentions(ctx: Context, env: FsEnv): () => void {
  const index = new FileIndex(() => env.config.mentionIndexMaxFiles)
  return registerMentionProvider(ctx, {
    trigger: '@',
    complete: async (query, _signal, scope) => fileItems(await index.paths(scope.cwd), query),
  })
}

export function fileItems(paths: readonly string[], query: string): MentionItem[] {
  const typed = query.startsWith('"') ? query.slice(1).replace(/"$/, '') : query
  return rankPaths(paths, typed, FILE_ITEMS_MAX).map((path) => {
    const folder = path.endsWith('/')
    // A quoted folder is offered without its closing quote, so typing on stays inside the quotes.
    const value = folder && /\s/.test(path) ? `"${path}` : mentionValue(path)
    return folder ? { value, partial: true } : { value }
  })
}
