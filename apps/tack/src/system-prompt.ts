// The core system prompt section every tack profile has. It stays byte-stable across steps and
// sessions of the same workspace (no clock, no counters) so providers' prompt caches keep hitting.
import { addSystemPromptSection } from '@tack/agent'
import type { Context } from 'cordis'

export const CORE_PROMPT = `You are tack, a coding agent working in the user's repository through tools.
- Read before you edit: use read, glob and grep to find what you need, then edit or write.
- Run the project's own commands (tests, builds, linters) with bash to check your work.
- Keep changes small and focused on the task; say what you changed and what you verified.
- When you are done, answer with a short summary for the user.`

export function addCoreSystemPrompt(ctx: Context, cwd: string): void {
  addSystemPromptSection(ctx, { name: 'core', order: 0, text: `${CORE_PROMPT}\n\nThe workspace is ${cwd}.` })
}
