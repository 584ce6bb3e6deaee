// How tools reach the model (TL-19), defined once: the tools plugin's `mode`, the CLI's `--tools-mode` and
// `toolsMode:` in config files all take their values from here (issue 8 item 3).
export const TOOLS_MODES = Object.freeze(['native', 'code', 'both'] as const)
export type ToolsMode = (typeof TOOLS_MODES)[number]
