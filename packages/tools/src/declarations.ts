// Reading what a tool declares about itself (0011-tool-declarations.md): its access, the paths a call
// touches. Permissions, the workspace scope and the agent loop's parallel calls read a tool through
// these, so one rule decides what an undeclared or faulty declaration means everywhere. (Its host
// mappings, `host`, are read by each host's protocol package: host.ts.)
import type { SandboxEscalation, ToolAccess, ToolDefinition } from './types.ts'

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

export type DeclaredEscalation =
  | { readonly ok: true; readonly escalation?: SandboxEscalation }
  | { readonly ok: false; readonly problem: string }

/**
 * Whether a call with these (validated) arguments asks to leave the sandbox
 * (docs/decisions/0315-leaving-the-sandbox.md). A declaration that throws or answers anything but
 * `undefined` or `{justification: string}` is a problem the caller fails closed on.
 */
export function declaredEscalation(
  def: Pick<ToolDefinition, 'name' | 'escalation'> | undefined,
  args: unknown,
): DeclaredEscalation {
  if (!def?.escalation) return { ok: true }
  let answer: unknown
  try {
    answer = def.escalation(args)
  } catch (error) {
    return {
      ok: false,
      problem: `the escalation declaration of tool "${def.name}" threw: ${messageOf(error)}`,
    }
  }
  if (answer === undefined) return { ok: true }
  const justification = (answer as { justification?: unknown } | null)?.justification
  if (typeof justification !== 'string')
    return {
      ok: false,
      problem: `the escalation declaration of tool "${def.name}" must return undefined or {justification: string}`,
    }
  return { ok: true, escalation: Object.freeze({ justification }) }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
