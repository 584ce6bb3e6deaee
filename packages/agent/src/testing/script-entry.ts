// `@tack/agent/script`: the script entries and their player, without the test harness (which pulls in
// vitest-based suites). The `scripted` provider of @tack/llm plays files through this entry.
export * from './script.ts'
export { play, ScriptExhaustedError } from './scripted-model.ts'
