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
export { CATALOG_PREAMBLE, type Catalog, catalogOf, modelInvocable } from './catalog.ts'
export { CATALOG_ORDER, CATALOG_SECTION, CatalogSection, describeChange } from './catalog-section.ts'
export { currentTurn, grantsOfTurn, grantToolsForTurn, mountGrants } from './grants.ts'
export { parseToolPattern, patternMatches, type ToolPattern } from './tool-patterns.ts'
export { mentionedSkills, SKILLS_SOURCE, skillMentionProvider } from './mentions.ts'
export { headLine, mayAct, renderItem } from './render.ts'
export { bashRunner } from './inline-runner.ts'
export { createSkillTool, loadedBefore, SKILL_TOOL, type SkillResultMeta } from './skill-tool.ts'
export { itemLine, listingJson, listingText } from './listing.ts'
export { skillsCommand } from './skills-command.ts'
