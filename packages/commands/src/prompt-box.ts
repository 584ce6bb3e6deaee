// Firing the prompt box's seams (80-cli.md §7.3) with tack's own behaviour beneath the listeners: the
// interactive UI calls these and never talks to the mod host itself.
import type { Agent } from '@tack/agent'
import { dispatch } from '@tack/kernel'
import type { Context } from 'cordis'
import type { PromptBox, PromptEdit, PromptSuggestion, SuggestionShown } from './seams.ts'

/** The box to show after `edit`: the edit as typed unless a listener rewrites it. */
export async function firePromptEdit(ctx: Context, agent: Agent, edit: PromptEdit): Promise<PromptBox> {
  const { value } = await dispatch(ctx, 'ui/prompt-edit', [agent, edit], ([, e]) => ({
    text: e.text,
    cursor: e.cursor,
  }))
  return value
}

/** Whether to show `suggestion` (the UI asks only while the box is empty and idle); a blank one never shows. */
export async function firePromptSuggest(
  ctx: Context,
  agent: Agent,
  suggestion: PromptSuggestion,
): Promise<SuggestionShown> {
  const { value } = await dispatch(ctx, 'ui/prompt-suggest', [agent, suggestion], ([, s]) => ({
    isShown: s.text.trim() !== '',
  }))
  if (suggestion.text.trim() === '') return { isShown: false }
  return value
}
