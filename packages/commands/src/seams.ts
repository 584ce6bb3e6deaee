// The seams of slash commands and of the prompt box (80-cli.md §7.3). Hosts fire them; plugins and the
// mod host (`command.run`, `prompt.edit`, `prompt.suggest` of 65-mod-host.md requirement 10) listen.
// A request's arguments are never logged by the seam: a command's arguments may hold anything.
import type { Agent, HookContext } from '@tack/agent'
import type { Waterfall } from '@tack/kernel'
import type { CommandRequest, CommandResult } from './types.ts'

/** The prompt box after one edit. `start`..`end` is the replaced range, `inputText` what replaced it. */
export interface PromptEdit {
  /** The key that made the edit (`backspace`, `enter`, `a`), when a key did; absent for a paste. */
  readonly key?: string
  readonly text: string
  readonly cursor: number
  readonly start: number
  readonly end: number
  readonly inputText: string
}

/** What the prompt box shows. */
export interface PromptBox {
  readonly text: string
  readonly cursor: number
}

/** A suggestion (ghost text) the UI is about to show in the empty box. */
export interface PromptSuggestion {
  readonly text: string
}

/** Whether the UI shows a suggestion: the result of `ui/prompt-suggest`. */
export interface SuggestionShown {
  readonly isShown: boolean
}

/** Something the interactive UI wants a person to notice while they may be looking elsewhere. */
export interface UiNotification {
  /**
   * `permission-prompt`: a permission question has waited unanswered (`plugins.tui.permissionNotifyMs`);
   * `idle-prompt`: the prompt box has sat empty with no turn running (`plugins.tui.idleNotifyMs`).
   */
  readonly kind: 'permission-prompt' | 'idle-prompt'
  /** One line for the person. */
  readonly message: string
}

/**
 * A slash command about to become a prompt (85-skills-and-commands.md C2): a prompt command file or a
 * skill run as `/name`. What Claude Code's UserPromptExpansion hooks see (packages/hooks-claude/README.md).
 */
export interface PromptExpansion {
  /** `slash-command`: a command file or a skill (an MCP prompt would be `mcp-prompt`). */
  readonly type: 'slash-command' | 'mcp-prompt'
  readonly name: string
  /** The arguments as typed after the name. */
  readonly args: string
  /** Whose it is: `user` (the person's folders) or `project` (the workspace's). */
  readonly source: string
  /** The prompt the model will get. */
  readonly prompt: string
}

/** What `ui/prompt-expansion` decides: send it (with context for the model first), or not at all. */
export type PromptExpansionDecision =
  | { readonly action: 'allow'; readonly additionalContext?: readonly HookContext[] }
  | { readonly action: 'block'; readonly reason: string }

declare module 'cordis' {
  interface Events {
    /**
     * @mode waterfall — a slash command by name (`ctx.commands.run`). Result: the first listener that
     * answers without `next()` skips the command (a mod's `command.run` answer); default the registered
     * command's result, or `{kind: 'unknown'}` when none has this name. Arguments stay out of logs.
     */
    'ui/command': Waterfall<[agent: Agent, request: CommandRequest], CommandResult>
    /**
     * @mode waterfall — a slash command expanded into a prompt, before the host sends it. Result: the
     * first listener that answers without `next()` decides; `block` sends nothing and the command answers
     * an error with the reason, `allow`'s context reaches the model ahead of the prompt. Default `allow`.
     */
    'ui/prompt-expansion': Waterfall<[agent: Agent, expansion: PromptExpansion], PromptExpansionDecision>
    /**
     * @mode waterfall — the prompt box after each edit in the interactive UI. Result: the box to show
     * (a listener may rewrite the text and move the cursor); default the edit as typed.
     */
    'ui/prompt-edit': Waterfall<[agent: Agent, edit: PromptEdit], PromptBox>
    /**
     * @mode waterfall — before the interactive UI shows a suggestion, which it offers only while the box
     * is empty and no turn runs. Result: whether it shows; default shown unless the text is blank.
     */
    'ui/prompt-suggest': Waterfall<[agent: Agent, suggestion: PromptSuggestion], SuggestionShown>
    /**
     * @mode emit — the interactive UI wants the person's attention (desktop notifications, sounds): a
     * permission question waiting, or the prompt box idle. Fired once per question and once per idle spell.
     */
    'ui/notification'(agent: Agent, note: UiNotification): void
    /** @mode emit — a slash command was registered or removed: hosts refresh their menus (ACP re-sends its list). */
    'commands/changed'(): void
  }
}
