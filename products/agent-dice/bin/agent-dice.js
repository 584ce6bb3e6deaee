#!/usr/bin/env node
// The `agent-dice` CLI (also installed as `cc-dice`).
import { loadModule } from './load.js'

const { runCliProcess } = await loadModule('cli/process')
await runCliProcess()
