#!/usr/bin/env node
// Claude Code Stop hook: rolls every dice slot; a hit exits 2 with the nudge on stderr.
import { loadModule } from '../bin/load.js'

const { runHookProcess } = await loadModule('hooks/process')
await runHookProcess('claude-stop')
