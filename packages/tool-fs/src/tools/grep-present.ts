// How `grep` looks (presentation.ts in @tack/tools): a search by pattern, in a folder when given one.
import type { ToolPresentation } from '@tack/tools'

interface GrepArgs {
  readonly pattern: string
  readonly path?: string
  readonly glob?: string
}

export const grepPresentation: ToolPresentation<GrepArgs, keyof GrepArgs> = {
  kind: 'search',
  key: ['pattern', 'path'],
  title: (args) =>
    `Grep ${args.pattern}${args.path ? ` in ${args.path}` : ''}${args.glob ? ` (${args.glob})` : ''}`,
  // Only a folder the model named: the workspace root as a location says nothing.
  locations: (args) => (args.path ? [{ path: args.path }] : []),
}
