#!/usr/bin/env node
// Codex Stop hook: rolls every dice slot; a hit exits 2 with the continuation prompt on stderr.
import { loadModule } from '../bin/load.js'

const { runHookProcess } = await loadModule('hooks/process')
await runHookProcess('codex-stop')
