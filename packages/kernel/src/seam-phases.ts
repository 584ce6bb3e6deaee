// Seam phases: the order a seam's listeners run in is declared with the seam, not left to the order
// plugins happen to load in. A seam that needs an order declares its phases, first to last (e.g.
// `tools/pre-execute`: the mods' outermost wrapper, the host hooks, the permission policy, then the
// user's plugins); a listener names its phase when it registers (`ctx.on(name, fn, { phase })`).
// Within a phase (docs/decisions/0205-seam-phases.md):
//   1. `prepend` listeners (a recorder that must see everything), newest first;
//   2. listeners of built-in plugins — those loaded through `builtinScope` (tack's boot loads its
//      catalog that way) — ordered by plugin name, then by registration;
//   3. every other listener (the user's plugins, tests, the root context) in registration order.
// A listener that names no phase joins the seam's last phase; a seam without declared phases has one.
// Nothing here depends on the order the built-ins were loaded in.
import type { Context } from 'cordis'

declare module 'cordis' {
  interface EventOptions {
    /** The seam phase this listener runs in (seam-phases.ts); default the seam's last phase. */
    phase?: string
  }
}

/** One phase of a seam: its name and what runs there (docs/architecture.md shows both). */
export interface SeamPhase {
  readonly name: string
  readonly doc: string
}

const declared = new Map<string, readonly SeamPhase[]>()

/**
 * Declares `seam`'s phases, first to last, each with what runs there (`{ hooks: 'the host hooks', … }`:
 * the object's key order is the phase order). Called by the package that declares the seam, beside its
 * `Events` declaration; declaring the same phases again is a no-op, different ones an error.
 */
export function declareSeamPhases(seam: string, phases: Readonly<Record<string, string>>): void {
  const list = Object.entries(phases).map(([name, doc]) => Object.freeze({ name, doc }))
  if (list.length === 0) throw new Error(`seam "${seam}": phases must be a non-empty list of names`)
  const names = list.map((p) => p.name).join(', ')
  const before = declared.get(seam)
  if (before && before.map((p) => p.name).join(', ') !== names)
    throw new Error(`seam "${seam}" already declares the phases ${before.map((p) => p.name).join(', ')}`)
  declared.set(seam, Object.freeze(list))
}

/** `seam`'s declared phase names, first to last; undefined when it declares none (one implicit phase). */
export function seamPhases(seam: string): readonly string[] | undefined {
  return declared.get(seam)?.map((p) => p.name)
}

/** Every seam that declares phases, with its phases (for docs/architecture.md and its test). */
export function declaredSeamPhases(): ReadonlyMap<string, readonly SeamPhase[]> {
  return declared
}

/** The index of `phase` among `seam`'s phases; a phase the seam does not declare is an error. */
export function phaseIndex(seam: string, phase: string | undefined, plugin: string): number {
  const phases = seamPhases(seam)
  if (phase === undefined) return phases ? phases.length - 1 : 0
  const index = phases?.indexOf(phase) ?? -1
  if (index < 0)
    throw new Error(
      `plugin "${plugin}" registered a ${seam} listener in phase "${phase}", which the seam does not declare (${phases ? `its phases: ${phases.join(', ')}` : 'it declares no phases'})`,
    )
  return index
}

const BUILTIN = Symbol.for('tack.builtinScope')

/**
 * A context whose plugins count as built-in: within a seam phase their listeners are ordered by plugin
 * name, ahead of other plugins' listeners, so the order a host loads its built-ins in changes nothing.
 */
export function builtinScope(ctx: Context): Context {
  return ctx.extend({ [BUILTIN]: true })
}

/** Whether `ctx` belongs to a plugin loaded through `builtinScope`. */
export function isBuiltin(ctx: Context): boolean {
  return (ctx as unknown as Record<symbol, unknown>)[BUILTIN] === true
}
