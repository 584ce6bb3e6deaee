// @tack/tui: tack's interactive terminal UI on pi-tui. `tack`, `tack -c` and `tack -r` import it (and
// only they do), load TuiPlugin into the booted kernel and run an InteractiveApp until the user exits.
export { InteractiveApp, type InteractiveOptions, EXIT_CONFIRM_MS } from './app.ts'
export { ApprovalQueue, USER_DENIED } from './approvals.ts'
export { asciiTerminal, foldToAscii } from './ascii-terminal.ts'
export { TuiConfig } from './config.ts'
export type { InteractiveHost, SessionTarget } from './host.ts'
export { TuiPlugin, type TuiScreen, TuiService } from './plugin.ts'
export { PromptHistory } from './prompt-history.ts'
export { createTheme, isUtf8Locale, type Theme, themeFromEnv, wantsColor } from './theme.ts'
export { SessionView, type Pricing } from './view-model.ts'
