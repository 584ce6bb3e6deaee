// Reading what a tool declares about itself (0011-tool-declarations.md): its access, the paths a call
// touches. Permissions, the workspace scope and the agent loop's parallel calls read a tool through
// these, so one rule decides what an undeclared or faulty declaration means everywhere. (Its host
// mappings, `host`, are read by each host's protocol package: host.ts.)
import type { ToolAccess, ToolDefinition } from './types.ts'

/** A tool that declares no access may do anything a plugin's tool can: it counts as a write. */
export const UNDECLARED_ACCESS: ToolAccess = 'write'

/** The tool's declared access, else `write`. */
export function toolAccess(def: Pick<ToolDefinition, 'access'> | undefined): ToolAccess {
  return def?.access ?? UNDECLARED_ACCESS
}

export type DeclaredPaths =
  | { readonly ok: true; readonly paths: readonly string[] }
  | { readonly ok: false; readonly problem: string }

/**
 * The paths a call with these (validated) arguments touches. A `paths` that throws or returns
 * anything but a list of strings is a problem the caller must fail closed on: a guard cannot judge
 * a call whose paths it does not know.
 */
export function declaredPaths(def: Pick<ToolDefinition, 'name' | 'paths'>, args: unknown): DeclaredPaths {
  if (!def.paths) return { ok: true, paths: [] }
  let paths: unknown
  try {
    paths = def.paths(args)
  } catch (error) {
    return { ok: false, problem: `the paths declaration of tool "${def.name}" threw: ${messageOf(error)}` }
  }
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string' && path !== '')) {
    return {
      ok: false,
      problem: `the paths declaration of tool "${def.name}" must return a list of non-empty strings`,
    }
  }
  return { ok: true, paths: Object.freeze([...paths]) }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
