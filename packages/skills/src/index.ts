export * from './types.ts'
export { type FrontMatter, parseFrontMatter, splitToolPatterns } from './front-matter.ts'
export {
  argumentWords,
  hasArgumentPlaceholder,
  substituteArguments,
  substituteSkillDir,
} from './arguments.ts'
export {
  expandInlineCommands,
  type InlineCommandOutcome,
  type InlineCommandPolicy,
  type InlineCommandRunner,
  inlineCommandsOf,
} from './inline-commands.ts'
export {
  DESCRIPTION_MAX_CHARS,
  type ItemOrigin,
  type ReadResult,
  readCommand,
  readSkill,
  SKILL_NAME,
} from './read-item.ts'
