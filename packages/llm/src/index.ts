export * from './retry.ts'
export * from './config.ts'
export { LlmPlugin, LlmProviders } from './plugin.ts'
