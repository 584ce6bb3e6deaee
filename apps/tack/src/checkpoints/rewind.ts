// Rewind as a projection of the session log (docs/decisions/0305-checkpoints-and-rewind.md): the turns a
// person can go back to, each with its prompt and what it changed, and the act of going back — the files
// as they were before turn N began (from the first checkpoint at or after N) and/or the conversation
// forked just before turn N's `turn/start`. The session rewound from is left as it is: its own session.
import { realpathSync } from 'node:fs'
import type { SessionEvent } from '@tack/session'
import { type FileChange, GitStore } from './git-store.ts'

export interface RewindPoint {
  readonly turn: number
  /** The fork point: the seq of the turn's `turn/start` (the conversation before the turn began). */
  readonly seq: number
  /** The first line of the turn's prompt (cut), for a picker. */
  readonly prompt: string
  /** The tree recorded before this turn's first change, when it made one. */
  readonly tree?: string
  /** Files too large for the checkpoint (left alone by a rewind). */
  readonly skipped: readonly string[]
}

/**
 * Every turn of the log, oldest first. `redact` is applied to a prompt before it is cut to one line (a
 * cut secret would no longer be found by the output's redaction).
 */
export function rewindPoints(
  events: readonly SessionEvent[],
  redact: (text: string) => string = (text) => text,
): RewindPoint[] {
  const points: RewindPoint[] = []
  let current: { turn: number; seq: number; prompt: string; tree?: string; skipped: string[] } | undefined
  for (const e of events) {
    if (e.type === 'turn/start') {
      if (current) points.push(current)
      current = { turn: (e.data as { turn: number }).turn, seq: e.seq, prompt: '', skipped: [] }
    } else if (e.type === 'user/message' && current && !current.prompt) {
      current.prompt = promptLine(e.data, redact)
    } else if (e.type === 'checkpoint/taken' && current && !current.tree) {
      const data = e.data as { tree: string; skipped?: { path: string }[] }
      current.tree = data.tree
      current.skipped = (data.skipped ?? []).map((s) => s.path)
    }
  }
  if (current) points.push(current)
  return points
}

function promptLine(data: unknown, redact: (text: string) => string): string {
  const content = (data as { content?: unknown }).content
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .filter((b): b is { type: 'text'; text: string } => b?.type === 'text')
            .map((b) => b.text)
            .join(' ')
        : ''
  const line = redact(text).split('\n')[0]?.trim() ?? ''
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

/** The tree the files had before turn `turn` began: its own checkpoint, else the next one after it. */
export function treeBefore(points: readonly RewindPoint[], turn: number): RewindPoint | undefined {
  return points.find((p) => p.turn >= turn && p.tree !== undefined)
}

/** Each turn with the files it changed: from its checkpoint to the next one (or to the files now). */
export async function turnChanges(
  store: GitStore,
  points: readonly RewindPoint[],
  nowTree: string | undefined,
): Promise<Map<number, FileChange[]>> {
  const out = new Map<number, FileChange[]>()
  const withTrees = points.filter((p) => p.tree !== undefined)
  for (const [i, p] of withTrees.entries()) {
    const next = withTrees[i + 1]?.tree ?? nowTree
    if (p.tree && next) out.set(p.turn, await store.changes(p.tree, next).catch(() => []))
  }
  return out
}

/** `+2 ~1 -1 a.txt, b.txt…` for a picker row. */
export function changeSummary(changes: readonly FileChange[] | undefined): string {
  if (!changes || changes.length === 0) return 'no file changes'
  const count = (k: FileChange['kind']) => changes.filter((c) => c.kind === k).length
  const sign = { added: '+', modified: '~', deleted: '-' } as const
  const names = changes
    .slice(0, 3)
    .map((c) => `${sign[c.kind]}${c.path}`)
    .join(' ')
  const tally = [`+${count('added')}`, `~${count('modified')}`, `-${count('deleted')}`].join(' ')
  return `${tally}: ${names}${changes.length > 3 ? ' …' : ''}`
}

export function storeFor(root: string, cwd: string): GitStore {
  return new GitStore({ root, workspace: realpathSync(cwd) })
}

export type RewindMode = 'both' | 'files' | 'conversation'

export interface RewindOutcome {
  /** What the files restore changed (empty when files were not asked for or nothing differed). */
  readonly changes: readonly FileChange[]
  /** The tree of the files just before the rewind (kept, so a rewind can itself be undone). */
  readonly beforeTree?: string
  /** The new session forked before the turn, when the conversation was asked for. */
  readonly forkId?: string
  /** A sentence about files a rewind could not restore (too large when checkpointed). */
  readonly note?: string
  /** The shell command (run in the workspace) that writes back the files as they were before the rewind. */
  readonly undo?: string
}

/** Parses `/rewind` and `tack rewind` arguments: `[TURN] [--files-only | --conversation-only]`. */
export function parseRewindArgs(args: readonly string[]): { turn?: number; mode: RewindMode } | string {
  let turn: number | undefined
  let mode: RewindMode = 'both'
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--files-only') mode = mode === 'conversation' ? 'both' : 'files'
    else if (a === '--conversation-only') mode = mode === 'files' ? 'both' : 'conversation'
    else if (a === '--to') {
      const v = args[++i]
      if (v === undefined || !/^\d+$/.test(v)) return '--to needs a turn number'
      turn = Number(v)
    } else if (/^\d+$/.test(a)) turn = Number(a)
    else return `unknown argument ${a} (usage: [--to] TURN [--files-only | --conversation-only])`
  }
  if (args.includes('--files-only') && args.includes('--conversation-only'))
    return '--files-only and --conversation-only exclude each other'
  return turn === undefined ? { mode } : { turn, mode }
}

/**
 * Restores the files of `point`'s turn (unless conversation only) and forks the conversation before it
 * (unless files only) with `fork`. Files first: if they cannot be restored, no fork is made.
 */
export async function rewindTo(
  opts: {
    readonly root: string
    readonly cwd: string
    readonly points: readonly RewindPoint[]
    readonly turn: number
    readonly mode: RewindMode
    readonly maxFileBytes: number
  },
  fork: (atSeq: number) => Promise<string>,
): Promise<RewindOutcome> {
  const point = opts.points.find((p) => p.turn === opts.turn)
  if (!point) throw new Error(`no turn ${opts.turn} in this session (turns: ${turnRange(opts.points)})`)
  let changes: readonly FileChange[] = []
  let beforeTree: string | undefined
  let undo: string | undefined
  let note: string | undefined
  if (opts.mode !== 'conversation') {
    const source = treeBefore(opts.points, opts.turn)
    if (source?.tree) {
      const store = storeFor(opts.root, opts.cwd)
      const restored = await store.restore(source.tree, opts.maxFileBytes, source.skipped)
      changes = restored.changes
      beforeTree = restored.before.tree
      if (restored.changes.length > 0) undo = store.undoCommand(restored.before.tree)
      if (source.skipped.length > 0)
        note = `left as they are (too large when checkpointed): ${source.skipped.join(', ')}`
    }
  }
  const forkId = opts.mode !== 'files' ? await fork(point.seq) : undefined
  return {
    changes,
    ...(beforeTree ? { beforeTree } : {}),
    ...(forkId ? { forkId } : {}),
    ...(note ? { note } : {}),
    ...(undo ? { undo } : {}),
  }
}

function turnRange(points: readonly RewindPoint[]): string {
  if (points.length === 0) return 'none'
  return `${points[0]?.turn}–${points.at(-1)?.turn}`
}

/** The lines a rewind reports. */
export function outcomeText(turn: number, mode: RewindMode, outcome: RewindOutcome): string {
  const lines: string[] = []
  if (mode !== 'conversation') {
    if (outcome.changes.length === 0) lines.push(`files: already as they were before turn ${turn}`)
    else {
      const sign = { added: 'recreated', modified: 'restored', deleted: 'removed' } as const
      lines.push(`files as they were before turn ${turn}:`)
      for (const c of outcome.changes) lines.push(`  ${sign[c.kind]} ${c.path}`)
    }
    if (outcome.note) lines.push(outcome.note)
    if (outcome.undo)
      lines.push(
        'the files as they were before this rewind are kept; to write them back:',
        `  ${outcome.undo}`,
      )
  }
  if (outcome.forkId) lines.push(`conversation forked before turn ${turn}: session ${outcome.forkId}`)
  return lines.join('\n')
}
