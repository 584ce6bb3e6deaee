// How `glob` looks (presentation.ts in @tack/tools): a search by pattern, in a folder when given one.
import type { ToolPresentation } from '@tack/tools'

interface GlobArgs {
  readonly pattern: string
  readonly path?: string
}

export const globPresentation: ToolPresentation<GlobArgs, keyof GlobArgs> = {
  kind: 'search',
  key: ['pattern', 'path'],
  title: (args) => `Glob ${args.pattern}${args.path ? ` in ${args.path}` : ''}`,
  // Only a folder the model named: the workspace root as a location says nothing.
  locations: (args) => (args.path ? [{ path: args.path }] : []),
}
