// The workspace's `.mcp.json` as Claude Code writes it (`claude mcp add --scope project`):
// `{"mcpServers": {name: {type?, command, args, env, url, headers}}}`, read from the folder tack runs in.
// A file that is not JSON, or has no `mcpServers` object, is one problem naming the file; a server that
// cannot be used (an unset `${VAR}` without default, a missing command) is skipped with its own problem
// and the others still load (docs/decisions/0225-mcp-server-sources.md).
import { join } from 'node:path'
import { readBoundedText } from '@tack/kernel/bounded-file'
import { isRecord, type SourceEntry } from './definition.ts'
import { normalizeServer } from './normalize.ts'

export const PROJECT_FILE = '.mcp.json'

/**
 * The most of `.mcp.json` tack reads. A constant, not a setting: the file is read even in an untrusted
 * workspace (to count its servers for the trust message), so a workspace must not be able to make tack
 * hold much; a real file of a few servers is a few KiB, and nobody needs to raise this.
 */
export const MAX_PROJECT_FILE_BYTES = 1024 * 1024

export function projectMcpFile(cwd: string): string {
  return join(cwd, PROJECT_FILE)
}

export interface SourceRead {
  readonly entries: readonly SourceEntry[]
  /** The file as a whole could not be used. */
  readonly problem?: string
}

export function readProjectServers(cwd: string, env: NodeJS.ProcessEnv): SourceRead {
  const file = projectMcpFile(cwd)
  const parsed = readProjectJson(file)
  if (!parsed.ok && parsed.missing) return { entries: [] }
  if (!parsed.ok) return { entries: [], problem: parsed.problem }
  const servers = parsed.value.mcpServers ?? {}
  if (!isRecord(servers)) return { entries: [], problem: `${file}: mcpServers must be an object` }
  return {
    entries: Object.entries(servers).map(([name, raw]) =>
      normalizeServer(raw, { name, source: 'project', file, expandFrom: env, cwdBase: cwd, cwdInside: true }),
    ),
  }
}

/** The file's JSON object (for reading and for `tack mcp add --scope project`, which keeps the rest). */
export function readProjectJson(
  file: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; missing: boolean; problem: string } {
  // bounded and non-blocking: a FIFO or /dev/zero in the workspace must not hang tack or fill memory
  const read = readBoundedText(file, MAX_PROJECT_FILE_BYTES)
  if (!read.ok) return { ok: false, missing: read.missing, problem: `${file}: ${read.problem}` }
  let value: unknown
  try {
    value = JSON.parse(read.text)
  } catch (error) {
    return { ok: false, missing: false, problem: `${file}: not readable as JSON${whereInJson(error)}` }
  }
  return isRecord(value)
    ? { ok: true, value }
    : { ok: false, missing: false, problem: `${file}: must be a JSON object` }
}

/**
 * Where JSON.parse stopped, without the excerpt of the file Node puts in its message: the excerpt may be
 * an `env` or `headers` value.
 */
function whereInJson(error: unknown): string {
  const at = /at position \d+(?: \(line \d+ column \d+\))?/.exec((error as Error).message)?.[0]
  return at ? ` (${at})` : ''
}
