// A folder's listing for an `@folder` mention (85-skills-and-commands.md I1): its entries one level
// deep, folders marked with a trailing `/`, sorted as `glob` sorts (a folder as its name plus `/`),
// `.git` left out, files a deny rule withholds counted but never named
// (docs/decisions/0118-deny-rules-in-search-results.md), stopped at `maxBytes` with a note.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { WithheldTest } from '@tack/tools'
import { plural } from '../present.ts'
import { withheldNote } from '../withheld.ts'

export async function folderListing(
  folder: string,
  withheld: WithheldTest | undefined,
  maxBytes: number,
): Promise<string> {
  const entries = await readdir(folder, { withFileTypes: true })
  const names = entries
    .filter((entry) => entry.name !== '.git')
    .map((entry) => ({ entry, name: entry.isDirectory() ? `${entry.name}/` : entry.name }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const shown: string[] = []
  let bytes = 0
  let hidden = 0
  let more = 0
  for (const { entry, name } of names) {
    if (!entry.isDirectory() && withheld?.(join(folder, entry.name))) {
      hidden++
      continue
    }
    const size = Buffer.byteLength(name) + 1
    if (more > 0 || bytes + size > maxBytes) {
      more++
      continue
    }
    shown.push(name)
    bytes += size
  }
  if (shown.length === 0 && more === 0) return `[The folder is empty.]${withheldNote(hidden, 'listed')}`
  const cut =
    more > 0
      ? `\n\n[${plural(more, 'more entry', 'more entries')} not shown: the listing stopped at ${maxBytes} bytes.]`
      : ''
  return shown.join('\n') + cut + withheldNote(hidden, 'listed')
}
