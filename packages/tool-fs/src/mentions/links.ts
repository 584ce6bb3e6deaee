// An editor's file links and embedded files (ACP, 85-skills-and-commands.md I1,
// docs/decisions/0280-file-mentions.md): a `resource_link` to a `file:` URI is attached as an `@path`
// mention is — the same guards, the same `read` shape — and an embedded `resource` whose `file:` URI is
// inside the session's folder has its text shaped as `read` would show it (numbered, bounded). The fs
// plugin shares its Config and observations here per kernel, so @tack/acp asks without knowing them.
import { fileURLToPath } from 'node:url'
import { isInside, type ToolAgent, withheldTestFor } from '@tack/tools'
import type { Context } from 'cordis'
import type { FsEnv } from '../env.ts'
import { formatWindow } from '../tools/read.ts'
import { linesOf } from '../text.ts'
import { attachMention } from './attach.ts'

const envs = new WeakMap<object, FsEnv>()

/** Makes `env` the one `readFileLink` and `shapeFileText` use while `ctx`'s plugin is loaded. */
export function shareMentionEnv(ctx: Context, env: FsEnv): void {
  ctx.effect(() => {
    envs.set(ctx.root, env)
    return () => {
      if (envs.get(ctx.root) === env) envs.delete(ctx.root)
    }
  }, 'fs mention links')
}

export type FileLink =
  /** Not a file URI, no such file, or no fs plugin: the link stays a reference. */
  | { readonly kind: 'none' }
  | { readonly kind: 'text'; readonly text: string }
  /** It exists but is not attached; `why` is for the person. */
  | { readonly kind: 'refused'; readonly why: string }

/** The text of the file (or folder) a `file:` link names, as an `@path` mention would attach it. */
export async function readFileLink(
  ctx: Context,
  agent: ToolAgent,
  uri: string,
  signal: AbortSignal,
): Promise<FileLink> {
  const env = envs.get(ctx.root)
  const path = pathOf(uri)
  if (!env || path === undefined) return { kind: 'none' }
  const withheld = await withheldTestFor(ctx, 'read', { cwd: agent.cwd, agent })
  const outcome = await attachMention(
    { env, root: agent.cwd, agent, withheld, signal },
    { candidates: [path] },
  )
  if (outcome.kind === 'attached') return { kind: 'text', text: outcome.body }
  return outcome.kind === 'refused' ? outcome : { kind: 'none' }
}

/**
 * The text an editor embedded for a `file:` URI inside `cwd`, as `read` would show it; undefined for
 * any other URI (kept as given).
 */
export async function shapeFileText(
  ctx: Context,
  cwd: string,
  uri: string,
  text: string,
): Promise<string | undefined> {
  const env = envs.get(ctx.root)
  const path = pathOf(uri)
  if (!env || path === undefined || !isInside(cwd, path)) return undefined
  const { config } = env
  const window = { offset: 1, limit: config.readLimit, maxBytes: config.mentionMaxBytes }
  return formatWindow(linesOf(text, config.readMaxLineLength), window)
}

function pathOf(uri: string): string | undefined {
  if (!/^file:/i.test(uri)) return undefined
  try {
    return fileURLToPath(uri)
  } catch {
    return undefined
  }
}
