// `edit` of a file too big to hold (docs/decisions/0165-streaming-huge-files.md): at least
// `readStreamMinSize` bytes and certainly past `diffMaxChars`, so a loaded edit would report counts
// anyway. The file is streamed once (stream-replace.ts) into a temporary file beside it, which is
// renamed over it only when the call succeeds: read-before-edit (by the content hash computed on the
// way when the agent's observation has one), then `NO_CHANGE`, `NO_MATCH`, `AMBIGUOUS_MATCH`. The
// result, text and meta, is the loaded edit's, its counts computed from the sites and sizes alone.
import type { Stats } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { stat } from 'node:fs/promises'
import { type ToolCallContext, ToolFailure } from '@tack/tools'
import { openAtomic } from './atomic-write.ts'
import type { FsToolsConfig } from './config.ts'
import type { ChangeSummary } from './diff.ts'
import { requireSites, sameStrings } from './edit-checks.ts'
import type { FsEnv } from './env.ts'
import { fingerprintOf } from './observations.ts'
import { siteCounts } from './replace-sites.ts'
import { startsWithCrlf, streamReplace } from './stream-replace.ts'
import { toLf } from './text.ts'
import type { ResolvedPath } from './workspace.ts'

export interface EditArgs {
  readonly file_path: string
  readonly old_string: string
  readonly new_string: string
  readonly replace_all?: boolean
}

/**
 * Whether `edit` streams a file of `size` bytes: at least `readStreamMinSize`, and more than 1.5 ×
 * `diffMaxChars` bytes — no such file has fewer than `diffMaxChars / 2` characters (a UTF-8
 * character takes at most 3 bytes per UTF-16 unit), so a loaded edit would not diff it either and
 * the result is the same.
 */
export function editStreams(size: number, config: FsToolsConfig): boolean {
  return size >= config.readStreamMinSize && 2 * size > 3 * config.diffMaxChars
}

/** The outcome of a streamed edit: the sites replaced and what changed, in counts. */
export interface StreamedEdit {
  readonly found: number
  readonly summary: ChangeSummary
}

/**
 * Edits the open file `handle` (stat `before`) by streaming; throws the loaded edit's failures. With
 * `dryRun` the same pass only counts and checks — nothing is written, nothing recorded — for the
 * approval's preview (docs/decisions/0300-approval-shows-the-change.md).
 */
export async function streamEdit(
  env: FsEnv,
  call: ToolCallContext,
  path: ResolvedPath,
  handle: FileHandle,
  before: Stats,
  args: EditArgs,
  dryRun = false,
): Promise<StreamedEdit> {
  const { observations, config } = env
  // Without a content hash to compare (no observation, or a streamed read), size and mtime decide now.
  const seen = observations.get(call.agent, path.real)
  if (seen?.hash === undefined)
    observations.requireFresh(call.agent, path.real, args.file_path, fingerprintOf(before))
  const crlf = await startsWithCrlf(handle, config.streamChunkBytes)
  const oldText = crlf ? toLf(args.old_string) : args.old_string
  const newText = crlf ? toLf(args.new_string) : args.new_string
  const unchanged = sameStrings(oldText, newText)
  // A call that will fail NO_CHANGE still hashes the file when the observation needs it (staleness first).
  if (unchanged && seen?.hash === undefined) throw unchanged
  const file = unchanged || dryRun ? undefined : await openAtomic(path.real, before.mode & 0o7777)
  try {
    const oldBytes = Buffer.from(oldText, 'utf8')
    const newBytes = Buffer.from(newText, 'utf8')
    const replaced = await streamReplace({
      handle,
      chunkBytes: config.streamChunkBytes,
      crlf,
      oldBytes,
      newBytes,
      replaceAll: args.replace_all === true,
      signal: call.signal,
      ...(file && { sink: (bytes: Uint8Array) => file.write(bytes) }),
    })
    if (seen?.hash !== undefined) {
      observations.requireFresh(call.agent, path.real, args.file_path, {
        ...fingerprintOf(before),
        hash: replaced.inputHash,
      })
    }
    if (unchanged) throw unchanged
    requireSites(replaced.found, args.replace_all === true, args.file_path)
    const bytesAfter = replaced.normalisedBytes + replaced.found * (newBytes.length - oldBytes.length)
    const summary = siteCounts(oldText, newText, replaced.found, 'size', replaced.normalisedBytes, bytesAfter)
    if (dryRun) return { found: replaced.found, summary }
    call.signal.throwIfAborted()
    await requireUnchangedSince(path.real, before, args.file_path)
    await file?.commit()
    const written = await stat(path.real)
    observations.record(call.agent, path.real, {
      ...fingerprintOf(written),
      hash: replaced.outputHash,
    })
    return { found: replaced.found, summary }
  } catch (error) {
    await file?.discard()
    throw error
  }
}

/**
 * The pass takes seconds on a huge file: a change someone made meanwhile (their editor saved, a build
 * wrote it) would be silently replaced by the pass's output, built from what it read before. The file
 * must still be the one opened — same inode, size and mtime — when the replacement is renamed over it.
 */
async function requireUnchangedSince(real: string, before: Stats, shown: string): Promise<void> {
  const now = await stat(real)
  if (now.ino === before.ino && now.size === before.size && now.mtimeMs === before.mtimeMs) return
  throw new ToolFailure(
    'FS_STALE',
    `${shown} changed while it was being edited. Read it again, then change it.`,
  )
}
