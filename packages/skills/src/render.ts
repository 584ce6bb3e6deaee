// What the model reads when a skill or command is loaded (85-skills-and-commands.md K4, C2): a line
// naming where it lives — a skill's folder, whose scripts and references the model reads with its own
// tools — then the body with `${CLAUDE_SKILL_DIR}`/`${TACK_SKILL_DIR}` and the arguments substituted,
// and each `` !`cmd` `` run or kept as the policy says.
import { substituteArguments, substituteSkillDir } from './arguments.ts'
import { expandInlineCommands, type InlineCommandPolicy } from './inline-commands.ts'
import type { KnowHowItem } from './types.ts'

/** The first line: what was loaded and where its files are. */
export function headLine(item: KnowHowItem): string {
  return item.kind === 'skill'
    ? `Skill "${item.name}" — its folder is ${item.dir} (read the files beside SKILL.md there when it says to).`
    : `Command "/${item.name}" — from ${item.file}.`
}

export async function renderItem(
  item: KnowHowItem,
  args: string,
  policy: InlineCommandPolicy,
  signal: AbortSignal,
): Promise<string> {
  const body = await fillBody(item, args, policy, signal)
  return `${headLine(item)}\n\n${body.replace(/^\s*\n/, '').replace(/\s+$/, '')}`
}

/**
 * A body as the model reads it, for the `skill` tool and `/name` alike: arguments substituted first
 * (`$ARGUMENTS`, `$N`, `$ARGUMENTS[N]`, 0-based, past the end literal; `ARGUMENTS: …` appended when the
 * body names none), so `` !`git diff $0` `` runs with the person's word in it, as Claude Code does; then
 * `${CLAUDE_SKILL_DIR}`/`${TACK_SKILL_DIR}`; then each `` !`cmd` `` run by the policy or kept with a note.
 */
export async function fillBody(
  item: KnowHowItem,
  args: string,
  policy: InlineCommandPolicy,
  signal: AbortSignal,
): Promise<string> {
  const body = substituteSkillDir(substituteArguments(item.body.replace(/^\s*\n/, ''), args.trim()), item.dir)
  return expandInlineCommands(body, policy, signal)
}

/** Whether the item may run `` !`cmd` `` and grant `allowed-tools` (K4, K5): the user's own, or a trusted workspace's. */
export function mayAct(item: KnowHowItem, trusted: boolean): boolean {
  return item.scope === 'user' || trusted
}

export const UNTRUSTED_WHY =
  'it comes from this workspace, which is not trusted (run `tack trust` to let its skills run commands)'
