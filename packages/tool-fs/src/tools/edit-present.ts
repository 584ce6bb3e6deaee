// How `edit` looks (presentation.ts in @tack/tools): before it runs, the replacement the model asked
// for (old → new); after, the hunks it applied.
import type { ToolPresentation } from '@tack/tools'
import { appliedChange, textIntents } from '../present.ts'

interface EditArgs {
  readonly file_path: string
  readonly old_string: string
  readonly new_string: string
  readonly replace_all?: boolean
}

export const editPresentation: ToolPresentation<EditArgs, keyof EditArgs> = {
  kind: 'edit',
  key: ['file_path'],
  title: (args) => `Edit ${args.file_path}${args.replace_all ? ' (every occurrence)' : ''}`,
  call: (args) => [
    { kind: 'diff', path: args.file_path, oldText: args.old_string, newText: args.new_string },
  ],
  result: (_args, result) => appliedChange(result) ?? textIntents(result),
}
