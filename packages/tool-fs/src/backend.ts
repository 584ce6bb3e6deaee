// The file backend seam (50-acp.md requirement 10): where `read`, `write` and `edit` get and put a
// file's text. By default that is the local disk, in line in each tool (streamed reads, atomic writes,
// preserved modes). A front end whose user edits in another program — an ACP client's editor — may
// answer for its own agents with a backend that goes through that program instead, so the model reads
// the unsaved buffer and its writes land in the editor. Everything around the content stays local and
// unchanged: workspace scope, protected files, permissions, the disk's existence/kind/binary checks
// and the diffs (docs/decisions/0094-acp-client-fs.md).
import { agentOverrides, type ToolAgent } from '@tack/tools'
import type { Fingerprint } from './observations.ts'
import { sha256 } from './text.ts'
import type { ResolvedPath } from './workspace.ts'

export interface FileBackend {
  /** The whole current text of `path.real` (a regular text file, as the disk checks found). */
  readText(path: ResolvedPath, signal: AbortSignal): Promise<string>
  /** Replaces (or creates) `path.real` with `content`. */
  writeText(path: ResolvedPath, content: string, signal: AbortSignal): Promise<void>
}

/** Answers for the agents it knows (e.g. its own sessions' agents); `undefined` for the rest. */
export type FileBackendResolver = (agent: ToolAgent) => FileBackend | undefined

const backends = agentOverrides<FileBackend>()

/** Installs `resolve`; the returned function removes it (call it when the installing plugin stops). */
export const useFileBackends = (resolve: FileBackendResolver): (() => void) => backends.use(resolve)

/** The backend swapped in for this call's agent, or `undefined` for the local disk. */
export const fileBackendOf = (agent: ToolAgent | undefined): FileBackend | undefined => backends.of(agent)

/**
 * What an agent saw through a swapped backend: always the whole text, so freshness (TL-13) is decided
 * by content hash; there is no mtime to compare (an editor buffer has none).
 */
export function textFingerprint(text: string): Fingerprint {
  const bytes = Buffer.from(text)
  return { size: bytes.length, mtimeMs: 0, hash: sha256(bytes) }
}
