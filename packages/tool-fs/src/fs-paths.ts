// Which paths an fs tool call touches, and how — for the permission plugin, which must judge a call
// before it runs. Pure: it reads the (validated) arguments only.

export type FsAccess = 'read' | 'write'

export interface FsPaths {
  readonly access: FsAccess
  /** As the model gave them (relative to the call's cwd, or absolute). */
  readonly paths: readonly string[]
}

/** The fs tools of this package and the access each needs. */
export const FS_TOOL_ACCESS: Readonly<Record<string, FsAccess>> = Object.freeze({
  read: 'read',
  glob: 'read',
  grep: 'read',
  write: 'write',
  edit: 'write',
})

/** `{access, paths}` of an fs tool call, or undefined for any other tool (or malformed arguments). */
export function fsPathsOf(toolName: string, args: unknown): FsPaths | undefined {
  const access = Object.hasOwn(FS_TOOL_ACCESS, toolName) ? FS_TOOL_ACCESS[toolName] : undefined
  if (!access || args === null || typeof args !== 'object') return undefined
  const record = args as Record<string, unknown>
  const key = toolName === 'glob' || toolName === 'grep' ? 'path' : 'file_path'
  const value = record[key]
  if (value === undefined && key === 'path') return { access, paths: ['.'] }
  if (typeof value !== 'string') return undefined
  return { access, paths: [value] }
}
