// `write {file_path, content}` (TL-14): creates a file (and its missing folders), or overwrites one
// the agent has read and that has not changed since (TL-13). Writes are atomic. An overwrite returns
// `meta {path, hunks}` with the whole-file diff (TL-15); a create, a failure or an abort has no meta.
import type { Stats } from 'node:fs'
import { mkdir, open, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { defineTool, type ToolCallContext } from '@tack/tools'
import { writeHost } from './write-host.ts'
import { writeFileAtomic } from '../atomic-write.ts'
import { type ChangeSummary, describeSummary, wholeFileDiff } from '../diff.ts'
import type { FsToolsConfig } from '../config.ts'
import { streamedWriteSummary } from '../stream-summary.ts'
import { fileBackendOf, textFingerprint } from '../backend.ts'
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
      const path = await resolveScoped(call, args.file_path)
      const shown = displayPath(path.root, path.real)
      const lines = plural(lineCount(args.content), 'line')
      call.signal.throwIfAborted()
      const backend = fileBackendOf(call.agent)
      if (backend) {
        let old: string | undefined
        if (path.exists) {
          await statFile(path)
          old = await backend.readText(path, call.signal)
          env.observations.requireFresh(call.agent, path.real, args.file_path, textFingerprint(old))
          call.signal.throwIfAborted()
        }
        await backend.writeText(path, args.content, call.signal)
        env.observations.record(call.agent, path.real, textFingerprint(args.content))
        if (old === undefined) return `Created ${shown} (${lines}).`
        return withDiff(env, call.signal, shown, `Wrote ${shown} (${lines}).`, old, args.content)
      }
      if (!path.exists) {
        await mkdir(dirname(path.real), { recursive: true })
        await writeFileAtomic(path.real, args.content)
        const written = await stat(path.real)
        env.observations.record(call.agent, path.real, fingerprintOf(written, Buffer.from(args.content)))
        return `Created ${shown} (${lines}).`
      }
      const before = await statFile(path)
      if (writeStreams(before.size, args.content.length, env.config)) {
        // The old file is too big to hold, and to diff: it is only streamed (docs/decisions/0165).
        const summary = await summariseStreamed(env, call, path, before, args)
        return summarised(env, call.signal, shown, `Wrote ${shown} (${lines}).`, summary)
      }
      const old = await readFile(path.real)
      env.observations.requireFresh(call.agent, path.real, args.file_path, fingerprintOf(before, old))
      call.signal.throwIfAborted()
      await writeFileAtomic(path.real, args.content, before.mode & 0o7777)
      const written = await stat(path.real)
      env.observations.record(call.agent, path.real, fingerprintOf(written, Buffer.from(args.content)))
      return withDiff(
        env,
        call.signal,
        shown,
        `Wrote ${shown} (${lines}).`,
        old.toString('utf8'),
        args.content,
      )
    },
    present: writePresentation,
  })
}

/** The result of an overwrite: `text`, plus the whole-file diff as meta unless the call was aborted. */
async function withDiff(
  env: FsEnv,
  signal: AbortSignal,
  shown: string,
  text: string,
  old: string,
  content: string,
): Promise<string | { content: string; meta: DiffMeta | SummaryMeta }> {
  // An aborted call carries no meta, even when the write itself went through.
  if (signal.aborted) return text
  const budget = { maxChars: env.config.diffMaxChars, timeoutMs: env.config.diffTimeoutMs }
  const diff = await wholeFileDiff(old, content, { ...budget, signal })
  if (!diff || signal.aborted) return text
  if ('summary' in diff) return summarised(env, signal, shown, text, diff.summary)
  const meta: DiffMeta = { path: shown, hunks: diff.hunks }
  return { content: text, meta }
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
