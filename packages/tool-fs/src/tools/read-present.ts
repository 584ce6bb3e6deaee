// How `read` looks (presentation.ts in @tack/tools): it reads one file, from a line when given one.
import type { ToolPresentation } from '@tack/tools'

interface ReadArgs {
  readonly file_path: string
  readonly offset?: number
  readonly limit?: number
}

export const readPresentation: ToolPresentation<ReadArgs, keyof ReadArgs> = {
  kind: 'read',
  key: ['file_path'],
  title: (args) => {
    const range =
      args.offset !== undefined || args.limit !== undefined
        ? ` (from line ${args.offset ?? 1}${args.limit !== undefined ? `, ${args.limit} lines` : ''})`
        : ''
    return `Read ${args.file_path}${range}`
  },
  locations: ({ file_path, offset }) => [
    { path: file_path, ...(offset !== undefined && offset > 0 && { line: offset }) },
  ],
}
