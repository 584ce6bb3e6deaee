// What a piece of packaged know-how is once read (85-skills-and-commands.md K1, C1): an Agent Skill (a
// folder with SKILL.md) or a prompt command (one markdown file). Both are words until the workspace is
// trusted; the fields say what the front matter asked for, and the plugin decides what it may do.

/** A skill folder or a command file. */
export type KnowHowKind = 'skill' | 'command'

/**
 * Whose folder it came from. The user's own folders win over the workspace's on equal names (K2: a
 * repository cannot shadow your skills), and only they may run `` !`cmd` `` in an untrusted workspace.
 */
export type KnowHowScope = 'user' | 'project'

export interface KnowHowItem {
  readonly kind: KnowHowKind
  /** The name the model and `/` use: `pdf-tools`, or `frontend:component` for a command in a subfolder. */
  readonly name: string
  /** One paragraph: what it does and when to use it (a command without one: its body's first line). */
  readonly description: string
  readonly scope: KnowHowScope
  /** The SKILL.md or the command's .md file, absolute. */
  readonly file: string
  /** The skill's folder (its scripts and references are beside SKILL.md); a command's containing folder. */
  readonly dir: string
  /** The folder it was found under, as the person knows it (`~/.claude/skills`, `.tack/commands`). */
  readonly source: string
  /** `argument-hint`, shown in the `/` menu and ACP's available commands. */
  readonly argumentHint?: string
  /** `allowed-tools`: tool patterns pre-approved while it runs (trusted sources only, K4/K5). */
  readonly allowedTools: readonly string[]
  /** `model`: the model for the turn a command starts (C2). */
  readonly model?: string
  /** `disable-model-invocation: true`: not in the catalog, not loadable by the skill tool; `/name` still works. */
  readonly disableModelInvocation: boolean
  /** `user-invocable: false`: not offered as `/name`. */
  readonly userInvocable: boolean
  /** Every front-matter key as written, unknown ones included (K1: kept, not errors). */
  readonly frontMatter: Readonly<Record<string, unknown>>
  /** The markdown after the front matter. */
  readonly body: string
}

/** Something wrong with one file, said to the person with the file and, where there is one, the key. */
export interface KnowHowWarning {
  readonly file: string
  readonly key?: string
  readonly message: string
}

/** `file: key: message`, the one way a warning is printed. */
export function warningLine(w: KnowHowWarning): string {
  return `${w.file}: ${w.key ? `${w.key}: ` : ''}${w.message}`
}
