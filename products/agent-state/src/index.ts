// agent-state's readers as a library, for `tack state …` and other tools; the mod itself ships as mod/.
export { countSessions, type Io, status, tmux, tmuxLine, watch } from './readers/commands.ts'
export { MOD_DIR, main } from './readers/cli.ts'
export { type Entry, folders, livenessOf, readEntries, type Snapshot } from './readers/snapshots.ts'
export { duration, renderJson, renderTable } from './readers/table.ts'
