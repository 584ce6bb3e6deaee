// `write {file_path, content}` (TL-14): creates a file (and its missing folders), or overwrites one
// the agent has read and that has not changed since (TL-13). Writes are atomic. An overwrite returns
// `meta {path, hunks}` with the whole-file diff (TL-15); a create, a failure or an abort has no meta.
// Its dry run (`plan`) decides and diffs as the body does, without writing (docs/decisions/0300).
import type { Stats } from 'node:fs'
import { mkdir, open, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type DiffHunk, defineTool, type ToolCallContext } from '@tack/tools'
import { writeHost } from './write-host.ts'
import { writeFileAtomic } from '../atomic-write.ts'
import { type ChangeSummary, describeSummary, wholeFileDiff } from '../diff.ts'
import type { FsToolsConfig } from '../config.ts'
import { streamedWriteSummary } from '../stream-summary.ts'
import { type FileBackend, fileBackendOf, textFingerprint } from '../backend.ts'
import { changeIntents, dryRun } from '../dry-run.ts'
import type { FsEnv } from '../env.ts'
import { statFile } from '../files.ts'
import { fingerprintOf } from '../observations.ts'
import { type DiffMeta, lineCount, plural, type SummaryMeta } from '../present.ts'
import { displayPath, type ResolvedPath, resolveScoped } from '../workspace.ts'
import { writePresentation } from './write-present.ts'

export function createWriteTool(env: FsEnv) {
  return defineTool({
    name: 'write',
    access: 'write',
    paths: (args) => [args.file_path],
    host: writeHost,
    description:
      'Write a file of the workspace, replacing it entirely. Creates missing folders. To overwrite an existing file, read it first; prefer `edit` for changes to part of a file.',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          minLength: 1,
          description: 'The file to write, relative to the working directory or absolute.',
        },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['file_path', 'content'],
    },
    async execute(args, call) {
      const plan = await planWrite(env, call, args)
      const { path, shown } = plan
      const lines = plural(lineCount(args.content), 'line')
      call.signal.throwIfAborted()
      switch (plan.kind) {
        case 'create':
          if (plan.backend) await plan.backend.writeText(path, args.content, call.signal)
          else {
            await mkdir(dirname(path.real), { recursive: true })
            await writeFileAtomic(path.real, args.content)
          }
          await recordWritten(env, call, plan, args.content)
          return `Created ${shown} (${lines}).`
        case 'streamed': {
          // The old file is too big to hold, and to diff: it is only streamed (docs/decisions/0165).
          const summary = await summariseStreamed(env, call, path, plan.before, args)
          return summarised(env, call.signal, shown, `Wrote ${shown} (${lines}).`, summary)
        }
        case 'overwrite': {
          if (plan.backend) await plan.backend.writeText(path, args.content, call.signal)
          else await writeFileAtomic(path.real, args.content, (plan.before?.mode ?? 0o644) & 0o7777)
          await recordWritten(env, call, plan, args.content)
          const text = `Wrote ${shown} (${lines}).`
          // An aborted call carries no meta, even when the write itself went through.
          if (call.signal.aborted) return text
          const change = await overwriteChange(env, plan.old, args.content, call.signal)
          if (!change || call.signal.aborted) return text
          if (!Array.isArray(change))
            return summarised(env, call.signal, shown, text, change as ChangeSummary)
          const meta: DiffMeta = { path: shown, hunks: change as DiffHunk[] }
          return { content: text, meta }
        }
        default:
          return plan satisfies never
      }
    },
    // The body's plan and the diff its result will carry, without the write (docs/decisions/0300).
    plan: (args, call) =>
      dryRun(async () => {
        const plan = await planWrite(env, call, args)
        switch (plan.kind) {
          case 'create':
            return [{ kind: 'created', path: plan.shown, content: args.content }]
          case 'streamed': {
            const note = `No preview: ${plan.shown} is ${plan.before.size} bytes, too large to diff (diffMaxChars ${env.config.diffMaxChars}); it is overwritten whole.`
            return [{ kind: 'text', text: note }]
          }
          case 'overwrite': {
            const change = await overwriteChange(env, plan.old, args.content, call.signal)
            return change ? changeIntents(plan.shown, change, diffBudget(env)) : []
          }
          default:
            return plan satisfies never
        }
      }),
    present: writePresentation,
  })
}

/** What a write will do, decided before it writes: the body and the dry run share it. */
type WritePlan = { readonly path: ResolvedPath; readonly shown: string; readonly backend?: FileBackend } & (
  | { readonly kind: 'create' }
  /** `before`: the file's stat on the local disk (absent through a backend). */
  | { readonly kind: 'overwrite'; readonly old: string; readonly before?: Stats }
  | { readonly kind: 'streamed'; readonly before: Stats }
)

/** Resolves the file, and for an existing one checks read-before-edit (TL-13) and reads its text. */
async function planWrite(
  env: FsEnv,
  call: ToolCallContext,
  args: { readonly file_path: string; readonly content: string },
): Promise<WritePlan> {
  const path = await resolveScoped(call, args.file_path)
  const shown = displayPath(path.root, path.real)
  const backend = fileBackendOf(call.agent)
  const at = { path, shown, ...(backend && { backend }) }
  if (!path.exists) return { ...at, kind: 'create' }
  const before = await statFile(path)
  if (backend) {
    const old = await backend.readText(path, call.signal)
    env.observations.requireFresh(call.agent, path.real, args.file_path, textFingerprint(old))
    return { ...at, kind: 'overwrite', old }
  }
  if (writeStreams(before.size, args.content.length, env.config)) {
    // Freshness of a streamed file is checked while it is streamed (summariseStreamed); size and mtime now.
    if (env.observations.get(call.agent, path.real)?.hash === undefined)
      env.observations.requireFresh(call.agent, path.real, args.file_path, fingerprintOf(before))
    return { ...at, kind: 'streamed', before }
  }
  const old = await readFile(path.real)
  env.observations.requireFresh(call.agent, path.real, args.file_path, fingerprintOf(before, old))
  return { ...at, kind: 'overwrite', old: old.toString('utf8'), before }
}

/** What the agent now knows of the file it wrote (TL-13). */
async function recordWritten(env: FsEnv, call: ToolCallContext, plan: WritePlan, content: string) {
  if (plan.backend) env.observations.record(call.agent, plan.path.real, textFingerprint(content))
  else {
    const written = await stat(plan.path.real)
    env.observations.record(call.agent, plan.path.real, fingerprintOf(written, Buffer.from(content)))
  }
}

const diffBudget = (env: FsEnv) => ({
  maxChars: env.config.diffMaxChars,
  timeoutMs: env.config.diffTimeoutMs,
})

/** An overwrite's whole-file change: its hunks, or its counts past a cap; undefined when aborted. */
async function overwriteChange(
  env: FsEnv,
  old: string,
  content: string,
  signal: AbortSignal,
): Promise<ChangeSummary | DiffHunk[] | undefined> {
  const diff = await wholeFileDiff(old, content, { ...diffBudget(env), signal })
  if (!diff) return undefined
  return 'summary' in diff ? diff.summary : diff.hunks
}

/** The result of an overwrite reported in counts: `text` and the counts, with them as meta unless aborted. */
function summarised(
  env: FsEnv,
  signal: AbortSignal,
  shown: string,
  text: string,
  summary: ChangeSummary,
): string | { content: string; meta: SummaryMeta } {
  if (signal.aborted) return text
  const budget = { maxChars: env.config.diffMaxChars, timeoutMs: env.config.diffTimeoutMs }
  const meta: SummaryMeta = { path: shown, summary }
  return { content: `${text} ${describeSummary(summary, budget)}`, meta }
}

/**
 * Whether an overwrite of a file of `size` bytes with `chars` characters streams the old file: at
 * least `readStreamMinSize`, and certainly past `diffMaxChars` (the old side has at least `size / 3`
 * characters), so a loaded write would report counts too.
 */
function writeStreams(size: number, chars: number, config: FsToolsConfig): boolean {
  return size >= config.readStreamMinSize && size + 3 * chars > 3 * config.diffMaxChars
}

/**
 * Overwrites a huge file without loading it: read-before-edit (by the hash taken while streaming when
 * the observation has one), the counts of what changes, then the atomic write.
 */
async function summariseStreamed(
  env: FsEnv,
  call: ToolCallContext,
  path: ResolvedPath,
  before: Stats,
  args: { readonly file_path: string; readonly content: string },
): Promise<ChangeSummary> {
  const { observations, config } = env
  const seen = observations.get(call.agent, path.real)
  if (seen?.hash === undefined)
    observations.requireFresh(call.agent, path.real, args.file_path, fingerprintOf(before))
  const content = Buffer.from(args.content, 'utf8')
  const handle = await open(path.real, 'r')
  let streamed: Awaited<ReturnType<typeof streamedWriteSummary>>
  try {
    streamed = await streamedWriteSummary(handle, before.size, content, config.streamChunkBytes, call.signal)
  } finally {
    await handle.close()
  }
  if (seen?.hash !== undefined) {
    observations.requireFresh(call.agent, path.real, args.file_path, {
      ...fingerprintOf(before),
      hash: streamed.inputHash,
    })
  }
  call.signal.throwIfAborted()
  await writeFileAtomic(path.real, content, before.mode & 0o7777)
  observations.record(call.agent, path.real, fingerprintOf(await stat(path.real), content))
  return streamed.summary
}
