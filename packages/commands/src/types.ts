// What a slash command is and what it answers (80-cli.md §7.3, docs/decisions/0103-slash-commands.md).
// A command never draws anything: it returns a small result that each host (the TUI, headless
// `tack run`, ACP) interprets in its own way, so one definition serves all of them.
import type { Agent } from '@tack/agent'

/** The hosts that run slash commands. */
export const COMMAND_SURFACES = Object.freeze(['tui', 'headless', 'acp'] as const)
export type CommandSurface = (typeof COMMAND_SURFACES)[number]

/**
 * A command's answer, interpreted by the host:
 * - `text`: show `text` to the user; nothing reaches the model (headless: stdout, exit 0).
 * - `prompt`: send `text` to the model as the user's prompt, as if typed (after showing `notice`, if any).
 * - `clear`: end this session (reason `clear`) and start a new one in the same folder.
 * - `resume`: switch to session `sessionId`; without one, the host shows its picker. `notice` is shown in
 *   the session switched to (what `/rewind` did before switching to its fork).
 * - `exit`: end the session and leave (the TUI's `/exit`; a host without a screen never offers it).
 * - `error`: the command failed or its arguments were wrong; show `message` (headless: stderr, exit 1).
 * - `unknown`: no command of this name; headless and ACP send the typed text to the model, the TUI says so.
 * - `choose`: a list to pick from (`/model` in the TUI); the host shows a picker and runs `/<command> <value>`
 *   with the value picked. Only the TUI gets one (a command checks `surface`); another host shows `text`.
 */
export type CommandResult =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'prompt'; readonly text: string; readonly notice?: string }
  | { readonly kind: 'clear' }
  | { readonly kind: 'resume'; readonly sessionId?: string; readonly notice?: string }
  | { readonly kind: 'exit' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'unknown'; readonly name: string }
  | ({ readonly kind: 'choose' } & CommandChoices)

/** One entry of a `choose` result. */
export interface CommandChoice {
  /** What the follow-up command gets as its argument. */
  readonly value: string
  /** A few words beside it (where it came from). */
  readonly detail?: string
  /** The one in force now (marked, and selected when the picker opens). */
  readonly current?: boolean
}

/** More entries arriving after the picker opened (a provider's model list), or a line saying why not. */
export interface ChoiceBatch {
  readonly choices: readonly CommandChoice[]
  /** Shown under the list (a failure, or how many arrived); never a secret. */
  readonly note?: string
}

export interface CommandChoices {
  readonly title: string
  /** The command run with the picked value (without the slash). */
  readonly command: string
  readonly choices: readonly CommandChoice[]
  /**
   * Called when the picker opens (not before: a provider's list is asked for only then); each promise
   * settles once and the picker adds what it brings (a value already listed is not repeated).
   */
  readonly more?: readonly (() => Promise<ChoiceBatch>)[]
  /** What a host without a picker shows instead. */
  readonly text: string
}

export type CommandResultKind = CommandResult['kind']

/** One running of a command. */
export interface CommandInvocation {
  /** The agent whose session the command acts on. */
  readonly agent: Agent
  /** What followed the name, trimmed (`/model deepseek/deepseek-chat` → `deepseek/deepseek-chat`). */
  readonly args: string
  /** The host running it. */
  readonly surface: CommandSurface
  /** The host's width in columns, for laying text out (the TUI wraps longer lines at column 0); 80 when unknown. */
  readonly columns: number
  /** Aborted when the user interrupts (Esc, Ctrl-C, ACP cancel). */
  readonly signal: AbortSignal
}

export interface CommandDefinition {
  /** Without the slash: letters, digits, `-`, `_`, `:` and `.`, starting with a letter or digit. */
  readonly name: string
  /** One line for `/help`, menus and ACP's `available_commands_update`. */
  readonly description: string
  /** What the arguments are, for menus (`provider/model`); absent when the command takes none. */
  readonly args?: string
  /**
   * The hosts that can act on this command's results; absent: every host. `/clear` and `/resume` answer
   * with a session switch only the TUI can make.
   */
  readonly surfaces?: readonly CommandSurface[]
  /**
   * Present: this command gives way to any other command of its name, registered before it or after it
   * (a prompt command file against a built-in or an MCP prompt, 85-skills-and-commands.md C3). Called
   * once, with the name, when it does; the other command is registered and this one is not (or no longer).
   */
  readonly yields?: (name: string) => void
  run(invocation: CommandInvocation): CommandResult | Promise<CommandResult>
}

/** A registered command as `list()` shows it. */
export interface CommandInfo {
  readonly name: string
  readonly description: string
  readonly args?: string
  readonly surfaces: readonly CommandSurface[]
}

/** The `ui/command` seam's request: the command by name, its arguments (never logged), where it runs. */
export interface CommandRequest {
  readonly name: string
  readonly args: string
  readonly surface: CommandSurface
  /** The host's width in columns, for commands and mods that lay text out; 80 when unknown. */
  readonly columns: number
  readonly signal: AbortSignal
}
