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
export { CATALOG_MAX_BYTES_LIMIT, type KnowHowFolder, SkillsConfig } from './config.ts'
export {
  type DiscoverOptions,
  type Discovery,
  discoverKnowHow,
  MAX_DEPTH,
  MAX_ITEMS_PER_FOLDER,
  type Shadowed,
} from './discover.ts'
export { SkillsService, type SkillsServiceOptions } from './service.ts'
export { SkillsPlugin } from './plugin.ts'
