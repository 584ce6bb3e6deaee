// `edit {file_path, old_string, new_string, replace_all?}` (TL-13, TL-14, TL-15): replaces exact
// text in a file the agent has read and that has not changed since. Fails `NO_MATCH`,
// `AMBIGUOUS_MATCH` (with the count, unless `replace_all`) or `NO_CHANGE`. A CRLF file is matched on
// its LF-normalised text and written back with CRLF. Each replaced site is diffed on its own, one
// after the other, so neighbouring sites never merge into one hunk. Its dry run (`plan`) is the body
// up to the write: what an approval shows is what the result will carry (docs/decisions/0300).
import type { Stats } from 'node:fs'
import { type FileHandle, stat } from 'node:fs/promises'
import { type DiffHunk, defineTool, type ToolCallContext, type ToolOutput } from '@tack/tools'
import { editHost } from './edit-host.ts'
import { writeFileAtomic } from '../atomic-write.ts'
import { type ChangeSummary, type DiffBudget, describeSummary } from '../diff.ts'
import { type FileBackend, fileBackendOf, textFingerprint } from '../backend.ts'
import { changeIntents, dryRun } from '../dry-run.ts'
import type { FsEnv } from '../env.ts'
import { notFound, openText } from '../files.ts'
import { fingerprintOf } from '../observations.ts'
import { type DiffMeta, plural, type SummaryMeta } from '../present.ts'
import { replaceSites } from '../replace-sites.ts'
import { requireSites, sameStrings } from '../edit-checks.ts'
import { type EditArgs, editStreams, type StreamedEdit, streamEdit } from '../stream-edit.ts'
import { countOccurrences, toCrlf, toLf, usesCrlf } from '../text.ts'
import { displayPath, type ResolvedPath, resolveScoped } from '../workspace.ts'
import { editPresentation } from './edit-present.ts'

export function createEditTool(env: FsEnv) {
  return defineTool({
    name: 'edit',
    access: 'write',
    paths: (args) => [args.file_path],
    host: editHost,
    description:
      'Replace exact text in a file of the workspace. Read the file first. old_string must match exactly once unless replace_all is true; include enough surrounding lines to make it unique.',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          minLength: 1,
          description: 'The file to change, relative to the working directory or absolute.',
        },
        old_string: { type: 'string', minLength: 1, description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: {
          type: 'boolean',
          default: false,
          description: 'Replace every occurrence instead of exactly one.',
        },
      },
      required: ['file_path', 'old_string', 'new_string'],
    },
    async execute(args, call) {
      const target = await openTarget(env, call, args)
      if (target.streams) {
        // Too big to hold, and to diff: streamed into its replacement (docs/decisions/0165).
        let streamed: StreamedEdit
        try {
          streamed = await streamEdit(env, call, target.path, target.handle, target.before, args)
        } finally {
          await target.handle.close()
        }
        return edited(target.shown, streamed.found, streamed.summary, target.budget, call.signal)
      }
      const plan = await planLoaded(env, call, args, target)
      call.signal.throwIfAborted()
      const { path, backend, before } = target
      if (backend) {
        await backend.writeText(path, plan.output, call.signal)
        env.observations.record(call.agent, path.real, textFingerprint(plan.output))
      } else {
        await writeFileAtomic(path.real, plan.output, before.mode & 0o7777)
        const written = await stat(path.real)
        env.observations.record(call.agent, path.real, fingerprintOf(written, Buffer.from(plan.output)))
      }
      return edited(target.shown, plan.found, plan.change, target.budget, call.signal)
    },
    // The same checks and the same replacement as the body, without the write (docs/decisions/0300).
    plan: (args, call) =>
      dryRun(async () => {
        const target = await openTarget(env, call, args)
        if (target.streams) {
          // The same streamed pass, counting and checking only: the preview is the counts the result will give.
          try {
            const streamed = await streamEdit(
              env,
              call,
              target.path,
              target.handle,
              target.before,
              args,
              true,
            )
            return changeIntents(target.shown, streamed.summary, target.budget)
          } finally {
            await target.handle.close()
          }
        }
        const plan = await planLoaded(env, call, args, target)
        return changeIntents(target.shown, plan.change, target.budget)
      }),
    present: editPresentation,
  })
}

/** The file an edit names, open, with what deciding how to edit it needs. */
interface Target {
  readonly path: ResolvedPath
  readonly shown: string
  readonly backend: FileBackend | undefined
  readonly handle: FileHandle
  readonly before: Stats
  readonly budget: Omit<DiffBudget, 'signal'>
  /** Too big to hold: the edit streams (stream-edit.ts). */
  readonly streams: boolean
}

async function openTarget(env: FsEnv, call: ToolCallContext, args: EditArgs): Promise<Target> {
  const path = await resolveScoped(call, args.file_path)
  if (!path.exists) throw notFound(path)
  const backend = fileBackendOf(call.agent)
  const { handle, stat: before } = await openText(path)
  const budget = { maxChars: env.config.diffMaxChars, timeoutMs: env.config.diffTimeoutMs }
  const shown = displayPath(path.root, path.real)
  const streams = !backend && editStreams(before.size, env.config)
  return { path, shown, backend, handle, before, budget, streams }
}

/** A loaded edit, planned: the file's new text and the change, one hunk per site (or its counts). */
interface LoadedPlan {
  readonly output: string
  readonly found: number
  readonly change: ChangeSummary | readonly DiffHunk[]
}

/**
 * Everything a loaded edit does short of writing — read-before-edit (TL-13), `NO_CHANGE`, `NO_MATCH`,
 * `AMBIGUOUS_MATCH`, the replacement and its hunks — for the body and the dry run alike. Closes the handle.
 */
async function planLoaded(
  env: FsEnv,
  call: ToolCallContext,
  args: EditArgs,
  target: Target,
): Promise<LoadedPlan> {
  const { path, backend, handle, before, budget } = target
  let original: string
  try {
    if (backend) {
      original = await backend.readText(path, call.signal)
      env.observations.requireFresh(call.agent, path.real, args.file_path, textFingerprint(original))
    } else {
      const bytes = await handle.readFile()
      env.observations.requireFresh(call.agent, path.real, args.file_path, fingerprintOf(before, bytes))
      original = bytes.toString('utf8')
    }
  } finally {
    await handle.close()
  }
  const crlf = usesCrlf(original)
  const text = crlf ? toLf(original) : original
  const oldText = crlf ? toLf(args.old_string) : args.old_string
  const newText = crlf ? toLf(args.new_string) : args.new_string
  const unchanged = sameStrings(oldText, newText)
  if (unchanged) throw unchanged
  const found = countOccurrences(text, oldText)
  requireSites(found, args.replace_all === true, args.file_path)
  const replaced = await replaceSites(text, oldText, newText, found, { ...budget, signal: call.signal })
  const output = crlf ? toCrlf(replaced.text) : replaced.text
  return { output, found, change: replaced.summary ?? replaced.hunks ?? [] }
}

/** The result of an edit that went through: its text, and its hunks or counts as meta unless aborted. */
function edited(
  shown: string,
  found: number,
  change: ChangeSummary | readonly DiffHunk[],
  budget: Omit<DiffBudget, 'signal'>,
  signal: AbortSignal,
): ToolOutput {
  const content = `Edited ${shown}: replaced ${plural(found, 'occurrence')}.`
  if (signal.aborted) return content
  if (!Array.isArray(change)) {
    const summary = change as ChangeSummary
    const meta: SummaryMeta = { path: shown, summary }
    return { content: `${content} ${describeSummary(summary, budget)}`, meta }
  }
  const meta: DiffMeta = { path: shown, hunks: change }
  return { content, meta }
}
