// Keeps the code blocks of hand-written docs equal to the files they show: after each
// `<!-- snippet: PATH -->` marker, the fenced block is the file at PATH. `npm run docs:gen` refreshes
// them; `npm run docs:check` (part of `npm test`) fails when one is stale.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fillSnippets } from './lib/doc-references.ts'

/** The docs that include snippets. */
export const DOCS_WITH_SNIPPETS = ['docs/architecture.md']

export async function generate(): Promise<Array<{ path: string; content: string }>> {
  const root = resolve(import.meta.dirname, '..')
  return DOCS_WITH_SNIPPETS.map((path) => ({
    path,
    content: fillSnippets(readFileSync(resolve(root, path), 'utf8'), (file) =>
      readFileSync(resolve(root, file), 'utf8'),
    ),
  }))
}
