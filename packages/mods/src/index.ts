// @tack/mods: the Claude Code mod host (65-mod-host.md).
import './log-events.ts'

export { capabilities, type Capabilities, SUPPORTED_EVENTS, SUPPORTED_NOUNS } from './capabilities.ts'
export { ModsConfig, type ModSpec } from './config.ts'
export { ModLoadError } from './errors.ts'
export { type ListedMod, type ModLoadFailure, ModHost } from './host.ts'
export { checkModFolder, type ModCheck } from './check.ts'
export { MODS_LOG_EVENTS } from './log-events.ts'
export { ModsPlugin } from './plugin.ts'
