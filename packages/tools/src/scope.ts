// The workspace scope (TL-11, R6), for every tool that declares the paths it touches. A path resolves
// against the call's cwd; what is checked is its *real* path — symlinks followed, and for a path that
// does not exist yet the real path of its nearest existing parent (a dangling symlink is followed to
// where it would write) — so neither `..`, an absolute path nor an in-tree symlink pointing out can
// reach outside the workspace root (the agent's cwd). The pipeline holds every declared path to it
// before the body runs, so a tool in its own package is scoped without any edit elsewhere; an outside
// path needs an approved call (the user, or a rule: an allow rule, yolo).
import { lstat, readlink, realpath } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { declaredPaths } from './declarations.ts'
import { ToolFailure } from './errors.ts'
import type { ToolCallContext, ToolDefinition } from './types.ts'

/** Where a requested path leads. */
export interface ResolvedPath {
  /** The path as the model gave it. */
  readonly requested: string
  /** Lexically resolved against the cwd (no symlinks followed). */
  readonly absolute: string
  /** Symlinks followed; for a missing path, the nearest existing parent's real path plus the rest. */
  readonly real: string
  /** Whether `real` exists now. */
  readonly exists: boolean
  /** The real path of the workspace root. */
  readonly root: string
  /** Whether `real` lies inside the workspace root (or is the root). */
  readonly inside: boolean
}

/** Symlink hops followed by hand (for dangling links) before giving up, as the kernel's ELOOP limit. */
const MAX_LINK_HOPS = 40

/** The workspace root of a call: the agent's cwd, else the call's. */
export function workspaceRootOf(call: Pick<ToolCallContext, 'cwd' | 'agent'>): string {
  return call.agent?.cwd ?? call.cwd
}

/** Resolves `requested` against `cwd` and checks it against the workspace `root`. Never throws for a missing path. */
export async function resolveInWorkspace(
  root: string,
  cwd: string,
  requested: string,
): Promise<ResolvedPath> {
  const absolute = resolve(cwd, requested)
  const [realRoot, target] = await Promise.all([realOrSelf(resolve(root)), realOf(absolute, 0)])
  return { requested, absolute, ...target, root: realRoot, inside: isInside(realRoot, target.real) }
}

/** The real path of `path` (symlinks followed; nearest existing parent for a new path). */
export async function realPathOf(path: string): Promise<string> {
  return (await realOf(resolve(path), 0)).real
}

/**
 * Resolves a path a call touches and enforces the scope: outside the workspace it fails
 * `OUTSIDE_WORKSPACE` unless the call was approved (by the user or an explicit allow rule).
 */
export async function resolveScoped(call: ToolCallContext, requested: string): Promise<ResolvedPath> {
  let resolved: ResolvedPath
  try {
    resolved = await resolveInWorkspace(workspaceRootOf(call), call.cwd, requested)
  } catch (error) {
    throw new ToolFailure('PATH_UNRESOLVABLE', `Cannot resolve ${requested}: ${messageOf(error)}`)
  }
  if (!resolved.inside && call.approval !== 'user' && call.approval !== 'rule') {
    const via = resolved.real === resolved.absolute ? '' : ` (it resolves to ${resolved.real})`
    throw new ToolFailure(
      'OUTSIDE_WORKSPACE',
      `${requested} is outside the workspace ${resolved.root}${via}. Paths outside the workspace need the user's approval or an allow rule.`,
    )
  }
  return resolved
}

/** `child` equals `root` or lies below it. */
export function isInside(root: string, child: string): boolean {
  if (child === root) return true
  const prefix = root.endsWith(sep) ? root : root + sep
  return child.startsWith(prefix)
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch {
    return path
  }
}

async function realOf(absolute: string, hops: number): Promise<{ real: string; exists: boolean }> {
  try {
    return { real: await realpath(absolute), exists: true }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
  }
  const parent = dirname(absolute)
  if (parent === absolute) return { real: absolute, exists: false }
  const up = await realOf(parent, hops)
  const here = join(up.real, basename(absolute))
  // A dangling symlink: writing through it creates its target, so its target is what is scoped.
  const link = up.exists ? await lstat(here).catch(() => undefined) : undefined
  if (link?.isSymbolicLink()) {
    if (hops >= MAX_LINK_HOPS)
      throw Object.assign(new Error(`too many symbolic links at ${absolute}`), { code: 'ELOOP' })
    const target = await readlink(here)
    return realOf(isAbsolute(target) ? target : resolve(up.real, target), hops + 1)
  }
  return { real: here, exists: false }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Holds every path the tool declares for this call to the scope (the pipeline runs it right before
 * the body): an outside path of an unapproved call fails `OUTSIDE_WORKSPACE`, and a faulty `paths`
 * declaration fails the call, since the scope cannot judge paths it does not know. A tool that declares
 * no paths has nothing to check: undefined, so its body starts in the same tick as before.
 */
export function holdToScope(
  def: Pick<ToolDefinition, 'name' | 'paths'>,
  args: unknown,
  call: ToolCallContext,
): Promise<void> | undefined {
  if (!def.paths) return undefined
  const declared = declaredPaths(def, args)
  if (!declared.ok) throw new Error(declared.problem)
  return (async () => {
    for (const path of declared.paths) await resolveScoped(call, path)
  })()
}
