// `edit`'s failures on the strings and the sites found (TL-14), one wording whether the file was
// loaded (tools/edit.ts) or streamed (stream-edit.ts).
import { ToolFailure } from '@tack/tools'

/** `NO_CHANGE` when both strings are equal (after the file's line-ending normalisation), else undefined. */
export function sameStrings(oldText: string, newText: string): ToolFailure | undefined {
  return oldText === newText
    ? new ToolFailure('NO_CHANGE', 'old_string and new_string are the same; nothing to change.')
    : undefined
}

/** Throws `NO_MATCH` for no site, `AMBIGUOUS_MATCH` (naming the count) for several without `replace_all`. */
export function requireSites(found: number, replaceAll: boolean, shown: string): void {
  if (found === 0) throw new ToolFailure('NO_MATCH', `old_string was not found in ${shown}.`)
  if (found > 1 && !replaceAll) {
    throw new ToolFailure(
      'AMBIGUOUS_MATCH',
      `old_string occurs ${found} times in ${shown}. Give more surrounding text to make it unique, or set replace_all to replace all ${found}.`,
    )
  }
}
