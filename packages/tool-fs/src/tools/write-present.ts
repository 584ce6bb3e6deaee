// How `write` looks (presentation.ts in @tack/tools): before it runs, the content as a new file; after,
// the hunks of an overwrite, or the whole content of a file it created.
import type { ToolPresentation } from '@tack/tools'
import { appliedChange } from '../present.ts'

interface WriteArgs {
  readonly file_path: string
  readonly content: string
}

export const writePresentation: ToolPresentation<WriteArgs, keyof WriteArgs> = {
  kind: 'edit',
  key: ['file_path'],
  title: (args) => `Write ${args.file_path}`,
  call: (args) => [{ kind: 'diff', path: args.file_path, oldText: null, newText: args.content }],
  // A create logs no meta (write.ts): what it wrote is the requested content. This is the one place
  // that rule is known; front ends draw the `created` intent.
  result: (args, result) =>
    appliedChange(result) ?? [{ kind: 'created', path: args.file_path, content: args.content }],
}
