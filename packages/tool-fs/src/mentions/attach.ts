// What one `@path` mention attaches (85-skills-and-commands.md I1, docs/decisions/0280-file-mentions.md):
// a file as `read` shows it (the tool's own `readFileWindow`: numbered lines, bounded, streamed when
// huge, a FIFO or device refused before it is opened), or a folder's listing. A path that does not exist
// is nobody's business (it stays text); one that exists but may not reach the model — outside the
// workspace, in tack's own folder, withheld by a deny rule, binary, an image — is refused with a reason
// the person is told.
import { realpath, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { resolveTackHome } from '@tack/kernel'
import { isInside, ToolFailure, type ToolAgent, type WithheldTest } from '@tack/tools'
import type { FsEnv } from '../env.ts'
import { readFileWindow } from '../tools/read.ts'
import { displayPath, type ResolvedPath, resolveInWorkspace } from '../workspace.ts'
import { folderListing } from './folder-listing.ts'
import type { PathMention } from './parse.ts'

export type Attachment =
  /** `body` as `read` shows the file (or the folder's listing); `path` as the workspace shows it. */
  | {
      readonly kind: 'attached'
      readonly what: 'file' | 'folder'
      readonly path: string
      readonly body: string
    }
  /** Nothing of that name: the mention stays text, and nothing is said. */
  | { readonly kind: 'unknown' }
  /** It exists but is not attached; `why` is told to the person. */
  | { readonly kind: 'refused'; readonly why: string }

export interface AttachScope {
  readonly env: FsEnv
  /** The workspace root (the agent's cwd); relative mentions resolve against it. */
  readonly root: string
  readonly agent: ToolAgent | undefined
  /** Files deny rules keep from `read` (the permissions plugin's withheld test); undefined: none. */
  readonly withheld: WithheldTest | undefined
  readonly signal: AbortSignal
}

/** The image types another path attaches (85-skills-and-commands.md I2); never read as text here. */
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp'])

export async function attachMention(
  scope: AttachScope,
  mention: Pick<PathMention, 'candidates'>,
): Promise<Attachment> {
  const path = await firstExisting(scope.root, mention.candidates)
  if (!path) return { kind: 'unknown' }
  const shown = displayPath(path.root, path.real)
  if (!path.inside) {
    const via = path.real === path.absolute ? '' : ` (it resolves to ${path.real})`
    return { kind: 'refused', why: `it is outside the workspace ${path.root}${via}` }
  }
  if (await inTackHome(path.real))
    return { kind: 'refused', why: "it is in tack's own folder ($TACK_HOME), which holds keys and sessions" }
  if (scope.withheld?.(path.real))
    return { kind: 'refused', why: 'a permission deny rule withholds it from read' }
  try {
    return await readAttachment(scope, path, shown)
  } catch (error) {
    if (scope.signal.aborted) throw error
    // The read tool's own refusals (binary, not a regular file) say what the file is; anything else
    // (a folder that cannot be listed, a file that vanished) is one line too, never a failed turn.
    if (error instanceof ToolFailure) return { kind: 'refused', why: error.message }
    return { kind: 'refused', why: `reading it failed: ${(error as Error).message}` }
  }
}

async function readAttachment(scope: AttachScope, path: ResolvedPath, shown: string): Promise<Attachment> {
  const { config } = scope.env
  if ((await stat(path.real)).isDirectory()) {
    const listing = await folderListing(path.real, scope.withheld, config.mentionMaxBytes)
    return { kind: 'attached', what: 'folder', path: shown, body: listing }
  }
  if (IMAGE_EXTENSIONS.has(extname(path.real).toLowerCase()))
    return {
      kind: 'refused',
      why: 'it is an image file, not attached as text (attach images with --image, or ask the model to read it)',
    }
  const window = { offset: 1, limit: config.readLimit, maxBytes: config.mentionMaxBytes }
  const text = await readFileWindow(scope.env, path, scope.agent, window, scope.signal)
  return { kind: 'attached', what: 'file', path: shown, body: text }
}

/** The first candidate that exists, resolved against the workspace root (symlinks followed). */
export async function firstExisting(
  root: string,
  candidates: readonly string[],
): Promise<ResolvedPath | undefined> {
  for (const candidate of candidates) {
    const resolved = await resolveInWorkspace(root, root, candidate).catch(() => undefined)
    if (resolved?.exists) return resolved
  }
  return undefined
}

/** Whether `real` is in tack's own folder (its `.env` keys, its sessions), by real path. */
async function inTackHome(real: string): Promise<boolean> {
  const home = resolveTackHome()
  const realHome = await realpath(home).catch(() => home)
  return isInside(home, real) || isInside(realHome, real)
}
