import './seams.ts'

export * from './types.ts'
export type {
  PromptBox,
  PromptEdit,
  PromptExpansion,
  PromptExpansionDecision,
  PromptSuggestion,
  SuggestionShown,
  UiNotification,
} from './seams.ts'
export { isCommandName, parseSlashCommand } from './parse.ts'
export { firePromptExpansion, typedCommandOf } from './expanded-prompt.ts'
export {
  CommandRegistrationError,
  CommandRegistry,
  fireCommand,
  registerCommand,
  type RunOptions,
} from './registry.ts'
export { CommandsConfig, CommandsPlugin } from './plugin.ts'
export { firePromptEdit, firePromptSuggest } from './prompt-box.ts'
export {
  MENTION_ITEMS_MAX,
  type MentionItem,
  type MentionProvider,
  type MentionScope,
  mentionSuggestions,
  mentionTriggers,
  registerMentionProvider,
} from './mentions.ts'
