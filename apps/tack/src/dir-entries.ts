// The visible entries of a folder, sorted by name; a folder that cannot be read has none. Shared by
// the discovery of the user's plugins and of mod folders, which both skip what they cannot read.
import { readdirSync } from 'node:fs'

export function sortedEntries(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => !name.startsWith('.'))
      .sort()
  } catch {
    return []
  }
}
