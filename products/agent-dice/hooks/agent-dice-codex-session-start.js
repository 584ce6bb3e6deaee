#!/usr/bin/env node
// Codex SessionStart hook: clears slots on a fresh session and exports the host.
import { loadModule } from '../bin/load.js'

const { runHookProcess } = await loadModule('hooks/process')
await runHookProcess('codex-session-start')
