#!/usr/bin/env node
// Claude Code SessionStart hook: clears slots on a fresh session and exports its id.
import { loadModule } from '../bin/load.js'

const { runHookProcess } = await loadModule('hooks/process')
await runHookProcess('claude-session-start')
