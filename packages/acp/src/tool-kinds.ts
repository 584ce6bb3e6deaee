// How a tack tool call looks in an ACP client (50-acp.md requirement 8): its kind, the files it
// follows, and its call-time content. Pure functions of the tool name and arguments, shared by live
// updates and the history replay of session/load, so both show a call the same way.
import { isAbsolute, resolve } from 'node:path'
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk'
import { parseToolArguments, type ToolAccess } from '@tack/tools'

const KINDS: Readonly<Record<string, ToolKind>> = Object.freeze({
  read: 'read',
  write: 'edit',
  edit: 'edit',
  bash: 'execute',
  run_code: 'execute',
  glob: 'search',
  grep: 'search',
  web_fetch: 'fetch',
  web_search: 'fetch',
  subagent: 'think',
  todo_write: 'think',
})

/** Another package's tool shows the kind its declared access means (0011-tool-declarations.md). */
const BY_ACCESS: Readonly<Partial<Record<ToolAccess, ToolKind>>> = Object.freeze({
  read: 'read',
  execute: 'execute',
  network: 'fetch',
})

/** The ACP kind of a tack tool; another tool's from the access it declares; else `other`. */
export function toolKind(name: string, access?: ToolAccess): ToolKind {
  return KINDS[name] ?? (access === undefined ? undefined : BY_ACCESS[access]) ?? 'other'
}

/** The call's arguments as an object (the model's raw text may be anything). */
export const parseArguments = parseToolArguments

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** An absolute path for the client: ACP paths are always absolute. */
export function absolutePath(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path)
}

/** The files a call touches, for the client's follow-along; `read` with an offset gives that line. */
export function toolLocations(name: string, args: Record<string, unknown>, cwd: string): ToolCallLocation[] {
  const file = text(args.file_path)
  if (file !== undefined && (name === 'read' || name === 'write' || name === 'edit')) {
    const offset = args.offset
    const line = name === 'read' && typeof offset === 'number' && offset > 0 ? offset : undefined
    return [{ path: absolutePath(cwd, file), ...(line !== undefined && { line }) }]
  }
  const dir = text(args.path)
  if (dir !== undefined && (name === 'glob' || name === 'grep')) return [{ path: absolutePath(cwd, dir) }]
  return []
}

/**
 * What a call shows before it runs: edits and writes a snippet diff of what the model asked for
 * (`edit`: old_string → new_string; `write`: the new content as a new file); the completed update
 * replaces it with the applied hunks (result-content.ts).
 */
export function callContent(name: string, args: Record<string, unknown>, cwd: string): ToolCallContent[] {
  const file = text(args.file_path)
  if (file === undefined) return []
  const path = absolutePath(cwd, file)
  if (name === 'edit') {
    const oldText = text(args.old_string)
    const newText = text(args.new_string)
    if (oldText !== undefined && newText !== undefined) return [{ type: 'diff', path, oldText, newText }]
  }
  if (name === 'write') {
    const content = text(args.content)
    if (content !== undefined) return [{ type: 'diff', path, oldText: null, newText: content }]
  }
  return []
}
