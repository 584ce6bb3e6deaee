// The `withheldPaths` service (docs/decisions/0118-deny-rules-in-search-results.md): which files a
// call may not show. A deny rule with a path stops a call that names a covered file, but a search
// tool names only its folder: it reads and lists the files below, so it asks this service for a test
// and leaves covered files out of its results. @tack/permissions provides the service; without it
// (an embedder with no permission rules) nothing is withheld.
import type { Context } from 'cordis'
import type { ToolCallContext } from './types.ts'

/** True for an absolute real path a rule keeps out of this call's results. */
export type WithheldTest = (real: string) => boolean

export interface WithheldPaths {
  /** The test for a call of `tool`, or undefined when no rule can cover any path of it. */
  forCall(tool: string, call: Pick<ToolCallContext, 'cwd' | 'agent'>): Promise<WithheldTest | undefined>
}

declare module 'cordis' {
  interface Context {
    /** Files deny rules keep out of search results; optional (provided by @tack/permissions). */
    withheldPaths: WithheldPaths
  }
}

/** The withheld test for a call of `tool`, read from the service at call time (undefined: none). */
export function withheldTestFor(
  ctx: Context,
  tool: string,
  call: Pick<ToolCallContext, 'cwd' | 'agent'>,
): Promise<WithheldTest | undefined> {
  const service = ctx.get('withheldPaths') as WithheldPaths | undefined
  return service ? service.forCall(tool, call) : Promise.resolve(undefined)
}
