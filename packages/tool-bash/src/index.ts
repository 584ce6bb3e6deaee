// @tack/tool-bash: the `bash` tool (TL-17): the environment scrub and the sandbox policy of
// model-written commands, over the process runner it shares with hooks (`@tack/process`, TL-33).
export { COMMAND_ENV_OVERRIDES, isSecretName, SECRET_NAME_PARTS, scrubEnvironment } from './environment.ts'
export { createBashTool, NO_SESSION_FOLDER } from './bash-tool.ts'
export { BashToolConfig } from './config.ts'
export { type BashArgs, type BashMeta, bashPresentation } from './present.ts'
export { BashToolPlugin } from './plugin.ts'
export { removeSessionScratch, sessionScratchFolder, sweepScratch } from './scratch.ts'
export { type BashOutcome, outcomeOf, resultText } from './result-text.ts'
export {
  type CommandRun,
  type CommandRunner,
  commandRunnerOf,
  shellCommandLine,
  useCommandRunners,
} from './runner.ts'
export { tempFolders } from './sandbox-policy.ts'
