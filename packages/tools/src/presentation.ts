// How a tool looks (docs/decisions/0200-tools-own-their-presentation.md): one declaration beside its
// access and paths — its kind, its key argument, the places a call touches, what a call shows before it
// runs and what its result shows — from which every front end (the TUI's cards, ACP's tool calls, `tack
// run`'s progress line) draws. Front ends render these intents and know no tool by name.
import type { ToolResultView } from './types.ts'

/**
 * What kind of thing a call does, for a front end's icon or grouping (the vocabulary of ACP's tool
 * kinds, 50-acp.md requirement 8). Front ends take it from here, never from a list of tool names.
 */
export const TOOL_KINDS = Object.freeze([
  'read',
  'edit',
  'execute',
  'search',
  'fetch',
  'think',
  'other',
] as const)
export type ToolKind = (typeof TOOL_KINDS)[number]

/** A place a call touches, as the model gave it (relative to the call's cwd, or absolute). */
export interface ToolLocation {
  readonly path: string
  /** 1-based line, when the call is about one place in the file. */
  readonly line?: number
}

/** One hunk of an applied change, as the npm `diff` package's `structuredPatch` gives it (TL-15). */
export type DiffHunk = {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: readonly string[]
}

/** One entry of a todo list (TL-34). */
export type TodoItem = {
  readonly content: string
  readonly status: 'pending' | 'in_progress' | 'completed'
  readonly priority?: 'high' | 'medium' | 'low'
}

/** What a call shows before it has run. */
export type CallIntent =
  /** The change the model asks for: `oldText` null for a file the call creates. */
  | {
      readonly kind: 'diff'
      readonly path: string
      readonly oldText: string | null
      readonly newText: string
    }
  /** A command line the call runs. */
  | { readonly kind: 'command'; readonly command: string }
  /** Text worth showing whole (a program, a prompt). */
  | { readonly kind: 'text'; readonly text: string }

/** What a finished call shows. */
export type ResultIntent =
  /** The change the call applied, hunk by hunk. */
  | { readonly kind: 'diff'; readonly path: string; readonly hunks: readonly DiffHunk[] }
  /** A file the call created, with its whole content. */
  | { readonly kind: 'created'; readonly path: string; readonly content: string }
  /** A command's output (what the model read) and its exit code (null: killed or never started). */
  | { readonly kind: 'terminal'; readonly output: string; readonly exitCode?: number | null }
  /** A todo list the call set. */
  | { readonly kind: 'todos'; readonly todos: readonly TodoItem[] }
  /** Plain text. */
  | { readonly kind: 'text'; readonly text: string }
  /**
   * An image the result carries (its base64 `data` as logged): a front end that can show images shows
   * it, one that cannot names it (`[image image/png 12 KB]`).
   */
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: string; readonly bytes: number }

/**
 * A tool's declared presentation. Every part is optional; a missing one takes its default
 * (`presentationDefaults` in present.ts). The functions are pure and synchronous and get the validated,
 * default-filled arguments; one that throws costs the call its declared presentation, never the session.
 * `K` narrows `key` to the tool's own argument names where `defineTool` knows them.
 */
export interface ToolPresentation<A = unknown, K extends string = string> {
  /** Default: from the tool's access (read → read, execute → execute, network → fetch, session → think, else other). */
  readonly kind?: ToolKind
  /**
   * The argument a one-line view shows (a card's header, the progress line, a permission question): the
   * first of these names whose value is a non-empty string, or the function's answer. Default: the
   * first non-empty string argument.
   */
  readonly key?: readonly K[] | KeyOf<A>
  /** A short title for the call (`Read src/a.ts`). Default: the tool's name. */
  title?(args: A): string
  /** The places a call touches. Default: the tool's declared `paths`, without lines. */
  locations?(args: A): readonly ToolLocation[]
  /** What the call shows before it runs. Default: nothing. */
  call?(args: A): readonly CallIntent[]
  /** What the result shows. Default: its text, when it has any, and its images, in order. */
  result?(args: A, result: ToolResultView): readonly ResultIntent[]
}

/**
 * The key as a function. Written as a method's type so that, like the other presenters (methods), it is
 * checked bivariantly: a `ToolDefinition<Args>` still is a `ToolDefinition` for the registry.
 */
type KeyOf<A> = { key(args: A): string }['key']

/** A logged call as a front end draws it: every part resolved. */
export interface CallPresentation {
  readonly kind: ToolKind
  readonly title: string
  /** The key argument's whole text ('' when there is none); front ends cut it to one line themselves. */
  readonly keyArgument: string
  readonly locations: readonly ToolLocation[]
  readonly intents: readonly CallIntent[]
}

/** A logged result as a front end draws it. */
export interface ResultPresentation {
  readonly intents: readonly ResultIntent[]
  /** The result's text as the model read it, for a front end that draws an intent as plain text. */
  readonly text: string
  readonly isError: boolean
}
